// distribute (distribute.hpp): rank 0 partitions the serial mesh, broadcasts a status (so that a
// partition error reaches every rank as the same InputError instead of leaving them waiting),
// then cuts and packs the ranks' meshes on its host threads, as many ranks at a time as it has
// threads (so at most that many packed meshes in memory), sends each in rank order and keeps its
// own. Messages larger than 1 GiB are sent in pieces (MPI counts are int).
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "core/threads.hpp"
#include "partition/distribute.hpp"
#include "partition/extract.hpp"
#include "partition/local_numbering.hpp"
#include "partition/pack.hpp"

namespace scfd::partition {
namespace {

constexpr int kTagMesh = 7301;
constexpr std::size_t kChunk = std::size_t{1} << 30;

void send_bytes(const std::vector<std::byte>& bytes, int dest, MPI_Comm comm) {
  std::uint64_t n = bytes.size();
  MPI_Send(&n, 1, MPI_UINT64_T, dest, kTagMesh, comm);
  for (std::size_t at = 0; at < bytes.size(); at += kChunk) {
    const int count = static_cast<int>(std::min(kChunk, bytes.size() - at));
    MPI_Send(bytes.data() + at, count, MPI_BYTE, dest, kTagMesh, comm);
  }
}

std::vector<std::byte> recv_bytes(int source, MPI_Comm comm) {
  std::uint64_t n = 0;
  MPI_Recv(&n, 1, MPI_UINT64_T, source, kTagMesh, comm, MPI_STATUS_IGNORE);
  std::vector<std::byte> bytes(static_cast<std::size_t>(n));
  for (std::size_t at = 0; at < bytes.size(); at += kChunk) {
    const int count = static_cast<int>(std::min(kChunk, bytes.size() - at));
    MPI_Recv(bytes.data() + at, count, MPI_BYTE, source, kTagMesh, comm, MPI_STATUS_IGNORE);
  }
  return bytes;
}

// Broadcasts rank 0's error message (empty: success) and throws it as an InputError everywhere.
void agree_on_error(std::string message, int rank, MPI_Comm comm) {
  std::uint64_t n = message.size();
  MPI_Bcast(&n, 1, MPI_UINT64_T, 0, comm);
  if (n == 0) return;
  if (rank != 0) message.resize(static_cast<std::size_t>(n));
  MPI_Bcast(message.data(), static_cast<int>(n), MPI_CHAR, 0, comm);
  throw InputError(message);
}

}  // namespace

topology::Mesh distribute(const topology::Mesh* global, MPI_Comm comm, PartitionQuality* q) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  SCFD_CHECK(rank != 0 || global != nullptr, "distribute: rank 0 must hold the global mesh");
  std::vector<int> part;
  PartitionQuality quality;
  std::string error;
  if (rank == 0) {
    try {
      part = partition_cells(*global, size, &quality);
    } catch (const InputError& e) {
      error = e.what();
    }
  }
  agree_on_error(error, rank, comm);
  static_assert(std::is_trivially_copyable_v<PartitionQuality>);
  MPI_Bcast(&quality, sizeof quality, MPI_BYTE, 0, comm);
  if (q) *q = quality;
  if (size == 1) return *global;
  if (rank != 0) return unpack(recv_bytes(0, comm));
  const detail::Owners owners = detail::compute_owners(*global, part);
  topology::Mesh mine;
  const int wave = host_threads();
  for (int first = 0; first < size; first += wave) {
    const int n = std::min(size - first, wave);
    std::vector<std::vector<std::byte>> packed(static_cast<std::size_t>(n));
    parallel_for(
        n,
        [&](index begin, index end) {
          for (index i = begin; i < end; ++i) {
            const int r = first + i;
            if (r == 0)
              mine = detail::extract_rank(*global, part, owners, 0);
            else
              packed[static_cast<std::size_t>(i)] =
                  pack(detail::extract_rank(*global, part, owners, r));
          }
        },
        1);
    for (int r = std::max(first, 1); r < first + n; ++r)
      send_bytes(packed[static_cast<std::size_t>(r - first)], r, comm);
  }
  return mine;
}

}  // namespace scfd::partition
