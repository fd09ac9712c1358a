// Every collective of the program besides the halo exchanges (halo/) and the mesh's distribution
// (partition/), over all ranks (MPI_COMM_WORLD; with MPI not running, the plain local value):
// the agreement on a verdict (the message of the first rank that has one, whether any or all
// ranks say yes), the numeric reductions of the Krylov solvers, the models, the run summary and
// the benchmarks, and the gathers, broadcasts and all-to-all exchanges of the output and
// checkpoint writers. Every function but mpi_running, world_rank and world_size is collective:
// all ranks call it, in the same order.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/types.hpp"

namespace scfd {

bool mpi_running();  // initialised and not finalised
// This process's rank in MPI_COMM_WORLD (0 without MPI), and the number of ranks (1 without).
int world_rank();
int world_size();
// The ranks that share this process's node (its memory: MPI_COMM_TYPE_SHARED), this one included;
// 1 without MPI. Collective.
int ranks_on_node();

// --- Agreement on a verdict ---

// Each rank passes a message, empty when it has nothing to say (a step that may fail on some
// ranks: opening a file that only rank 0 writes, making a backend, a run step). Returns on every
// rank the message of the lowest rank that has one, prefixed "rank r: " when that is not rank 0
// of several; "" when no rank has one.
std::string first_message(const std::string& local);
// first_message, thrown as the same InputError on every rank when there is one.
void agree_on_input_error(const std::string& local_error);
// Whether `local` is true on any rank, on every rank.
bool any_rank(bool local);
bool all_ranks(bool local);

// --- Reductions ---

real global_sum(real local);
std::pair<real, real> global_sum(std::pair<real, real> local);  // one message for both
std::uint64_t global_sum(std::uint64_t local);                  // wraps alike on every rank count
real global_min(real local);
real global_max(real local);
std::int64_t global_max(std::int64_t local);
// Element-wise over the ranks, in place (one message for all values).
void global_sum(std::span<real> values);
void global_min(std::span<real> values);
void global_max(std::span<real> values);

// The largest `value` over the ranks and the rank holding it (the lowest such rank on a tie).
struct ValueRank {
  double value = 0;
  int rank = 0;
};
ValueRank global_max_rank(double value);

// --- Gathers, broadcasts, exchanges (T: int, int64, double) ---

// Every rank's `mine`, concatenated in rank order.
template <typename T>
std::vector<T> all_gather(const std::vector<T>& mine);
// The same when every rank's count is known (counts[r]: rank r's, as all_gather of the counts
// gave them): one collective instead of two; `all` must hold their total.
void all_gather(std::span<const double> mine, const std::vector<int>& counts,
                std::span<double> all);
// Rank 0's values (or string, any length) on every rank.
template <typename T>
void broadcast(std::span<T> values);
void broadcast(std::string& s);
// Personalised all-to-all: send[k] goes to rank k; returns what each rank sent this one, in
// rank order. all_to_all_counts is the same for one int per rank (the sizes of the next one).
std::vector<int> all_to_all_counts(const std::vector<int>& send);
template <typename T>
std::vector<T> all_to_all(const std::vector<T>& send, const std::vector<int>& send_counts,
                          const std::vector<int>& recv_counts);

// Waits until every rank is here (benchmarks: a timed region starts together).
void barrier();

}  // namespace scfd
