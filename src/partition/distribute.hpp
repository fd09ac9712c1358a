// Distribution of a serial mesh over the ranks of a communicator (docs/architecture.md §5): rank 0
// holds the mesh, partitions it (partition.hpp), cuts each rank's mesh (extract.hpp) and sends it
// packed (pack.hpp); every rank returns its own mesh.
#pragma once

#include <mpi.h>

#include "partition/partition.hpp"
#include "topology/mesh.hpp"

namespace scfd::partition {

// Collective over COMM. GLOBAL is the serial mesh on rank 0 (SCFD_CHECK) and is ignored
// elsewhere (pass nullptr). On one rank the mesh is returned unchanged (a serial mesh: no gids).
// A partition error on rank 0 (a part would be empty: more ranks than the mesh allows) is thrown
// as the same InputError on every rank, never a hang. Fills *Q (the same on every rank) when
// given.
topology::Mesh distribute(const topology::Mesh* global, MPI_Comm comm,
                          PartitionQuality* q = nullptr);

}  // namespace scfd::partition
