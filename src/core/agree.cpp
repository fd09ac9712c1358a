// Agreement of all ranks (see agree.hpp).
#include "core/agree.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include "core/error.hpp"

namespace scfd {

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

std::string first_message(const std::string& local) {
  if (!mpi_running()) return local;
  int rank = 0, nranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  const int mine = local.empty() ? nranks : rank;
  int first = nranks;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == nranks) return {};
  std::string message = local;
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
  if (!mpi_running()) return local;
  int v = local ? 1 : 0, any = 0;
  MPI_Allreduce(&v, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return any != 0;
}

}  // namespace scfd
