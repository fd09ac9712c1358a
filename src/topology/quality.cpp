// Element quality: the normalised radius ratio
//   q = d r_in / r_circ,   r_in = d V / (sum of the face areas),   r_circ = |x_cc - x_0|,
// (2D: r_in = 2A / perimeter), which is 1 for an equilateral triangle or a regular tetrahedron
// and tends to 0 as the element degenerates (slivers included).
// Reference: Shewchuk, "What is a good linear finite element?" (2002), §6 (radius ratio).
#include "topology/quality.hpp"

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

}  // namespace scfd::topology
