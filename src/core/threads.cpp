// Host threads (see threads.hpp).
#include "core/threads.hpp"

#include <sched.h>

#include <algorithm>
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

std::vector<index> chunk_bounds(index n, index grain) {
  const index k = std::clamp<index>(n / std::max<index>(grain, 1), 1, threads);
  std::vector<index> bounds(static_cast<std::size_t>(k) + 1);
  for (index i = 0; i <= k; ++i) bounds[i] = static_cast<index>(static_cast<long long>(n) * i / k);
  if (n == 0) bounds.resize(1);
  return bounds;
}

void for_chunks(const std::vector<index>& bounds,
                const std::function<void(std::size_t chunk, index begin, index end)>& body) {
  if (bounds.size() < 2) return;
  const std::size_t k = bounds.size() - 1;
  std::vector<std::exception_ptr> error(k);
  auto run = [&](std::size_t i) {
    try {
      body(i, bounds[i], bounds[i + 1]);
    } catch (...) {
      error[i] = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> others;
    others.reserve(k - 1);
    for (std::size_t i = 1; i < k; ++i) others.emplace_back(run, i);
    run(0);
  }  // joined here
  for (const std::exception_ptr& e : error)
    if (e) std::rethrow_exception(e);
}

void parallel_for(index n, const std::function<void(index begin, index end)>& body, index grain) {
  for_chunks(chunk_bounds(n, grain), [&](std::size_t, index b, index e) { body(b, e); });
}

}  // namespace scfd
