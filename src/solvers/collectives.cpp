// Collectives over all ranks (see collectives.hpp).
#include "solvers/collectives.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <cstdint>
#include <numeric>

#include "core/error.hpp"
#include "halo/mpi_type.hpp"

namespace scfd::solvers {
namespace {

real reduce(real local, MPI_Op op) {
  if (!mpi_running()) return local;
  real out = 0;
  MPI_Allreduce(&local, &out, 1, halo::mpi_type<real>(), op, MPI_COMM_WORLD);
  return out;
}

}  // namespace

real global_sum(real local) {
  return reduce(local, MPI_SUM);
}

std::pair<real, real> global_sum(std::pair<real, real> local) {
  real v[2] = {local.first, local.second};
  global_sum(std::span<real>(v));
  return {v[0], v[1]};
}

void global_sum(std::span<real> values) {
  if (!mpi_running() || values.empty()) return;
  MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()),
                halo::mpi_type<real>(), MPI_SUM, MPI_COMM_WORLD);
}

real global_min(real local) {
  return reduce(local, MPI_MIN);
}

real global_max(real local) {
  return reduce(local, MPI_MAX);
}

ValueRank global_max_rank(double value) {
  if (!mpi_running()) return {value, 0};
  struct {
    double value;
    int rank;
  } in{value, 0}, out{};  // the layout MPI_DOUBLE_INT describes
  MPI_Comm_rank(MPI_COMM_WORLD, &in.rank);
  MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  return {out.value, out.rank};
}

template <typename T>
std::vector<T> all_gather(const std::vector<T>& mine) {
  if (!mpi_running()) return mine;
  int ranks = 1, n = static_cast<int>(mine.size());
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::vector<int> counts(static_cast<std::size_t>(ranks)), offsets(counts.size(), 0);
  MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::partial_sum(counts.begin(), counts.end() - 1, offsets.begin() + 1);
  std::vector<T> all(static_cast<std::size_t>(offsets.back() + counts.back()));
  MPI_Allgatherv(mine.data(), n, halo::mpi_type<T>(), all.data(), counts.data(), offsets.data(),
                 halo::mpi_type<T>(), MPI_COMM_WORLD);
  return all;
}

template std::vector<int> all_gather(const std::vector<int>&);
template std::vector<std::int64_t> all_gather(const std::vector<std::int64_t>&);
template std::vector<double> all_gather(const std::vector<double>&);

}  // namespace scfd::solvers
