// Rank meshes cut from a serial test mesh (test_meshes.hpp) for the checks that an operator
// writes its owned outputs only: a middle slab with ghosts on both sides, and a rank without
// boundary faces. Used by tests/conformance and tests/gl; they link scfd_partition.
#pragma once

#include <algorithm>
#include <vector>

#include "partition/extract.hpp"
#include "topology/mesh.hpp"

namespace scfd::test {

// Rank `rank` of 3 slabs along x (by cell centroid): rank 1 has ghosts on both sides.
inline topology::Mesh slab_rank(const topology::Mesh& g, int rank) {
  real lo = g.cell_centroid[0].x, hi = lo;
  for (const Vec3& c : g.cell_centroid) {
    lo = std::min(lo, c.x);
    hi = std::max(hi, c.x);
  }
  std::vector<int> part(g.cell_centroid.size());
  for (std::size_t c = 0; c < part.size(); ++c)
    part[c] = std::min(2, static_cast<int>(3 * (g.cell_centroid[c].x - lo) / (hi - lo)));
  return partition::extract_local(g, part, rank);
}

// The rank that owns the cells with no boundary face: it owns no boundary face either (a face
// belongs to the lowest rank around it), so its boundary-value field is empty.
inline topology::Mesh core_rank(const topology::Mesh& g) {
  std::vector<int> part(static_cast<std::size_t>(g.n_cells), 1);
  for (index f = g.n_interior_faces; f < g.n_faces; ++f) part[g.face_cells[2 * f]] = 0;
  return partition::extract_local(g, part, 1);
}

}  // namespace scfd::test
