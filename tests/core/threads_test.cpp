// Host threads (core/threads.hpp): how loops are cut into chunks, that every chunk runs once, and
// that the first failing chunk's exception reaches the caller. That the set-up's results do not
// depend on the thread count is tested where they are made (verification/hodge3d_test.cpp).
#include "core/threads.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
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

// parallel_for and rows_on_threads cut a loop into up to kBlocksPerThread blocks per thread,
// which the threads take in turn: every block runs once, on at most host_threads() threads, and
// a thread that is slow takes fewer (here the first block's thread waits until the others have
// taken all the rest).
TEST(HostThreads, BlocksAreTakenByTheThreadsAsTheyBecomeFree) {
  const WithThreads threads(3);
  EXPECT_EQ(block_bounds(0), std::vector<index>{0});
  EXPECT_EQ(block_bounds(10, 4096), (std::vector<index>{0, 10}));
  EXPECT_EQ(block_bounds(100'000, 10).size(), static_cast<std::size_t>(3 * kBlocksPerThread + 1));
  EXPECT_EQ(block_bounds(100, 30), (std::vector<index>{0, 33, 66, 100}));
  const std::vector<index> bounds = block_bounds(100'000, 10);
  const std::size_t k = bounds.size() - 1;
  std::vector<std::atomic<int>> runs(k);
  std::atomic<std::size_t> done = 0;
  std::mutex m;
  std::set<std::thread::id> ids;
  for_chunks(bounds, [&](std::size_t c, index, index) {
    {
      const std::scoped_lock lock(m);
      ids.insert(std::this_thread::get_id());
    }
    ++runs[c];
    if (c == 0)  // chunk 0's thread is slow: the others take everything else meanwhile
      while (done.load() < k - 1) std::this_thread::yield();
    else
      ++done;
  });
  for (const std::atomic<int>& r : runs) ASSERT_EQ(r.load(), 1);
  EXPECT_LE(ids.size(), 3u);
  EXPECT_GE(ids.size(), 2u);
}

// parallel_sort: chunks sorted on the threads and merged pairwise, for any chunk count (odd
// ones leave a chunk alone in a round) and sizes below and above a chunk; keys with ties broken
// by a distinct index come out as std::sort puts them.
TEST(HostThreads, ParallelSortSortsAsStdSortDoes) {
  for (const int threads : {1, 2, 3, 5, 16})
    for (const std::size_t n :
         {std::size_t{0}, std::size_t{1}, std::size_t{70000}, std::size_t{300001}}) {
      const WithThreads with(threads);
      std::vector<std::pair<std::uint64_t, index>> v(n);
      std::uint64_t x = 12345;
      for (std::size_t i = 0; i < n; ++i) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        v[i] = {x >> 50, static_cast<index>(i)};  // few distinct keys: many ties on the key
      }
      std::vector<std::pair<std::uint64_t, index>> want = v;
      std::sort(want.begin(), want.end());
      parallel_sort(v);
      EXPECT_EQ(v, want) << threads << " threads, " << n << " items";
    }
}

}  // namespace
}  // namespace scfd
