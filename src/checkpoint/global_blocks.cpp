// Global-order blocks of entity values (see global_blocks.hpp).
#include "checkpoint/global_blocks.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace scfd::checkpoint {
namespace {

std::int64_t block_begin(std::int64_t n, int rank, int ranks) {
  return n * rank / ranks;
}

}  // namespace

BlockExchange::BlockExchange(std::span<const std::int64_t> gids, std::int64_t n_global,
                             MPI_Comm comm)
    : comm_(comm) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
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
  send_displs_.assign(r, 0);
  for (std::size_t k = 1; k < r; ++k) send_displs_[k] = send_displs_[k - 1] + send_counts_[k - 1];
  order_.resize(gids.size());
  std::vector<std::int64_t> sent(gids.size());
  std::vector<int> fill = send_displs_;
  for (std::size_t i = 0; i < gids.size(); ++i) {
    const auto at = static_cast<std::size_t>(fill[static_cast<std::size_t>(dest[i])]++);
    order_[at] = static_cast<std::int64_t>(i);
    sent[at] = gids[i];
  }
  recv_counts_.assign(r, 0);
  MPI_Alltoall(send_counts_.data(), 1, MPI_INT, recv_counts_.data(), 1, MPI_INT, comm);
  recv_displs_.assign(r, 0);
  for (std::size_t k = 1; k < r; ++k) recv_displs_[k] = recv_displs_[k - 1] + recv_counts_[k - 1];
  slot_.resize(static_cast<std::size_t>(recv_displs_.back() + recv_counts_.back()));
  MPI_Alltoallv(sent.data(), send_counts_.data(), send_displs_.data(), MPI_INT64_T, slot_.data(),
                recv_counts_.data(), recv_displs_.data(), MPI_INT64_T, comm);
  for (std::int64_t& s : slot_) s -= block_.begin;
}

void BlockExchange::to_blocks(std::span<const real> local, std::span<real> block) const {
  SCFD_CHECK(local.size() == order_.size() && block.size() == static_cast<std::size_t>(block_.size),
             "to_blocks sizes: local {} of {}, block {} of {}", local.size(), order_.size(),
             block.size(), block_.size);
  std::vector<real> sent(order_.size()), got(slot_.size());
  for (std::size_t k = 0; k < order_.size(); ++k)
    sent[k] = local[static_cast<std::size_t>(order_[k])];
  MPI_Alltoallv(sent.data(), send_counts_.data(), send_displs_.data(), MPI_DOUBLE, got.data(),
                recv_counts_.data(), recv_displs_.data(), MPI_DOUBLE, comm_);
  for (std::size_t k = 0; k < slot_.size(); ++k) block[static_cast<std::size_t>(slot_[k])] = got[k];
}

void BlockExchange::from_blocks(std::span<const real> block, std::span<real> local) const {
  SCFD_CHECK(local.size() == order_.size() && block.size() == static_cast<std::size_t>(block_.size),
             "from_blocks sizes: local {} of {}, block {} of {}", local.size(), order_.size(),
             block.size(), block_.size);
  std::vector<real> reply(slot_.size()), got(order_.size());
  for (std::size_t k = 0; k < slot_.size(); ++k)
    reply[k] = block[static_cast<std::size_t>(slot_[k])];
  MPI_Alltoallv(reply.data(), recv_counts_.data(), recv_displs_.data(), MPI_DOUBLE, got.data(),
                send_counts_.data(), send_displs_.data(), MPI_DOUBLE, comm_);
  for (std::size_t k = 0; k < order_.size(); ++k)
    local[static_cast<std::size_t>(order_[k])] = got[k];
}

}  // namespace scfd::checkpoint
