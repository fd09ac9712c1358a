// PhaseTimers accumulates per phase in first-seen order.
#include <gtest/gtest.h>

#include "core/timer.hpp"

namespace scfd {
namespace {

TEST(PhaseTimers, AccumulatesInFirstSeenOrder) {
  PhaseTimers t;
  t.add("read", 1.0);
  t.add("solve", 2.0);
  t.add("read", 0.5);
  ASSERT_EQ(t.phases().size(), 2u);
  EXPECT_EQ(t.phases()[0].first, "read");
  EXPECT_DOUBLE_EQ(t.get("read"), 1.5);
  EXPECT_DOUBLE_EQ(t.get("solve"), 2.0);
  EXPECT_DOUBLE_EQ(t.get("missing"), 0.0);
  { ScopedPhase p(t, "scoped"); }
  EXPECT_GE(t.get("scoped"), 0.0);
}

}  // namespace
}  // namespace scfd
