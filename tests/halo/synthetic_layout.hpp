// A synthetic parallel decomposition for HaloPlan tests that need no mesh: N global entities,
// rank r owns the ids g with g % P == r (stored in descending order, so local index and global id
// differ), and holds as ghosts a pattern of other ranks' ids that is not symmetric (rank r takes
// ghosts from every higher rank and from r - 1 only), grouped by owner ascending.
#pragma once

#include <mpi.h>

#include <vector>

#include "core/types.hpp"

namespace scfd::halo::test {

struct Layout {
  index n_owned = 0;
  std::vector<index> gid;
  std::vector<int> ghost_owner;
  int expected_recv_ranks = 0;  // neighbours this rank receives from
  int expected_send_ranks = 0;  // neighbours this rank sends to
};

inline bool takes_ghosts(int r, int q) {
  return q != r && (q > r || q == r - 1);
}

inline Layout synthetic_layout(MPI_Comm comm, index per_rank = 40) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const index n = per_rank * size;
  Layout l;
  for (index g = n - 1; g >= 0; --g)
    if (g % size == rank) l.gid.push_back(g);
  l.n_owned = static_cast<index>(l.gid.size());
  for (int q = 0; q < size; ++q) {
    if (takes_ghosts(rank, q)) ++l.expected_recv_ranks;
    if (takes_ghosts(q, rank)) ++l.expected_send_ranks;
    if (!takes_ghosts(rank, q)) continue;
    for (index g = n - 1; g >= 0; --g) {
      if (g % size != q || (g / size) % 3 != rank % 3) continue;
      l.gid.push_back(g);
      l.ghost_owner.push_back(q);
    }
  }
  return l;
}

}  // namespace scfd::halo::test
