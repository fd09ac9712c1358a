// Dotted-key navigation of the TOML tree and conversion of TOML values to the C++ types physics
// code asks for (see case_state.hpp). Conversion rules: an integer is accepted where a double is
// asked; a float is accepted where an integer is asked only when it is integral and in range.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>

#include "config/case_state.hpp"
#include "core/error.hpp"

namespace scfd::config::detail {
namespace {

bool is_key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

// Double-quoted one-line strings, as C and TOML readers expect them in messages.
constexpr auto kFlags = toml::format_flags::allow_unicode_strings;

// Prints a value the way TOML writes it, shortened to one readable line.
std::string toml_text(const toml::node& node) {
  std::ostringstream os;
  node.visit([&os](const auto& v) { os << toml::toml_formatter{v, kFlags}; });
  std::string text = os.str();
  for (char& c : text)
    if (c == '\n') c = ' ';
  constexpr std::size_t kMax = 60;
  if (text.size() > kMax) text = text.substr(0, kMax - 3) + "...";
  return text;
}

std::string describe_table(const toml::table& table) {
  if (table.empty()) return "an empty table";
  std::string keys;
  for (const auto& [k, v] : table) keys += (keys.empty() ? "" : ", ") + std::string(k.str());
  return "a table (keys " + keys + ")";
}

std::optional<ConvertError> mismatch(const toml::node& node, std::string_view expected) {
  return ConvertError{"", &node, fmt::format("expected {}, got {}", expected, describe(node))};
}

std::optional<ConvertError> to_integer(const toml::node& node, long long& out,
                                       std::string_view expected) {
  if (const auto* i = node.as_integer()) {
    out = i->get();
    return std::nullopt;
  }
  if (const auto* f = node.as_floating_point()) {
    const double v = f->get();
    // 2^63 is exact as a double; integral doubles in [-2^63, 2^63) convert exactly.
    if (std::trunc(v) == v && v >= -9.223372036854775808e18 && v < 9.223372036854775808e18) {
      out = static_cast<long long>(v);
      return std::nullopt;
    }
  }
  return mismatch(node, expected);
}

template <typename E>
std::optional<ConvertError> to_vector(const toml::node& node, std::vector<E>& out,
                                      std::string_view expected) {
  const toml::array* array = node.as_array();
  if (array == nullptr) return mismatch(node, expected);
  out.clear();
  out.reserve(array->size());
  for (std::size_t i = 0; i < array->size(); ++i) {
    E element{};
    if (auto error = convert((*array)[i], element)) {
      error->suffix = fmt::format("[{}]", i) + error->suffix;
      return error;
    }
    out.push_back(std::move(element));
  }
  return std::nullopt;
}

}  // namespace

namespace {

bool is_control(unsigned char c) {
  return (c < 0x20 && c != '\t') || c == 0x7f;
}

// Reads the quoted segment starting at key[i] ('...' literal, "..." with TOML's escapes) into
// `out` and returns the index after its closing quote, or npos when it is not well formed.
std::size_t read_quoted(std::string_view key, std::size_t i, std::string& out) {
  const char quote = key[i++];
  while (i < key.size() && key[i] != quote) {
    const auto c = static_cast<unsigned char>(key[i]);
    if (is_control(c)) return std::string_view::npos;
    if (c != '\\' || quote == '\'') {
      out += key[i++];
      continue;
    }
    if (++i == key.size()) return std::string_view::npos;
    const char e = key[i++];
    static constexpr std::string_view kFrom = "btnfr\"\\", kTo = "\b\t\n\f\r\"\\";
    if (const std::size_t k = kFrom.find(e); k != std::string_view::npos) {
      out += kTo[k];
    } else if (e == 'u' || e == 'U') {
      const std::size_t n = e == 'u' ? 4 : 8;
      if (key.size() - i < n) return std::string_view::npos;
      std::uint32_t code = 0;
      for (std::size_t j = 0; j < n; ++j) {
        const char h = key[i + j];
        const int v = h >= '0' && h <= '9'   ? h - '0'
                      : h >= 'a' && h <= 'f' ? h - 'a' + 10
                      : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                             : -1;
        if (v < 0) return std::string_view::npos;
        code = code * 16 + static_cast<std::uint32_t>(v);
      }
      i += n;
      if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return std::string_view::npos;
      if (code < 0x80) {
        out += static_cast<char>(code);
      } else if (code < 0x800) {
        out += static_cast<char>(0xc0 | (code >> 6));
        out += static_cast<char>(0x80 | (code & 0x3f));
      } else if (code < 0x10000) {
        out += static_cast<char>(0xe0 | (code >> 12));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (code & 0x3f));
      } else {
        out += static_cast<char>(0xf0 | (code >> 18));
        out += static_cast<char>(0x80 | ((code >> 12) & 0x3f));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (code & 0x3f));
      }
    } else {
      return std::string_view::npos;
    }
  }
  return i < key.size() ? i + 1 : std::string_view::npos;
}

