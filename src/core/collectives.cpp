// The collectives of all ranks (see collectives.hpp).
#include "core/collectives.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <numeric>

#include "core/counters.hpp"
#include "core/error.hpp"
#include "core/mpi_type.hpp"

namespace scfd {
namespace {

template <typename T>
T reduce(T local, MPI_Op op) {
  if (!mpi_running()) return local;
  T out{};
  counters::add(counters::Kind::reduction);
  const counters::MpiWait waiting;  // the collective(s) below
  MPI_Allreduce(&local, &out, 1, mpi_type<T>(), op, MPI_COMM_WORLD);
  return out;
}

void reduce_in_place(std::span<real> values, MPI_Op op) {
  if (!mpi_running() || values.empty()) return;
  counters::add(counters::Kind::reduction);
  const counters::MpiWait waiting;  // the collective(s) below
  MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), mpi_type<real>(), op,
                MPI_COMM_WORLD);
}

// Offsets of consecutive blocks of `counts` entries.
std::vector<int> offsets(const std::vector<int>& counts) {
  std::vector<int> at(counts.size(), 0);
  if (!counts.empty()) std::partial_sum(counts.begin(), counts.end() - 1, at.begin() + 1);
  return at;
}

std::size_t total(const std::vector<int>& counts) {
  return static_cast<std::size_t>(std::accumulate(counts.begin(), counts.end(), 0LL));
}

}  // namespace

bool mpi_running() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

