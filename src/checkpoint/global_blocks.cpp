// Global-order blocks of entity values (see global_blocks.hpp).
#include "checkpoint/global_blocks.hpp"

#include <algorithm>

#include "core/collectives.hpp"
#include "core/error.hpp"

namespace scfd::checkpoint {
namespace {

std::int64_t block_begin(std::int64_t n, int rank, int ranks) {
  return n * rank / ranks;
}

}  // namespace

BlockExchange::BlockExchange(std::span<const std::int64_t> gids, std::int64_t n_global) {
  const int rank = world_rank(), ranks = world_size();
  block_ = {block_begin(n_global, rank, ranks),
            block_begin(n_global, rank + 1, ranks) - block_begin(n_global, rank, ranks)};
  const auto owner = [&](std::int64_t g) {
    // The last rank whose block starts at or before g.
    int lo = 0, hi = ranks - 1;
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (block_begin(n_global, mid, ranks) <= g)
        lo = mid;
      else
        hi = mid - 1;
    }
    return lo;
  };
  const auto r = static_cast<std::size_t>(ranks);
  send_counts_.assign(r, 0);
  std::vector<int> dest(gids.size());
  for (std::size_t i = 0; i < gids.size(); ++i) {
    SCFD_CHECK(gids[i] >= 0 && gids[i] < n_global, "global id {} outside [0, {})", gids[i],
               n_global);
    dest[i] = owner(gids[i]);
    ++send_counts_[static_cast<std::size_t>(dest[i])];
  }
  std::vector<int> fill(r, 0);  // where each rank's values start in the send order
  for (std::size_t k = 1; k < r; ++k) fill[k] = fill[k - 1] + send_counts_[k - 1];
  order_.resize(gids.size());
  std::vector<std::int64_t> sent(gids.size());
  for (std::size_t i = 0; i < gids.size(); ++i) {
    const auto at = static_cast<std::size_t>(fill[static_cast<std::size_t>(dest[i])]++);
    order_[at] = static_cast<std::int64_t>(i);
    sent[at] = gids[i];
  }
  recv_counts_ = all_to_all_counts(send_counts_);
  slot_ = all_to_all(sent, send_counts_, recv_counts_);
  for (std::int64_t& s : slot_) s -= block_.begin;
}

void BlockExchange::to_blocks(std::span<const real> local, std::span<real> block) const {
  SCFD_CHECK(local.size() == order_.size() && block.size() == static_cast<std::size_t>(block_.size),
             "to_blocks sizes: local {} of {}, block {} of {}", local.size(), order_.size(),
             block.size(), block_.size);
  std::vector<real> sent(order_.size());
  for (std::size_t k = 0; k < order_.size(); ++k)
    sent[k] = local[static_cast<std::size_t>(order_[k])];
  const std::vector<real> got = all_to_all(sent, send_counts_, recv_counts_);
  for (std::size_t k = 0; k < slot_.size(); ++k) block[static_cast<std::size_t>(slot_[k])] = got[k];
}

void BlockExchange::from_blocks(std::span<const real> block, std::span<real> local) const {
  SCFD_CHECK(local.size() == order_.size() && block.size() == static_cast<std::size_t>(block_.size),
             "from_blocks sizes: local {} of {}, block {} of {}", local.size(), order_.size(),
             block.size(), block_.size);
  std::vector<real> reply(slot_.size());
  for (std::size_t k = 0; k < slot_.size(); ++k)
    reply[k] = block[static_cast<std::size_t>(slot_[k])];
  const std::vector<real> got = all_to_all(reply, recv_counts_, send_counts_);
  for (std::size_t k = 0; k < order_.size(); ++k)
    local[static_cast<std::size_t>(order_[k])] = got[k];
}

}  // namespace scfd::checkpoint
