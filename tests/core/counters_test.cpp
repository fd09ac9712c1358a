// The synchronisation counters (core/counters.hpp): a snapshot's difference is what was added
// between, every kind has its own distinct summary name, and the collectives count nothing while
// MPI is not running (this test program never starts it: the plain local value, no message).
#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <string>
#include <thread>

#include "core/collectives.hpp"
#include "core/counters.hpp"

namespace scfd {
namespace {

using counters::Kind;

TEST(Counters, DifferenceOfSnapshotsIsWhatWasAdded) {
  const counters::Snapshot before = counters::snapshot();
  counters::add(Kind::halo_exchange);
  counters::add(Kind::halo_bytes_sent, 800);
  counters::add(Kind::gpu_wait, 3);
  const counters::Snapshot d = counters::snapshot() - before;
  EXPECT_EQ(d[Kind::halo_exchange], 1u);
  EXPECT_EQ(d[Kind::halo_bytes_sent], 800u);
  EXPECT_EQ(d[Kind::gpu_wait], 3u);
  EXPECT_EQ(d[Kind::reduction], 0u);
  EXPECT_EQ(d[Kind::coarse_gather], 0u);
  EXPECT_EQ(d[Kind::other_collective], 0u);
}

TEST(Counters, AGpuWaitIsCountedAndTimed) {
  const counters::Snapshot before = counters::snapshot();
  {
    const counters::GpuWait wait;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  const counters::Snapshot d = counters::snapshot() - before;
  EXPECT_EQ(d[Kind::gpu_wait], 1u);
  EXPECT_EQ(d[Kind::gpu_drain], 1u);  // a glFinish or a read-back unless said otherwise
  EXPECT_GE(d[Kind::gpu_wait_us], 2000u);
  EXPECT_LT(d[Kind::gpu_wait_us], 2000000u);
}

TEST(Counters, AFenceWaitDrainsNothing) {
  const counters::Snapshot before = counters::snapshot();
  { const counters::GpuWait wait(counters::GpuWait::Through::fence); }
  const counters::Snapshot d = counters::snapshot() - before;
  EXPECT_EQ(d[Kind::gpu_wait], 1u);
  EXPECT_EQ(d[Kind::gpu_drain], 0u);
}

TEST(Counters, AnMpiWaitIsTimedNotCounted) {
  const counters::Snapshot before = counters::snapshot();
  {
    const counters::MpiWait wait;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  const counters::Snapshot d = counters::snapshot() - before;
  EXPECT_GE(d[Kind::mpi_wait_us], 2000u);
  EXPECT_LT(d[Kind::mpi_wait_us], 2000000u);
  EXPECT_EQ(d[Kind::reduction], 0u);
  EXPECT_EQ(d[Kind::gpu_wait_us], 0u);
}

TEST(Counters, CountersOnlyGrow) {
  const counters::Snapshot a = counters::snapshot();
  counters::add(Kind::reduction, 2);
  const counters::Snapshot b = counters::snapshot();
  for (const Kind k : counters::all_kinds()) EXPECT_GE(b[k], a[k]) << counters::name(k);
  EXPECT_EQ((b - a)[Kind::reduction], 2u);
}

TEST(Counters, EveryKindHasItsOwnName) {
  std::set<std::string> names;
  for (const Kind k : counters::all_kinds()) names.insert(counters::name(k));
  EXPECT_EQ(names.size(), counters::kinds);
  EXPECT_EQ(std::string(counters::name(Kind::halo_exchange)), "halo_exchanges");
  EXPECT_EQ(std::string(counters::name(Kind::halo_round)), "halo_rounds");
  EXPECT_EQ(std::string(counters::name(Kind::reduction)), "reductions");
  EXPECT_EQ(std::string(counters::name(Kind::coarse_gather)), "coarse_gathers");
  EXPECT_EQ(std::string(counters::name(Kind::gpu_wait)), "gpu_waits");
  EXPECT_EQ(std::string(counters::name(Kind::gpu_wait_us)), "gpu_wait_microseconds");
  EXPECT_EQ(std::string(counters::name(Kind::gpu_dispatch)), "gpu_dispatches");
  EXPECT_EQ(std::string(counters::name(Kind::gpu_drain)), "gpu_drains");
  EXPECT_EQ(std::string(counters::name(Kind::mpi_wait_us)), "mpi_wait_microseconds");
}

TEST(Counters, CollectivesWithoutMpiCountNothing) {
  ASSERT_FALSE(mpi_running());
  const counters::Snapshot before = counters::snapshot();
  EXPECT_EQ(global_sum(2.5), 2.5);
  EXPECT_EQ(global_max(static_cast<std::int64_t>(7)), 7);
  EXPECT_TRUE(any_rank(true));
  barrier();
  const counters::Snapshot d = counters::snapshot() - before;
  EXPECT_EQ(d[Kind::reduction], 0u);
  EXPECT_EQ(d[Kind::other_collective], 0u);
}

}  // namespace
}  // namespace scfd
