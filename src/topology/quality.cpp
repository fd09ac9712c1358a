// Element quality: the normalised radius ratio
//   q = d r_in / r_circ,   r_in = d V / (sum of the face areas),   r_circ = |x_cc - x_0|,
// (2D: r_in = 2A / perimeter), which is 1 for an equilateral triangle or a regular tetrahedron
// and tends to 0 as the element degenerates (slivers included).
// Reference: Shewchuk, "What is a good linear finite element?" (2002), §6 (radius ratio).
#include "topology/quality.hpp"

#include <algorithm>

namespace scfd::topology {

std::vector<real> cell_quality(const Mesh& m) {
  const int w = m.cell_width();
  std::vector<real> q(static_cast<std::size_t>(m.n_cells));
  for (index c = 0; c < m.n_cells; ++c) {
    real area_sum = 0;
    for (int k = 0; k < w; ++k) area_sum += m.face_area[m.cell_faces[std::size_t(c) * w + k]];
    const real r_in = m.dim * m.cell_volume[c] / area_sum;
    const real r_circ = norm(m.cell_circumcentre[c] - m.node_x[m.cell_nodes[std::size_t(c) * w]]);
    q[c] = m.dim * r_in / r_circ;
  }
  return q;
}

real centroid_distance(const Mesh& m, index f) {
  const index c1 = m.face_cells[2 * f], c2 = m.face_cells[2 * f + 1];
  const Vec3 far = c2 == kNone ? m.face_centre[f] : m.cell_centroid[c2];
  return dot(far - m.cell_centroid[c1], m.face_normal[f]);
}

DualStats dual_stats(const Mesh& m) {
  DualStats s;
  for (index f = 0; f < m.n_owned_faces; ++f) {
    ++s.faces;
    s.negative += m.face_dist[f] < 0 ? 1 : 0;
  }
  return s;
}

}  // namespace scfd::topology
