// Global sums (see global_sum.hpp).
#include "solvers/global_sum.hpp"

#include <mpi.h>

namespace scfd::solvers {
namespace {
bool mpi_running() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}
}  // namespace

real global_sum(real local) {
  if (!mpi_running()) return local;
  real sum = 0;
  MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}

std::pair<real, real> global_sum(std::pair<real, real> local) {
  if (!mpi_running()) return local;
  real in[2] = {local.first, local.second}, out[2] = {0, 0};
  MPI_Allreduce(in, out, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return {out[0], out[1]};
}

real global_min(real local) {
  if (!mpi_running()) return local;
  real out = 0;
  MPI_Allreduce(&local, &out, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  return out;
}

real global_max(real local) {
  if (!mpi_running()) return local;
  real out = 0;
  MPI_Allreduce(&local, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

}  // namespace scfd::solvers
