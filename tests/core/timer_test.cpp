// PhaseTimers accumulates per phase in first-seen order; the set-up's parts (SetupPart) nest per
// thread and count the seconds of a thread marked SetupBeside apart.
#include <gtest/gtest.h>

#include <array>
#include <thread>

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

// The set-up's parts (SetupPart): a part started inside another on the same thread pauses it;
// parts timed on another thread are their own, and with SetupBeside counted apart as well.
TEST(SetupParts, NestOnTheirThreadAndCountWhatRanBeside) {
  take_setup_parts();
  const auto wait = [](double seconds) {
    const Timer t;
    while (t.seconds() < seconds) {
    }
  };
  {
    const SetupPart outer(Part::geometry);
    wait(0.02);
    {
      const SetupPart inner(Part::edge_star);
      wait(0.03);
    }
    std::thread([&] {
      const SetupBeside beside;
      const SetupPart part(Part::multigrid);
      wait(0.02);
    }).join();
  }
  const SetupPartSeconds s = take_setup_parts();
  const auto at = [](const std::array<double, kParts>& a, Part p) {
    return a[static_cast<std::size_t>(p)];
  };
  EXPECT_GE(at(s.total, Part::edge_star), 0.03);
  EXPECT_GE(at(s.total, Part::geometry), 0.02 + 0.02);  // the other thread's part did not pause it
  EXPECT_GE(at(s.total, Part::multigrid), 0.02);
  EXPECT_EQ(at(s.beside, Part::multigrid), at(s.total, Part::multigrid));
  EXPECT_EQ(at(s.beside, Part::geometry), 0);
  EXPECT_EQ(at(take_setup_parts().total, Part::geometry), 0);  // taken: back to zero
}

}  // namespace
}  // namespace scfd
