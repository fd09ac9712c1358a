// Collectives over all ranks (MPI_COMM_WORLD; with MPI not running, the plain local value): the
// only communication besides halo exchanges. Krylov solvers need the sums; models and their
// post-processing need the others (a probe point's owner, boundary data gathered on every rank).
// Every function is collective: all ranks call it, in the same order.
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/agree.hpp"
#include "core/types.hpp"

namespace scfd::solvers {

// The rank queries and the agreements on a verdict (first_message, agree_on_input_error,
// any_rank) are core's (core/agree.hpp), here under their solvers:: names too.
using scfd::agree_on_input_error;
using scfd::any_rank;
using scfd::first_message;
using scfd::world_rank;
using scfd::world_size;

real global_sum(real local);
std::pair<real, real> global_sum(std::pair<real, real> local);  // one message for both
void global_sum(std::span<real> values);                        // element-wise, in place
real global_min(real local);
real global_max(real local);

// The largest `value` over the ranks and the rank holding it (the lowest such rank on a tie).
struct ValueRank {
  double value = 0;
  int rank = 0;
};
ValueRank global_max_rank(double value);

// Every rank's `mine`, concatenated in rank order (T: int, int64, double).
template <typename T>
std::vector<T> all_gather(const std::vector<T>& mine);

}  // namespace scfd::solvers
