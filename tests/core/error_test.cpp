// InputError carries its one-line message; SCFD_CHECK aborts with expression and location.
#include <gtest/gtest.h>

#include "core/error.hpp"

namespace scfd {
namespace {

TEST(InputError, CarriesFormattedMessage) {
  InputError e = input_error("{}:{}: bad value '{}'", "case.toml", 3, "x");
  EXPECT_STREQ(e.what(), "case.toml:3: bad value 'x'");
}

TEST(CheckDeathTest, AbortsWithExpressionAndMessage) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      SCFD_CHECK(1 + 1 == 3, "arithmetic is {}", "broken"),
      "check failed on rank 0: 1 \\+ 1 == 3 at .*error_test.cpp:[0-9]+: arithmetic is broken");
  EXPECT_DEATH(SCFD_CHECK(false), "check failed on rank 0: false at");
}

TEST(Check, PassesSilently) {
  SCFD_CHECK(2 > 1, "never printed {}", 1);
}

}  // namespace
}  // namespace scfd
