// Case: loading a case file, applying --set overrides and the typed accessors (see case.hpp).
// The unused-key check and the effective configuration are in case_report.cpp; TOML navigation
// and value conversion in case_values.cpp.
#include "config/case.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <tuple>

#include "config/case_state.hpp"
#include "core/error.hpp"

namespace scfd::config {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

toml::table parse_toml(std::string_view text, const std::string& path) {
  try {
    return toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    throw input_error("{}:{}: {}", path, e.source().begin.line, e.description());
  }
}

// The override's value: a TOML value when `text` is one, else `text` as a bare string.
toml::table parse_override_value(std::string_view text) {
  toml::table parsed;
  try {
    parsed = toml::parse("v = " + std::string(text));
  } catch (const toml::parse_error&) {
    parsed.clear();
  }
  if (parsed.size() != 1 || !parsed.contains("v")) {
    parsed.clear();
    parsed.insert("v", std::string(text));
  }
  return parsed;
}

void apply_override(CaseState& state, std::string_view text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string_view::npos)
    throw input_error("--set {}: expected dotted.key=value", printable(text));
  const std::string_view given = trim(text.substr(0, eq));
  if (given.empty())
    throw input_error("--set {}: empty key (expected dotted.key=value)", printable(text));
  const std::optional<std::string> canonical = detail::canonical_key(given);
  if (!canonical)
    throw input_error(
        "--set {}: invalid key '{}' (expected names of letters, digits, '_' or '-', or quoted "
        "names, joined by '.')",
        printable(text), printable(given));
  const std::string& key = *canonical;
  if (const auto parent = detail::non_table_parent(state.root, key)) {
    const toml::node* node = detail::find_node(state.root, *parent);
    throw input_error("--set {}: cannot set '{}': {}: '{}' is {}, not a table", text, key,
                      detail::locate(state, *parent, node), *parent, detail::describe(*node));
  }
  toml::table parsed = parse_override_value(trim(text.substr(eq + 1)));
  detail::set_node(state.root, key, *parsed.get("v"));
  state.overrides.push_back(Override{key, std::string(text)});
}

std::unique_ptr<CaseState> make_state(std::string_view text, std::string path,
                                      const std::vector<std::string>& overrides) {
  auto state = std::make_unique<CaseState>();
  state->root = parse_toml(text, path);
  state->path = std::move(path);
  for (const std::string& o : overrides) apply_override(*state, o);
  return state;
}

// Records that `key` was queried and returns its node (nullptr when absent). A table above the
// key that is not a table is an error.
const toml::node* query(CaseState& state, std::string_view key) {
  SCFD_CHECK(key.empty() || detail::canonical_key(key) == key,
             "'{}' is not a case-file key in canonical form (build it with key_segment)", key);
  state.queried.emplace(key);
  if (const auto parent = detail::non_table_parent(state.root, key)) {
    const toml::node* node = detail::find_node(state.root, *parent);
    throw input_error("{}: {}: expected a table holding '{}', got {}",
                      detail::locate(state, *parent, node), *parent, key, detail::describe(*node));
  }
  return detail::find_node(state.root, key);
}

// InputError for a required key that is absent; names a near key of the same table that the
// file does have, which is most often the same key misspelt.
[[noreturn]] void missing(const CaseState& state, std::string_view key) {
  std::vector<std::string> segments = detail::split_key(key);
  const std::string name = segments.back();
  segments.pop_back();
  const std::string table = detail::join_key(segments);
  std::string hint;
  if (const toml::node* node = detail::find_node(state.root, table); node && node->is_table()) {
    std::vector<std::string> names;
    for (const auto& [k, v] : *node->as_table()) names.emplace_back(k.str());
    const std::string near = nearest(name, names);
    if (!near.empty()) {
      segments.push_back(near);
      const std::string found = detail::join_key(segments);
      const auto line = detail::find_node(state.root, found)->source().begin.line;
      hint = line > 0 ? fmt::format(" (found '{}' at line {})", found, line)
                      : fmt::format(" (found '{}')", found);
    }
  }
  throw input_error("{}: missing required key '{}'{}", state.path, key, hint);
}

template <CaseValue T>
T read(const CaseState& state, std::string_view key, const toml::node& node) {
  T value{};
  if (auto error = detail::convert(node, value))
    throw input_error("{}: {}{}: {}", detail::locate(state, key, error->node), key, error->suffix,
                      error->message);
  return value;
}

}  // namespace

Case::Case(std::unique_ptr<CaseState> state) : state_(std::move(state)) {}
Case::Case(Case&&) noexcept = default;
Case& Case::operator=(Case&&) noexcept = default;
Case::~Case() = default;

Case Case::load(const std::string& path, const std::vector<std::string>& overrides) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw input_error("{}: cannot read ({})", path,
                      std::filesystem::exists(path, ec) ? "not a regular file" : "no such file");
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw input_error("{}: cannot read", path);
  return Case(make_state(text.str(), path, overrides));
}

