// Strict case files (docs/architecture.md §8.6). A case file is TOML; physics code queries it by
// dotted key, AMReX-ParmParse style: require<T>() for required keys, get<T>(key, default) for
// optional ones, choice() for enumerations, function() for formula fields, table_keys() for
// user-named tables (boundary patches). Every key in the file that is never queried is an error
// (check_all_used(), called once the model has read its configuration), with the nearest valid
// key suggested. Overrides "dotted.key=value" (the command line's --set) are applied on load.
// The effective configuration (file + overrides + every default used) is effective_toml().
//
// Errors are InputError, one line, naming the file, line, key, the bad value and what was
// expected (docs/architecture.md §8.5):
//   cases/heat-cube/case.toml:21: solver.tolerance: expected a number, got string "small"
//   cases/x/case.toml: missing required key 'mesh.file'
//   cases/x/case.toml: --set solver.tolerance=small: solver.tolerance: expected a number, ...
//
// Accessors are const but record which keys were queried (and defaults used), so a Case is not
// safe to query from several threads at once; read the configuration during set-up.
#pragma once

#include <concepts>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "config/expression.hpp"
#include "config/suggest.hpp"

namespace scfd::config {

// The C++ types a key can be read as. Integers in the file are accepted as double; a float is
// accepted as an integer only when it is integral (3.0).
template <typename T>
concept CaseValue = std::same_as<T, double> || std::same_as<T, int> || std::same_as<T, long long> ||
    std::same_as<T, bool> || std::same_as<T, std::string> || std::same_as<T, std::vector<double>> ||
    std::same_as<T, std::vector<long long>> || std::same_as<T, std::vector<std::string>>;

// `name` as one segment of a dotted key, as TOML writes it: bare when it holds only letters,
// digits, '_' and '-' ("lid"), else quoted ('side walls', '', "it's"). Keys below user-named
// tables are built with it: "boundary." + key_segment(patch) + ".type". Messages that name a
// patch in a key use the same form, so what they show can be pasted into a case file.
std::string key_segment(std::string_view name);

struct CaseState;  // the parsed file and the bookkeeping (case_state.hpp, private)

class Case {
 public:
  // Parses the file at `path` (InputError "PATH: cannot read" or "PATH:LINE: <toml++ message>"),
  // then applies `overrides`, each "dotted.key=value". The value is parsed as a TOML value
  // (1e-8, true, "x", [1, 2], {a = 1}); text that is not TOML is taken as a bare string (so
  // "solver.backend=cpu" works). Intermediate tables are created as needed. A malformed override
  // (no '=', an empty or invalid key, a key below a non-table) is an InputError naming it.
  static Case load(const std::string& path, const std::vector<std::string>& overrides = {});

  // As load(), from text; `display_name` plays the part of the path in messages and
  // directory(). For tests and tools.
  static Case from_string(std::string_view toml_text, std::string display_name,
                          const std::vector<std::string>& overrides = {});

  Case(Case&&) noexcept;
  Case& operator=(Case&&) noexcept;
  ~Case();

  // The case file's path as given (or the display name).
  const std::string& path() const;
  // The folder of the case file ("." when the path has none).
  std::filesystem::path directory() const;
  // require<std::string>(key) as a path relative to directory() (absolute paths kept);
  // InputError if no such file exists.
  std::filesystem::path resolve_path(std::string_view key) const;

  // Whether the key is present (file or overrides). Does not count as a query.
  bool has(std::string_view key) const;

  // The value of a required key; InputError when missing or of the wrong type.
  template <CaseValue T>
  T require(std::string_view key) const;

  // The value of an optional key, or `default_value` (then recorded in the effective config).
  template <CaseValue T>
  T get(std::string_view key, T default_value) const;
  // get("solver.backend", "auto") reads a string.
  std::string get(std::string_view key, const char* default_value) const;

  // A string that must be one of `valid`; the error lists the valid choices and suggests the
  // nearest. Without a default the key is required.
  std::string choice(std::string_view key, std::span<const std::string_view> valid,
                     std::optional<std::string_view> default_value = std::nullopt) const;
  std::string choice(std::string_view key, std::initializer_list<std::string_view> valid,
                     std::optional<std::string_view> default_value = std::nullopt) const;

  // Names directly under a table, in file order ("boundary" -> its patch names; "" -> the
  // top-level names). Marks the table as read (its entries still have to be read themselves).
  // An absent table gives an empty list; a key that is not a table is an InputError.
  std::vector<std::string> table_keys(std::string_view table) const;

  // A scalar field given as a number or a formula string in x, y, z, t (see Expression).
  Expression function(std::string_view key) const;
  Expression function(std::string_view key, double default_value) const;

  // Throws InputError "PATH:LINE: key: message" (the key's location, as for the built-in
  // errors) so physics code can report semantic errors, e.g. a patch name not in the mesh.
  [[noreturn]] void fail(std::string_view key, std::string_view message) const;

  // Throws InputError for the first key of the file (then of the overrides) never queried:
  //   case.toml:14: unknown key 'solver.tolerence' (did you mean 'solver.tolerance'?)
  // or, when no queried key is close, the valid keys of that table.
  void check_all_used() const;

  // The same error, before anything is built, for a key under table `table` (one segment:
  // "solver") that is not in `known` (names directly below it, every name any model reads): a
  // typo there then costs no mesh or set-up. check_all_used() still reports a known key the
  // case's model does not read.
  void check_known_keys(std::string_view table, std::span<const std::string_view> known) const;

  // File + overrides + every default used, as TOML text (parses back to the same values).
  std::string effective_toml() const;

 private:
  explicit Case(std::unique_ptr<CaseState> state);

  std::unique_ptr<CaseState> state_;
};

}  // namespace scfd::config