// The segments of a dotted key, or nullopt when it is not one.
std::optional<std::vector<std::string>> parse_key(std::string_view key) {
  std::vector<std::string> segments;
  if (key.empty()) return segments;
  std::size_t i = 0;
  for (;;) {
    std::string segment;
    if (key[i] == '\'' || key[i] == '"') {
      i = read_quoted(key, i, segment);
      if (i == std::string_view::npos) return std::nullopt;
    } else {
      const std::size_t start = i;
      while (i < key.size() && is_key_char(key[i])) ++i;
      if (i == start) return std::nullopt;
      segment = key.substr(start, i - start);
    }
    segments.push_back(std::move(segment));
    if (i == key.size()) return segments;
    if (key[i] != '.' || ++i == key.size()) return std::nullopt;
  }
}

}  // namespace

std::vector<std::string> split_key(std::string_view key) {
  auto segments = parse_key(key);
  SCFD_CHECK(segments.has_value(), "invalid case-file key '{}'", printable(key));
  return std::move(*segments);
}

std::string join_key(std::span<const std::string> segments) {
  std::string out;
  for (std::size_t i = 0; i < segments.size(); ++i)
    out += (i == 0 ? "" : ".") + key_segment(segments[i]);
  return out;
}

bool is_valid_key(std::string_view key) {
  return !key.empty() && parse_key(key).has_value();
}

std::optional<std::string> canonical_key(std::string_view key) {
  auto segments = parse_key(key);
  if (!segments || segments->empty()) return std::nullopt;
  return join_key(*segments);
}

bool is_key_prefix(std::string_view prefix, std::string_view key) {
  if (prefix.empty()) return true;
  return key.starts_with(prefix) && (key.size() == prefix.size() || key[prefix.size()] == '.');
}

const toml::node* find_node(const toml::table& root, std::string_view key) {
  const toml::node* node = &root;
  for (const std::string& segment : split_key(key)) {
    const toml::table* table = node->as_table();
    if (table == nullptr) return nullptr;
    node = table->get(segment);
    if (node == nullptr) return nullptr;
  }
  return node;
}

std::optional<std::string> non_table_parent(const toml::table& root, std::string_view key) {
  const std::vector<std::string> segments = split_key(key);
  const toml::table* table = &root;
  std::string prefix;
  for (std::size_t i = 0; i + 1 < segments.size(); ++i) {
    prefix += (i == 0 ? "" : ".") + key_segment(segments[i]);
    const toml::node* node = table->get(segments[i]);
    if (node == nullptr) return std::nullopt;
    table = node->as_table();
    if (table == nullptr) return prefix;
  }
  return std::nullopt;
}

void set_node(toml::table& root, std::string_view key, const toml::node& value) {
  const std::vector<std::string> segments = split_key(key);
  SCFD_CHECK(!segments.empty(), "set_node needs a key");
  toml::table* table = &root;
  for (std::size_t i = 0; i + 1 < segments.size(); ++i) {
    toml::node* node = table->get(segments[i]);
    if (node == nullptr) node = table->insert(segments[i], toml::table{}).first->second.as_table();
    table = node->as_table();
    SCFD_CHECK(table != nullptr, "'{}' is below a non-table", key);
  }
  table->insert_or_assign(segments.back(), value);
}

std::string describe(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string:
      return "string " + toml_text(node);
    case toml::node_type::integer:
      return "integer " + toml_text(node);
    case toml::node_type::floating_point:
      return "float " + toml_text(node);
    case toml::node_type::boolean:
      return "boolean " + toml_text(node);
    case toml::node_type::array:
      return "array " + toml_text(node);
    case toml::node_type::table:
      return describe_table(*node.as_table());
    case toml::node_type::date:
      return "date " + toml_text(node);
    case toml::node_type::time:
      return "time " + toml_text(node);
    case toml::node_type::date_time:
      return "date-time " + toml_text(node);
    case toml::node_type::none:
      break;
  }
  return "nothing";
}

