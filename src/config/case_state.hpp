// Private to src/config: the state behind a Case (the parsed TOML tree, the overrides, the
// defaults used and the keys queried) and the helpers its .cpp files share. Not for physics code:
// include case.hpp instead, which does not expose toml++.
#pragma once

#include <toml++/toml.h>

#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "config/case.hpp"

namespace scfd::config {

// One --set override: its dotted key and its text as given ("solver.tolerance=1e-8").
struct Override {
  std::string key;
  std::string text;
};

struct CaseState {
  std::string path;                            // case file path or display name
  toml::table root;                            // the file with the overrides applied
  std::vector<Override> overrides;             // in the order applied
  toml::table defaults;                        // every default returned, at its dotted key
  std::set<std::string, std::less<>> queried;  // keys queried (present or not), tables listed
};

namespace detail {

// Dotted keys are TOML's: segments joined by '.', each bare (letters, digits, '_', '-') or quoted
// ('side walls', "it's"). Keys are stored and compared in the canonical form join_key() writes
// (each segment as key_segment() writes it), so "boundary.\"a b\"" and "boundary.'a b'" are one
// key.
//
// The segments of a valid dotted key, unquoted ("" -> none).
std::vector<std::string> split_key(std::string_view key);
// The segments as a canonical dotted key.
std::string join_key(std::span<const std::string> segments);
// A non-empty dotted key.
bool is_valid_key(std::string_view key);
// `key` in canonical form (nullopt when it is not a valid key).
std::optional<std::string> canonical_key(std::string_view key);
// True when `prefix` is `key` or a table above it ("a.b" is a prefix of "a.b.c", not "a.bc").
bool is_key_prefix(std::string_view prefix, std::string_view key);

// Where `key` comes from, for messages: "PATH:LINE", "PATH: --set k=v" (the key or a table
// above or below it was set by an override) or "PATH".
std::string locate(const CaseState& state, std::string_view key, const toml::node* node);

// The node at `key` in `root` (nullptr when absent or below a non-table). "" is the root.
const toml::node* find_node(const toml::table& root, std::string_view key);
// The first proper prefix of `key` whose value is not a table (nullopt when there is none).
std::optional<std::string> non_table_parent(const toml::table& root, std::string_view key);
// Sets `key` to `value`, creating missing tables (parents must be tables or absent).
void set_node(toml::table& root, std::string_view key, const toml::node& value);

// `root` as TOML text: values, then [tables]; floats in their shortest round-trip form.
std::string write_toml(const toml::table& root);

// The value as a message shows it: string "small", integer 3, float 1.5, array [1, 2], ...
std::string describe(const toml::node& node);

// Conversion of a TOML value to a C++ type; on failure, what went wrong and where (a suffix such
// as "[2]" for an array element, and the node at fault).
struct ConvertError {
  std::string suffix;
  const toml::node* node = nullptr;
  std::string message;  // "expected a number, got string \"small\""
};
std::optional<ConvertError> convert(const toml::node& node, double& out);
std::optional<ConvertError> convert(const toml::node& node, int& out);
std::optional<ConvertError> convert(const toml::node& node, long long& out);
std::optional<ConvertError> convert(const toml::node& node, bool& out);
std::optional<ConvertError> convert(const toml::node& node, std::string& out);
std::optional<ConvertError> convert(const toml::node& node, std::vector<double>& out);
std::optional<ConvertError> convert(const toml::node& node, std::vector<long long>& out);
std::optional<ConvertError> convert(const toml::node& node, std::vector<std::string>& out);

// The TOML value for a default of type T.
template <CaseValue T>
std::unique_ptr<toml::node> to_node(const T& value);

}  // namespace detail
}  // namespace scfd::config
