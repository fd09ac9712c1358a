// Element quality: the normalised radius ratio q = d * r_in / r_circ (d = dimension), which is 1
// for an equilateral triangle / regular tetrahedron and tends to 0 for degenerate elements.
#pragma once

#include <vector>

#include "topology/mesh.hpp"

namespace scfd::topology {

std::vector<real> cell_quality(const Mesh& m);

// The distance between the centroids of the two cells of face f (boundary: from the cell's
// centroid to the face centre) along the face normal: positive on any valid mesh.
real centroid_distance(const Mesh& m, index f);

// How far the circumcentric dual of a mesh is from a well-centred one, over the owned faces:
// faces whose dual length is negative (non-Delaunay pairs, or a boundary cell whose
// circumcentre lies outside it). The 2D Navier-Stokes scheme uses that dual; the 3D one does not
// (docs/methods.md, "3D on tetrahedral meshes").
struct DualStats {
  index faces = 0, negative = 0;
};
DualStats dual_stats(const Mesh& m);

}  // namespace scfd::topology
