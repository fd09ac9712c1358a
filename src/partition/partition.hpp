// Cell partitioning for MPI runs (docs/architecture.md §5): METIS k-way on the cell dual graph
// (cells are vertices, interior faces are edges), deterministic (fixed seed), and the figures that
// say how good a partition is (edge cut, load imbalance). Reference: G. Karypis & V. Kumar, "A fast
// and high quality multilevel scheme for partitioning irregular graphs", SIAM J. Sci. Comput. 20
// (1998) 359-392; METIS 5.1 manual, METIS_PartGraphKway.
#pragma once

#include <span>
#include <vector>

#include "core/types.hpp"
#include "topology/mesh.hpp"

namespace scfd::partition {

struct PartitionQuality {
  int parts = 1;
  index cells = 0;           // cells of the global mesh
  index interior_faces = 0;  // interior faces of the global mesh (edges of the dual graph)
  index edge_cut = 0;        // interior faces whose two cells are in different parts
  double cut_fraction = 0;   // edge_cut / interior_faces (0 when there are none)
  double imbalance = 1;      // largest part (cells) / mean part size; 1 is perfect
  index min_cells = 0, max_cells = 0;  // cells per part
  double seconds = 0;                  // wall time of partition_cells (METIS and the checks)
};

// The part (0 .. nparts-1) of every cell of the serial mesh GLOBAL. nparts == 1 gives all zeros
// without calling METIS (which fails for one part). InputError if nparts < 1 or if a part would
// be empty ("cannot split N cells into P parts: part k is empty; use fewer ranks"). Deterministic:
// the same mesh and nparts give the same parts. Fills *Q when given.
std::vector<int> partition_cells(const topology::Mesh& global, int nparts,
                                 PartitionQuality* q = nullptr);

// The quality figures of PART (one entry per cell of GLOBAL, values in [0, nparts)); seconds = 0.
PartitionQuality partition_quality(const topology::Mesh& global, std::span<const int> part,
                                   int nparts);

}  // namespace scfd::partition
