// Collectives over all ranks (MPI_COMM_WORLD; with MPI not running, the plain local value): the
// only communication besides halo exchanges. Krylov solvers need the sums; models and their
// post-processing need the others (a probe point's owner, boundary data gathered on every rank).
// Every function is collective: all ranks call it, in the same order.
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/types.hpp"

namespace scfd::solvers {

// This process's rank in MPI_COMM_WORLD (0 without MPI), and the number of ranks (1 without).
int world_rank();
int world_size();

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

// Each rank passes a message, empty when it has nothing to say (a step that may fail on some
// ranks: opening a file that only rank 0 writes, making a backend, a run step). Returns on every
// rank the message of the lowest rank that has one, prefixed "rank r: " when that is not rank 0
// of several; "" when no rank has one.
std::string first_message(const std::string& local);

// first_message, thrown as the same InputError on every rank when there is one: so no rank goes
// on alone and none waits for ever.
void agree_on_input_error(const std::string& local_error);

// Whether `local` is true on any rank.
bool any_rank(bool local);

}  // namespace scfd::solvers
