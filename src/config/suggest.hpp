// "Did you mean" support for input errors (docs/architecture.md §8.5, §8.6): an edit distance
// between words and the nearest of a list of candidates, used for unknown case-file keys, invalid
// choices, unknown formula names and (by physics code) unknown boundary patch names.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace scfd::config {

// Damerau–Levenshtein distance (optimal string alignment variant: insertions, deletions,
// substitutions and transpositions of adjacent characters each cost 1), ASCII case-insensitive.
std::size_t edit_distance(std::string_view a, std::string_view b);

// True when `candidate` is close enough to `word` to be worth suggesting: at most
// max(1, |word| / 3) edits apart.
bool is_close(std::string_view word, std::string_view candidate);

// The candidate nearest to `word` among those that are close (ties: the first in the list), or ""
// when none is close.
std::string nearest(std::string_view word, std::span<const std::string> candidates);
std::string nearest(std::string_view word, std::span<const std::string_view> candidates);

// " (did you mean 'NEAREST'?)" when a candidate is close to `word`, else "": appended to
// messages about unknown names.
std::string did_you_mean(std::string_view word, std::span<const std::string> candidates);

// Joins words with `separator` ("a, b, c").
std::string join(std::span<const std::string> words, std::string_view separator = ", ");
std::string join(std::span<const std::string_view> words, std::string_view separator = ", ");

}  // namespace scfd::config
