// Writes a TOML tree as text for the effective configuration. toml++'s own formatter is used for
// strings and dates, but floats are written here as the shortest decimal that reads back to the
// same double (0.7, not 0.69999999999999996), which the packaged toml++ does not do.
#include <array>
#include <charconv>
#include <cmath>
#include <sstream>

#include "config/case_state.hpp"

namespace scfd::config::detail {
namespace {

constexpr auto kFlags = toml::format_flags::allow_unicode_strings;

bool is_bare_key(std::string_view key) {
  if (key.empty()) return false;
  for (char c : key)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
          c == '-'))
      return false;
  return true;
}

void write_key(std::ostream& os, std::string_view key) {
  if (is_bare_key(key))
    os << key;
  else
    os << toml::toml_formatter{toml::value<std::string>(std::string(key)), kFlags};
}

void write_float(std::ostream& os, double v) {
  if (std::isnan(v)) {
    os << "nan";
  } else if (std::isinf(v)) {
    os << (v < 0 ? "-inf" : "inf");
  } else {
    std::array<char, 32> buf{};
    const auto res = std::to_chars(buf.data(), buf.data() + buf.size(), v);
    const std::string_view text(buf.data(), static_cast<std::size_t>(res.ptr - buf.data()));
    os << text;
    if (text.find_first_of(".e") == std::string_view::npos) os << ".0";
  }
}

void write_value(std::ostream& os, const toml::node& node);

void write_inline_table(std::ostream& os, const toml::table& table) {
  os << '{';
  bool first = true;
  for (const auto& [k, v] : table) {
    os << (first ? " " : ", ");
    write_key(os, k.str());
    os << " = ";
    write_value(os, v);
    first = false;
  }
  os << (first ? "}" : " }");
}

void write_value(std::ostream& os, const toml::node& node) {
  if (const auto* f = node.as_floating_point()) {
    write_float(os, f->get());
  } else if (const auto* array = node.as_array()) {
    os << '[';
    for (std::size_t i = 0; i < array->size(); ++i) {
      os << (i == 0 ? " " : ", ");
      write_value(os, (*array)[i]);
    }
    os << (array->empty() ? "]" : " ]");
  } else if (const auto* table = node.as_table()) {
    write_inline_table(os, *table);
  } else {
    node.visit([&os](const auto& v) { os << toml::toml_formatter{v, kFlags}; });
  }
}

std::string header_key(const std::string& prefix, std::string_view key) {
  std::ostringstream os;
  write_key(os, key);
  return prefix.empty() ? os.str() : prefix + "." + os.str();
}

// Values first, then each sub-table under its own [header] (omitted for a table that holds
// only sub-tables, as [a.b] implies [a]).
void write_table(std::ostream& os, const toml::table& table, const std::string& path) {
  for (const auto& [k, v] : table) {
    const toml::table* sub = v.as_table();
    if (sub != nullptr && !sub->is_inline()) continue;
    write_key(os, k.str());
    os << " = ";
    write_value(os, v);
    os << '\n';
  }
  for (const auto& [k, v] : table) {
    const toml::table* sub = v.as_table();
    if (sub == nullptr || sub->is_inline()) continue;
    const std::string sub_path = header_key(path, k.str());
    bool has_values = sub->empty();
    for (const auto& [sk, sv] : *sub)
      if (!sv.is_table() || sv.as_table()->is_inline()) has_values = true;
    if (has_values) os << (os.tellp() > 0 ? "\n[" : "[") << sub_path << "]\n";
    write_table(os, *sub, sub_path);
  }
}

}  // namespace

std::string write_toml(const toml::table& root) {
  std::ostringstream os;
  write_table(os, root, "");
  return os.str();
}

}  // namespace scfd::config::detail
