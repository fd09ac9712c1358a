// Agreement of all ranks (MPI_COMM_WORLD; with MPI not running, the plain local value) on one
// verdict, so that no rank goes on alone and none waits for ever in a collective: the message of
// the first rank that has one, whether any rank says yes. Every function but mpi_running,
// world_rank and world_size is collective. solvers/collectives.hpp adds the numeric collectives.
#pragma once

#include <string>

namespace scfd {

bool mpi_running();  // initialised and not finalised
// This process's rank in MPI_COMM_WORLD (0 without MPI), and the number of ranks (1 without).
int world_rank();
int world_size();

// Each rank passes a message, empty when it has nothing to say (a step that may fail on some
// ranks: opening a file that only rank 0 writes, making a backend, a run step). Returns on every
// rank the message of the lowest rank that has one, prefixed "rank r: " when that is not rank 0
// of several; "" when no rank has one.
std::string first_message(const std::string& local);

// first_message, thrown as the same InputError on every rank when there is one.
void agree_on_input_error(const std::string& local_error);

// Whether `local` is true on any rank.
bool any_rank(bool local);

}  // namespace scfd
