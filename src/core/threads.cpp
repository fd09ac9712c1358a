// Host threads (see threads.hpp).
#include "core/threads.hpp"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

#include "core/collectives.hpp"
#include "core/error.hpp"

namespace scfd {
namespace {
int threads = 1;
}  // namespace

int host_threads() {
  return threads;
}

void set_host_threads(int n) {
  SCFD_CHECK(n >= 1, "set_host_threads({})", n);
  threads = n;
}

int default_host_threads() {
  cpu_set_t set;
  CPU_ZERO(&set);
  int cores = sched_getaffinity(0, sizeof(set), &set) == 0
                  ? CPU_COUNT(&set)
                  : static_cast<int>(std::thread::hardware_concurrency());
  return std::max(1, cores / ranks_on_node());
}

namespace {
// At most `most` chunks of at least `grain` items, their sizes within one item of each other.
std::vector<index> cut(index n, index grain, index most) {
  const index k = std::clamp<index>(n / std::max<index>(grain, 1), 1, most);
  std::vector<index> bounds(static_cast<std::size_t>(k) + 1);
  for (index i = 0; i <= k; ++i) bounds[i] = static_cast<index>(static_cast<long long>(n) * i / k);
  if (n == 0) bounds.resize(1);
  return bounds;
}
}  // namespace

std::vector<index> chunk_bounds(index n, index grain) {
  return cut(n, grain, threads);
}

std::vector<index> block_bounds(index n, index grain) {
  return cut(n, grain, kBlocksPerThread * threads);
}

void for_chunks(const std::vector<index>& bounds,
                const std::function<void(std::size_t chunk, index begin, index end)>& body) {
  if (bounds.size() < 2) return;
  const std::size_t k = bounds.size() - 1;
  std::vector<std::exception_ptr> error(k);
  std::atomic<std::size_t> next{0};
  // Each thread takes the next chunk not yet taken until none is left: a thread slowed by its
  // core (a sibling hyperthread, the driver's threads) or by dearer items takes fewer.
  auto work = [&] {
    for (std::size_t i = next.fetch_add(1); i < k; i = next.fetch_add(1)) {
      try {
        body(i, bounds[i], bounds[i + 1]);
      } catch (...) {
        error[i] = std::current_exception();
      }
    }
  };
  {
    const std::size_t n_threads = std::min(k, static_cast<std::size_t>(threads));
    std::vector<std::jthread> others;
    others.reserve(n_threads - 1);
    for (std::size_t i = 1; i < n_threads; ++i) others.emplace_back(work);
    work();
  }  // joined here
  for (const std::exception_ptr& e : error)
    if (e) std::rethrow_exception(e);
}

void parallel_for(index n, const std::function<void(index begin, index end)>& body, index grain) {
  for_chunks(block_bounds(n, grain), [&](std::size_t, index b, index e) { body(b, e); });
}

}  // namespace scfd
