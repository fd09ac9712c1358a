// Edit distance and nearest-name suggestions used by case-file and formula errors.
#include "config/suggest.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace scfd::config {
namespace {

TEST(Suggest, EditDistanceCountsTranspositionsAsOne) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("tolerance", "tolerence"), 1u);
  EXPECT_EQ(edit_distance("ab", "ba"), 1u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("Inlet", "inlet"), 0u);  // case-insensitive
}

TEST(Suggest, NearestPicksTheClosestCloseCandidate) {
  const std::vector<std::string> patches{"inlet", "outlet", "walls"};
  EXPECT_EQ(nearest("inlt", patches), "inlet");
  EXPECT_EQ(nearest("outlett", patches), "outlet");
  EXPECT_EQ(nearest("wall", patches), "walls");
  EXPECT_EQ(nearest("symmetry", patches), "");
  EXPECT_EQ(nearest("x", std::vector<std::string>{}), "");
}

TEST(Suggest, JoinSeparatesWords) {
  const std::vector<std::string> words{"a", "b", "c"};
  EXPECT_EQ(join(words), "a, b, c");
  EXPECT_EQ(join(words, "|"), "a|b|c");
  EXPECT_EQ(join(std::vector<std::string>{}), "");
}

}  // namespace
}  // namespace scfd::config
