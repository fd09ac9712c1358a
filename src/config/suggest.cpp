// Edit distance and nearest-word suggestions for input errors (see suggest.hpp).
// Reference: F. J. Damerau, "A technique for computer detection and correction of spelling
// errors", CACM 7(3), 1964; the optimal-string-alignment recurrence.
#include "config/suggest.hpp"

#include <algorithm>
#include <limits>
#include <vector>

namespace scfd::config {
namespace {

char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

template <typename Word>
std::string nearest_impl(std::string_view word, std::span<const Word> candidates) {
  std::size_t best = std::numeric_limits<std::size_t>::max();
  std::string_view chosen;
  for (const auto& candidate : candidates) {
    const std::string_view c{candidate};
    if (!is_close(word, c)) continue;
    const std::size_t d = edit_distance(word, c);
    if (d < best) {
      best = d;
      chosen = c;
    }
  }
  return std::string{chosen};
}

template <typename Word>
std::string join_impl(std::span<const Word> words, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += separator;
    out += std::string_view{words[i]};
  }
  return out;
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  const std::size_t m = b.size();
  // d[i][j] = distance between the first i characters of a and the first j of b.
  std::vector<std::size_t> d((n + 1) * (m + 1));
  auto at = [m, &d](std::size_t i, std::size_t j) -> std::size_t& { return d[i * (m + 1) + j]; };
  for (std::size_t i = 0; i <= n; ++i) at(i, 0) = i;
  for (std::size_t j = 0; j <= m; ++j) at(0, j) = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      std::size_t v = std::min({at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
          lower(a[i - 2]) == lower(b[j - 1]))
        v = std::min(v, at(i - 2, j - 2) + 1);
      at(i, j) = v;
    }
  }
  return at(n, m);
}

bool is_close(std::string_view word, std::string_view candidate) {
  return edit_distance(word, candidate) <= std::max<std::size_t>(1, word.size() / 3);
}

std::string nearest(std::string_view word, std::span<const std::string> candidates) {
  return nearest_impl(word, candidates);
}

std::string nearest(std::string_view word, std::span<const std::string_view> candidates) {
  return nearest_impl(word, candidates);
}

std::string did_you_mean(std::string_view word, std::span<const std::string> candidates) {
  const std::string n = nearest(word, candidates);
  return n.empty() ? std::string() : " (did you mean '" + n + "'?)";
}

std::string join(std::span<const std::string> words, std::string_view separator) {
  return join_impl(words, separator);
}

std::string join(std::span<const std::string_view> words, std::string_view separator) {
  return join_impl(words, separator);
}

}  // namespace scfd::config