std::optional<ConvertError> convert(const toml::node& node, double& out) {
  if (const auto* f = node.as_floating_point()) {
    if (!std::isfinite(f->get())) return mismatch(node, "a finite number");
    out = f->get();
    return std::nullopt;
  }
  if (const auto* i = node.as_integer()) {
    out = static_cast<double>(i->get());
    return std::nullopt;
  }
  return mismatch(node, "a number");
}

std::optional<ConvertError> convert(const toml::node& node, long long& out) {
  return to_integer(node, out, "an integer");
}

std::optional<ConvertError> convert(const toml::node& node, int& out) {
  long long wide = 0;
  constexpr auto kLow = std::numeric_limits<int>::min();
  constexpr auto kHigh = std::numeric_limits<int>::max();
  const std::string expected = fmt::format("an integer in [{}, {}]", kLow, kHigh);
  if (auto error = to_integer(node, wide, "an integer")) return error;
  if (wide < kLow || wide > kHigh) return mismatch(node, expected);
  out = static_cast<int>(wide);
  return std::nullopt;
}

std::optional<ConvertError> convert(const toml::node& node, bool& out) {
  if (const auto* b = node.as_boolean()) {
    out = b->get();
    return std::nullopt;
  }
  return mismatch(node, "true or false");
}

std::optional<ConvertError> convert(const toml::node& node, std::string& out) {
  if (const auto* s = node.as_string()) {
    out = s->get();
    return std::nullopt;
  }
  return mismatch(node, "a string");
}

std::optional<ConvertError> convert(const toml::node& node, std::vector<double>& out) {
  return to_vector(node, out, "an array of numbers");
}

std::optional<ConvertError> convert(const toml::node& node, std::vector<long long>& out) {
  return to_vector(node, out, "an array of integers");
}

std::optional<ConvertError> convert(const toml::node& node, std::vector<std::string>& out) {
  return to_vector(node, out, "an array of strings");
}

template <CaseValue T>
std::unique_ptr<toml::node> to_node(const T& value) {
  if constexpr (std::same_as<T, int> || std::same_as<T, long long>) {
    return std::unique_ptr<toml::node>{
        new toml::value<std::int64_t>(static_cast<std::int64_t>(value))};
  } else if constexpr (std::same_as<T, double> || std::same_as<T, bool> ||
                       std::same_as<T, std::string>) {
    return std::unique_ptr<toml::node>{new toml::value<T>(value)};
  } else {
    auto array = std::make_unique<toml::array>();
    for (const auto& element : value) {
      if constexpr (std::same_as<typename T::value_type, long long>)
        array->push_back(static_cast<std::int64_t>(element));
      else
        array->push_back(element);
    }
    return array;
  }
}

template std::unique_ptr<toml::node> to_node(const double&);
template std::unique_ptr<toml::node> to_node(const int&);
template std::unique_ptr<toml::node> to_node(const long long&);
template std::unique_ptr<toml::node> to_node(const bool&);
template std::unique_ptr<toml::node> to_node(const std::string&);
template std::unique_ptr<toml::node> to_node(const std::vector<double>&);
template std::unique_ptr<toml::node> to_node(const std::vector<long long>&);
template std::unique_ptr<toml::node> to_node(const std::vector<std::string>&);

}  // namespace scfd::config::detail

namespace scfd::config {

std::string key_segment(std::string_view name) {
  if (!name.empty() && std::all_of(name.begin(), name.end(), detail::is_key_char))
    return std::string(name);
  const bool literal = std::none_of(name.begin(), name.end(), [](char c) {
    return c == '\'' || detail::is_control(static_cast<unsigned char>(c));
  });
  if (literal) return "'" + std::string(name) + "'";
  std::string out = "\"";
  for (const char c : name) {
    if (c == '"' || c == '\\')
      out += {'\\', c};
    else if (c == '\t')
      out += "\\t";
    else if (detail::is_control(static_cast<unsigned char>(c)))
      out += fmt::format("\\u{:04X}", static_cast<unsigned char>(c));
    else
      out += c;
  }
  return out + '"';
}

}  // namespace scfd::config