int world_rank() {
  int rank = 0;
  if (mpi_running()) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int world_size() {
  int size = 1;
  if (mpi_running()) MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

int ranks_on_node() {
  if (!mpi_running()) return 1;
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int size = 1;
  MPI_Comm_size(node, &size);
  MPI_Comm_free(&node);
  counters::add(counters::Kind::other_collective);
  return size;
}

std::string first_message(const std::string& local) {
  if (!mpi_running()) return local;
  const int rank = world_rank(), nranks = world_size();
  const int first = reduce<std::int32_t>(local.empty() ? nranks : rank, MPI_MIN);
  if (first == nranks) return {};
  std::string message = local;
  counters::add(counters::Kind::other_collective, 2);
  const counters::MpiWait waiting;  // the collective(s) below
  int length = static_cast<int>(message.size());
  MPI_Bcast(&length, 1, MPI_INT, first, MPI_COMM_WORLD);
  message.resize(static_cast<std::size_t>(length));
  MPI_Bcast(message.data(), length, MPI_CHAR, first, MPI_COMM_WORLD);
  if (nranks > 1 && first != 0) message = fmt::format("rank {}: {}", first, message);
  return message;
}

void agree_on_input_error(const std::string& local_error) {
  const std::string message = first_message(local_error);
  if (!message.empty()) throw InputError(message);
}

bool any_rank(bool local) {
  return reduce<std::int32_t>(local ? 1 : 0, MPI_MAX) != 0;
}

bool all_ranks(bool local) {
  return reduce<std::int32_t>(local ? 1 : 0, MPI_MIN) != 0;
}

real global_sum(real local) {
  return reduce(local, MPI_SUM);
}

std::pair<real, real> global_sum(std::pair<real, real> local) {
  real v[2] = {local.first, local.second};
  global_sum(std::span<real>(v));
  return {v[0], v[1]};
}

std::uint64_t global_sum(std::uint64_t local) {
  return reduce(local, MPI_SUM);
}

real global_min(real local) {
  return reduce(local, MPI_MIN);
}

real global_max(real local) {
  return reduce(local, MPI_MAX);
}

std::int64_t global_max(std::int64_t local) {
  return reduce(local, MPI_MAX);
}

void global_sum(std::span<real> values) {
  reduce_in_place(values, MPI_SUM);
}

void global_min(std::span<real> values) {
  reduce_in_place(values, MPI_MIN);
}

void global_max(std::span<real> values) {
  reduce_in_place(values, MPI_MAX);
}

ValueRank global_max_rank(double value) {
  if (!mpi_running()) return {value, 0};
  struct {
    double value;
    int rank;
  } in{value, world_rank()}, out{};  // the layout MPI_DOUBLE_INT describes
  counters::add(counters::Kind::reduction);
  const counters::MpiWait waiting;  // the collective(s) below
  MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  return {out.value, out.rank};
}

template <typename T>
std::vector<T> all_gather(const std::vector<T>& mine) {
  if (!mpi_running()) return mine;
  const int n = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(world_size()));
  counters::add(counters::Kind::other_collective, 2);  // the counts, then the values
  const counters::MpiWait waiting;                     // the collective(s) below
  MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  const std::vector<int> at = offsets(counts);
  std::vector<T> all(total(counts));
  MPI_Allgatherv(mine.data(), n, mpi_type<T>(), all.data(), counts.data(), at.data(), mpi_type<T>(),
                 MPI_COMM_WORLD);
  return all;
}

void all_gather(std::span<const double> mine, const std::vector<int>& counts,
                std::span<double> all) {
  SCFD_CHECK(total(counts) == all.size(), "all_gather of {} values into {}", total(counts),
             all.size());
  if (!mpi_running()) {
    std::copy(mine.begin(), mine.end(), all.begin());
    return;
  }
  SCFD_CHECK(
      counts.size() == static_cast<std::size_t>(world_size()) &&
          static_cast<std::size_t>(counts[static_cast<std::size_t>(world_rank())]) == mine.size(),
      "all_gather: {} values from rank {}, {} counts", mine.size(), world_rank(), counts.size());
  counters::add(counters::Kind::other_collective);
  const counters::MpiWait waiting;  // the collective(s) below
  const std::vector<int> at = offsets(counts);
  MPI_Allgatherv(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(), counts.data(),
                 at.data(), MPI_DOUBLE, MPI_COMM_WORLD);
}

template <typename T>
void broadcast(std::span<T> values) {
  if (!mpi_running() || values.empty()) return;
  counters::add(counters::Kind::other_collective);
  const counters::MpiWait waiting;  // the collective(s) below
  MPI_Bcast(values.data(), static_cast<int>(values.size()), mpi_type<T>(), 0, MPI_COMM_WORLD);
}

void broadcast(std::string& s) {
  if (!mpi_running()) return;
  int length = static_cast<int>(s.size());
  counters::add(counters::Kind::other_collective, 2);
  const counters::MpiWait waiting;  // the collective(s) below
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  s.resize(static_cast<std::size_t>(length));
  MPI_Bcast(s.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
}

std::vector<int> all_to_all_counts(const std::vector<int>& send) {
  SCFD_CHECK(send.size() == static_cast<std::size_t>(world_size()), "{} counts for {} ranks",
             send.size(), world_size());
  if (!mpi_running()) return send;
  std::vector<int> received(send.size());
  counters::add(counters::Kind::other_collective);
  const counters::MpiWait waiting;  // the collective(s) below
  MPI_Alltoall(send.data(), 1, MPI_INT, received.data(), 1, MPI_INT, MPI_COMM_WORLD);
  return received;
}

template <typename T>
std::vector<T> all_to_all(const std::vector<T>& send, const std::vector<int>& send_counts,
                          const std::vector<int>& recv_counts) {
  SCFD_CHECK(total(send_counts) == send.size(), "all_to_all: {} values for counts of {}",
             send.size(), total(send_counts));
  if (!mpi_running()) return send;
  const std::vector<int> send_at = offsets(send_counts), recv_at = offsets(recv_counts);
  std::vector<T> received(total(recv_counts));
  counters::add(counters::Kind::other_collective);
  const counters::MpiWait waiting;  // the collective(s) below
  MPI_Alltoallv(send.data(), send_counts.data(), send_at.data(), mpi_type<T>(), received.data(),
                recv_counts.data(), recv_at.data(), mpi_type<T>(), MPI_COMM_WORLD);
  return received;
}

void barrier() {
  if (!mpi_running()) return;
  counters::add(counters::Kind::other_collective);
  const counters::MpiWait waiting;  // the collective(s) below
  MPI_Barrier(MPI_COMM_WORLD);
}

template std::vector<int> all_gather(const std::vector<int>&);
template std::vector<std::int64_t> all_gather(const std::vector<std::int64_t>&);
template std::vector<double> all_gather(const std::vector<double>&);
template void broadcast(std::span<std::int64_t>);
template void broadcast(std::span<double>);
template std::vector<std::int64_t> all_to_all(const std::vector<std::int64_t>&,
                                              const std::vector<int>&, const std::vector<int>&);
template std::vector<double> all_to_all(const std::vector<double>&, const std::vector<int>&,
                                        const std::vector<int>&);

}  // namespace scfd
