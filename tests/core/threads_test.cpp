// Host threads (core/threads.hpp): how loops are cut into chunks, that every chunk runs once, and
// that the first failing chunk's exception reaches the caller. That the set-up's results do not
// depend on the thread count is tested where they are made (verification/hodge3d_test.cpp).
#include "core/threads.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

namespace scfd {
namespace {

// Sets the thread count for one test and restores it.
class WithThreads {
 public:
  explicit WithThreads(int n) : old_(host_threads()) { set_host_threads(n); }
  ~WithThreads() { set_host_threads(old_); }
  WithThreads(const WithThreads&) = delete;
  WithThreads& operator=(const WithThreads&) = delete;

 private:
  int old_;
};

TEST(HostThreads, ChunksCoverTheRangeInOrderWithAtLeastTheGrain) {
  const WithThreads threads(4);
  EXPECT_EQ(chunk_bounds(0), std::vector<index>{0});
  EXPECT_EQ(chunk_bounds(10, 4096), (std::vector<index>{0, 10}));  // below two grains: one
  EXPECT_EQ(chunk_bounds(100, 30), (std::vector<index>{0, 33, 66, 100}));
  EXPECT_EQ(chunk_bounds(1000, 10), (std::vector<index>{0, 250, 500, 750, 1000}));  // <= threads
  set_host_threads(1);
  EXPECT_EQ(chunk_bounds(1000, 10), (std::vector<index>{0, 1000}));
}

TEST(HostThreads, EveryItemRunsOnce) {
  const WithThreads threads(3);
  std::vector<int> hits(10'000, 0);
  parallel_for(
      static_cast<index>(hits.size()),
      [&](index first, index end) {
        for (index i = first; i < end; ++i) ++hits[i];
      },
      100);
  for (const int h : hits) ASSERT_EQ(h, 1);
  std::atomic<int> chunks = 0;
  for_chunks(chunk_bounds(10'000, 100), [&](std::size_t, index, index) { ++chunks; });
  EXPECT_EQ(chunks, 3);
}

TEST(HostThreads, TheFirstFailingChunksExceptionReachesTheCaller) {
  const WithThreads threads(4);
  std::atomic<int> ran = 0;
  try {
    for_chunks(chunk_bounds(4000, 1000), [&](std::size_t c, index, index) {
      ++ran;
      if (c >= 1) throw std::runtime_error("chunk " + std::to_string(c));
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "chunk 1");
  }
  EXPECT_EQ(ran, 4);  // the others ran to their end
}

}  // namespace
}  // namespace scfd
