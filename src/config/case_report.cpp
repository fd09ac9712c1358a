// Reports over a whole case: where a key comes from (for messages), the unused-key check with
// its "did you mean" suggestion (docs/architecture.md §8.6), and the effective configuration.
#include <algorithm>
#include <cstdint>
#include <tuple>

#include "config/case_state.hpp"
#include "core/error.hpp"

namespace scfd::config {
namespace {

// A key of the file that was never queried.
struct Unused {
  bool from_override;  // file keys are reported first, in file order
  std::uint32_t line;
  std::uint32_t column;
  std::string key;
  const toml::node* node;
};

// The order of the report: the file's keys in file order, then the overrides'.
bool reported_before(const Unused& a, const Unused& b) {
  return std::tie(a.from_override, a.line, a.column) < std::tie(b.from_override, b.line, b.column);
}

bool overridden(const CaseState& state, std::string_view key) {
  for (const Override& o : state.overrides)
    if (detail::is_key_prefix(o.key, key) || detail::is_key_prefix(key, o.key)) return true;
  return false;
}

// Leaves (values and empty tables) under `table` that were never queried.
void collect_unused(const CaseState& state, const toml::table& table, const std::string& prefix,
                    std::vector<Unused>& out) {
  for (const auto& [k, v] : table) {
    const std::string key = (prefix.empty() ? "" : prefix + ".") + key_segment(k.str());
    const toml::table* sub = v.as_table();
    if (sub != nullptr && !sub->empty()) {
      collect_unused(state, *sub, key, out);
    } else if (!state.queried.contains(key)) {
      const auto& begin = v.source().begin;
      out.push_back(Unused{overridden(state, key), begin.line, begin.column, key, &v});
    }
  }
}

// `key`'s segments from `first` on, at most `count` of them, joined by '.'.
std::string join_segments(const std::vector<std::string>& segments, std::size_t first,
                          std::size_t count) {
  const std::size_t end = std::min(segments.size(), first + count);
  return detail::join_key(std::span(segments).subspan(first, end - first));
}

// The number of leading segments `key` shares with the deepest table that code has queried
// below (or as) some key.
std::size_t known_depth(const CaseState& state, const std::vector<std::string>& segments) {
  std::size_t depth = 0;
  for (const std::string& q : state.queried) {
    const std::vector<std::string> qs = detail::split_key(q);
    std::size_t k = 0;
    while (k < qs.size() && k + 1 < segments.size() && qs[k] == segments[k]) ++k;
    depth = std::max(depth, k);
  }
  return depth;
}

// " (did you mean 'solver.tolerance'?)", " (valid keys in [solver]: a, b)" or "".
std::string suggestion(const CaseState& state, std::string_view key) {
  const std::vector<std::string> segments = detail::split_key(key);
  const std::size_t depth = known_depth(state, segments);
  const std::string table = join_segments(segments, 0, depth);
  const std::string rest = join_segments(segments, depth, segments.size());
  const std::size_t rest_count = segments.size() - depth;
  std::vector<std::string> candidates;  // queried keys below `table`, cut to rest_count segments
  std::vector<std::string> names;       // the names directly below `table` that code reads
  for (const std::string& q : state.queried) {
    const std::vector<std::string> qs = detail::split_key(q);
    if (qs.size() < depth + 1 || !detail::is_key_prefix(table, q)) continue;
    names.push_back(key_segment(qs[depth]));
    if (qs.size() < depth + rest_count) continue;
    const std::string candidate = join_segments(qs, depth, rest_count);
    if (candidate != rest) candidates.push_back(candidate);
  }
  std::sort(candidates.begin(), candidates.end());
  const std::string near = nearest(rest, candidates);
  if (!near.empty())
    return fmt::format(" (did you mean '{}'?)", table.empty() ? near : table + "." + near);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  if (names.empty()) return "";
  if (table.empty()) return fmt::format(" (valid top-level keys: {})", join(names));
  return fmt::format(" (valid keys in [{}]: {})", table, join(names));
}

}  // namespace

std::string detail::locate(const CaseState& state, std::string_view key, const toml::node* node) {
  for (auto o = state.overrides.rbegin(); o != state.overrides.rend(); ++o)
    if (is_key_prefix(o->key, key))
      return fmt::format("{}: --set {}", state.path, printable(o->text));
  if (node != nullptr && node->source().begin.line > 0)
    return fmt::format("{}:{}", state.path, node->source().begin.line);
  for (auto o = state.overrides.rbegin(); o != state.overrides.rend(); ++o)
    if (is_key_prefix(key, o->key))
      return fmt::format("{}: --set {}", state.path, printable(o->text));
  return state.path;
}

void Case::check_all_used() const {
  std::vector<Unused> unused;
  collect_unused(*state_, state_->root, "", unused);
  if (unused.empty()) return;
  std::stable_sort(unused.begin(), unused.end(), reported_before);
  const Unused& first = unused.front();
  std::string also;
  constexpr std::size_t kListed = 5;
  for (std::size_t i = 1; i < unused.size() && i <= kListed; ++i)
    also += (i == 1 ? "; also unknown: " : ", ") + printable(unused[i].key);
  if (unused.size() > kListed + 1) also += fmt::format(" and {} more", unused.size() - kListed - 1);
  throw input_error("{}: unknown key '{}'{}{}", detail::locate(*state_, first.key, first.node),
                    printable(first.key), suggestion(*state_, first.key), also);
}

void Case::check_known_keys(std::string_view table, std::span<const std::string_view> known) const {
  const toml::table* t = state_->root[table].as_table();
  if (t == nullptr) return;
  std::vector<Unused> unknown;
  for (const auto& [k, v] : *t)
    if (std::find(known.begin(), known.end(), k.str()) == known.end()) {
      const auto& begin = v.source().begin;
      const std::string key = std::string(table) + "." + key_segment(k.str());
      unknown.push_back(Unused{overridden(*state_, key), begin.line, begin.column, key, &v});
    }
  if (unknown.empty()) return;
  const Unused& first = *std::min_element(unknown.begin(), unknown.end(), reported_before);
  const std::vector<std::string> names(known.begin(), known.end());
  const std::string name = first.key.substr(table.size() + 1);
  const std::string near = nearest(name, names);
  const std::string hint = near.empty()
                               ? fmt::format(" (valid keys in [{}]: {})", table, join(names))
                               : fmt::format(" (did you mean '{}.{}'?)", table, near);
  throw input_error("{}: unknown key '{}'{}", detail::locate(*state_, first.key, first.node),
                    printable(first.key), hint);
}

std::string Case::effective_toml() const {
  toml::table effective = state_->root;
  std::vector<std::pair<std::string, const toml::node*>> leaves;
  // Defaults are only recorded for absent keys below tables (or nothing), so they merge cleanly.
  auto walk = [&leaves](auto& self, const toml::table& t, const std::string& prefix) -> void {
    for (const auto& [k, v] : t) {
      const std::string key = (prefix.empty() ? "" : prefix + ".") + key_segment(k.str());
      if (const toml::table* sub = v.as_table(); sub != nullptr && !sub->empty())
        self(self, *sub, key);
      else
        leaves.emplace_back(key, &v);
    }
  };
  walk(walk, state_->defaults, "");
  for (const auto& [key, node] : leaves) detail::set_node(effective, key, *node);
  return detail::write_toml(effective);
}

}  // namespace scfd::config
