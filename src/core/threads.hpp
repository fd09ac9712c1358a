// Host threads for the set-up's loops over cells, nodes and matrix rows (the Hodge stars, the
// multigrid's sparse products): the steps run on the backend, but at millions of cells the
// set-up's host loops were most of a short run (docs/architecture.md, "Host threads").
//
// A loop is cut into contiguous chunks (a few per thread for parallel_for), which the threads,
// the calling one among them, take in turn as they become free. A chunk's result may depend only
// on its own range, and callers combine per-chunk results in chunk order, so a result depends
// neither on the thread count nor on which thread ran what: the same bits with 1 or 16 threads. The
// threads call no MPI, and none outlives the loop that started it.
#pragma once

#include <algorithm>
#include <functional>
#include <vector>

#include "core/types.hpp"

namespace scfd {

// The number of threads a loop may use (>= 1; 1 until set).
int host_threads();
void set_host_threads(int n);
// The cores this process may run on (its CPU affinity), shared among the ranks of this node
// (ranks_on_node), at least 1. Collective over MPI_COMM_WORLD.
int default_host_threads();

// The boundaries 0 = b_0 < b_1 < ... < b_k = n of the chunks a loop over [0, n) is cut into:
// k <= host_threads(), each chunk at least `grain` items (one chunk when n < 2 grain); {0} for
// n = 0.
std::vector<index> chunk_bounds(index n, index grain = 4096);
// As chunk_bounds with up to kBlocksPerThread chunks per thread: for_chunks hands them to the
// threads as they become free, so a thread that runs slower (a core shared with a sibling
// hyperthread or the GPU driver's threads) or meets dearer items takes fewer, instead of the
// others waiting for it at the end of the loop.
inline constexpr index kBlocksPerThread = 8;
std::vector<index> block_bounds(index n, index grain = 4096);
// Runs body(chunk, begin, end) for every chunk [bounds[i], bounds[i + 1]) on at most
// host_threads() threads, the calling thread one of them, each taking the next chunk not yet
// taken; returns when all are done and rethrows the exception of the first chunk (in chunk
// order) that threw. Which thread runs a chunk varies from run to run: a chunk's result must
// depend on its range only.
void for_chunks(const std::vector<index>& bounds,
                const std::function<void(std::size_t chunk, index begin, index end)>& body);
// for_chunks over block_bounds(n, grain), for loops whose items write disjoint places.
void parallel_for(index n, const std::function<void(index begin, index end)>& body,
                  index grain = 4096);

// Sorts v ascending on the host threads: each chunk sorted apart, then merged pairwise. For
// elements no two of which compare equal (e.g. pairs of a key and a distinct index) the result
// is the one order there is, so it does not depend on the thread count.
template <typename T>
void parallel_sort(std::vector<T>& v) {
  std::vector<index> bounds = chunk_bounds(static_cast<index>(v.size()), 1 << 16);
  for_chunks(bounds, [&](std::size_t, index begin, index end) {
    std::sort(v.begin() + begin, v.begin() + end);
  });
  std::vector<T> merged(bounds.size() > 2 ? v.size() : 0);
  while (bounds.size() > 2) {  // chunks 2p and 2p + 1 merged into one, all pairs at once
    const std::size_t chunks = bounds.size() - 1, n_pairs = (chunks + 1) / 2;
    const auto bound = [&](std::size_t i) { return bounds[std::min(i, chunks)]; };
    for_chunks(
        chunk_bounds(static_cast<index>(n_pairs), 1), [&](std::size_t, index first, index last) {
          for (auto p = static_cast<std::size_t>(first); p < static_cast<std::size_t>(last); ++p)
            std::merge(v.begin() + bound(2 * p), v.begin() + bound(2 * p + 1),
                       v.begin() + bound(2 * p + 1), v.begin() + bound(2 * p + 2),
                       merged.begin() + bound(2 * p));
        });
    std::vector<index> next;
    for (std::size_t p = 0; p < n_pairs; ++p) next.push_back(bound(2 * p));
    next.push_back(bounds.back());
    bounds = std::move(next);
    v.swap(merged);
  }
}

}  // namespace scfd