Case Case::from_string(std::string_view toml_text, std::string display_name,
                       const std::vector<std::string>& overrides) {
  return Case(make_state(toml_text, std::move(display_name), overrides));
}

const std::string& Case::path() const {
  return state_->path;
}

std::filesystem::path Case::directory() const {
  const std::filesystem::path parent = std::filesystem::path(state_->path).parent_path();
  return parent.empty() ? std::filesystem::path(".") : parent;
}

std::filesystem::path Case::resolve_path(std::string_view key) const {
  const std::string given = require<std::string>(key);
  std::filesystem::path file(given);
  if (file.is_relative()) file = directory() / file;
  file = file.lexically_normal();
  std::error_code ec;
  if (!std::filesystem::exists(file, ec))
    fail(key, fmt::format("file '{}' not found (looked for '{}')", given, file.string()));
  return file;
}

bool Case::has(std::string_view key) const {
  return detail::find_node(state_->root, key) != nullptr;
}

template <CaseValue T>
T Case::require(std::string_view key) const {
  const toml::node* node = query(*state_, key);
  if (node == nullptr) missing(*state_, key);
  return read<T>(*state_, key, *node);
}

template <CaseValue T>
T Case::get(std::string_view key, T default_value) const {
  const toml::node* node = query(*state_, key);
  if (node != nullptr) return read<T>(*state_, key, *node);
  detail::set_node(state_->defaults, key, *detail::to_node(default_value));
  return default_value;
}

std::string Case::get(std::string_view key, const char* default_value) const {
  return get<std::string>(key, std::string(default_value));
}

#define SCFD_CONFIG_INSTANTIATE(T)                     \
  template T Case::require<T>(std::string_view) const; \
  template T Case::get<T>(std::string_view, T) const;
SCFD_CONFIG_INSTANTIATE(double)
SCFD_CONFIG_INSTANTIATE(int)
SCFD_CONFIG_INSTANTIATE(long long)
SCFD_CONFIG_INSTANTIATE(bool)
SCFD_CONFIG_INSTANTIATE(std::string)
SCFD_CONFIG_INSTANTIATE(std::vector<double>)
SCFD_CONFIG_INSTANTIATE(std::vector<long long>)
SCFD_CONFIG_INSTANTIATE(std::vector<std::string>)
#undef SCFD_CONFIG_INSTANTIATE

std::string Case::choice(std::string_view key, std::span<const std::string_view> valid,
                         std::optional<std::string_view> default_value) const {
  SCFD_CHECK(!default_value || std::find(valid.begin(), valid.end(), *default_value) != valid.end(),
             "default '{}' of '{}' is not one of its choices", *default_value, key);
  std::string value = default_value ? get<std::string>(key, std::string(*default_value))
                                    : require<std::string>(key);
  for (std::string_view v : valid)
    if (v == value) return value;
  const std::string near = nearest(value, valid);
  fail(key, fmt::format("'{}' is not valid (valid: {}{})", value, join(valid),
                        near.empty() ? "" : fmt::format("; did you mean '{}'?", near)));
}

std::string Case::choice(std::string_view key, std::initializer_list<std::string_view> valid,
                         std::optional<std::string_view> default_value) const {
  return choice(key, std::span<const std::string_view>(valid.begin(), valid.size()), default_value);
}

std::vector<std::string> Case::table_keys(std::string_view table) const {
  const toml::node* node = query(*state_, table);
  if (node == nullptr) return {};
  const toml::table* t = node->as_table();
  if (t == nullptr) fail(table, fmt::format("expected a table, got {}", detail::describe(*node)));
  // File order: by source position (keys from overrides, with no position, come last).
  struct Entry {
    std::uint32_t line, column;
    std::string name;
  };
  std::vector<Entry> entries;
  for (const auto& [k, v] : *t) {
    const auto& begin = v.source().begin;
    const bool placed = begin.line > 0;
    entries.push_back(
        Entry{placed ? begin.line : UINT32_MAX, placed ? begin.column : 0, std::string(k.str())});
  }
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.line, a.column) < std::tie(b.line, b.column);
  });
  std::vector<std::string> names;
  for (Entry& e : entries) names.push_back(std::move(e.name));
  return names;
}

Expression Case::function(std::string_view key) const {
  const toml::node* node = query(*state_, key);
  if (node == nullptr) missing(*state_, key);
  if (const auto* s = node->as_string()) {
    try {
      return Expression::parse(s->get());
    } catch (const InputError& e) {
      fail(key, e.what());
    }
  }
  if (!node->is_number())
    fail(key,
         fmt::format("expected a number or a formula string, got {}", detail::describe(*node)));
  return Expression::constant(read<double>(*state_, key, *node));
}

Expression Case::function(std::string_view key, double default_value) const {
  if (detail::find_node(state_->root, key) != nullptr) return function(key);
  return Expression::constant(get<double>(key, default_value));
}

void Case::fail(std::string_view key, std::string_view message) const {
  const toml::node* node = detail::find_node(state_->root, key);
  throw input_error("{}: {}: {}", detail::locate(*state_, key, node), key, message);
}

}  // namespace scfd::config
