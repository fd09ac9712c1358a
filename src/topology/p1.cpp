// P1 functions of a simplex mesh (see p1.hpp).
#include "topology/p1.hpp"

#include <cmath>

#include "core/error.hpp"

namespace scfd::topology {
namespace {

// Barycentric gradients g[0..dim] and volume of cell c from its node coordinates: the rows of
// J^-1 with J = [x1 - x0, x2 - x0(, x3 - x0)], and grad(phi_0) = -sum of the others. (The same
// gradients as barycentric_gradients, to round-off; the edge weights keep this form, which
// does not depend on the face lists.)
real gradients_from_nodes(const Mesh& m, index c, Vec3 g[4]) {
  const index* n = m.cell_nodes.data() + static_cast<std::size_t>(c) * m.cell_width();
  const Vec3 x0 = m.node_x[n[0]];
  const Vec3 e1 = m.node_x[n[1]] - x0;
  const Vec3 e2 = m.node_x[n[2]] - x0;
  real det = 0;
  if (m.dim == 3) {
    const Vec3 e3 = m.node_x[n[3]] - x0;
    det = dot(e1, cross(e2, e3));
    g[1] = cross(e2, e3) / det;
    g[2] = cross(e3, e1) / det;
    g[3] = cross(e1, e2) / det;
    g[0] = -(g[1] + g[2] + g[3]);
    return std::abs(det) / 6;
  }
  det = e1.x * e2.y - e1.y * e2.x;
  g[1] = Vec3{e2.y, -e2.x, 0} / det;
  g[2] = Vec3{-e1.y, e1.x, 0} / det;
  g[0] = -(g[1] + g[2]);
  return std::abs(det) / 2;
}

// Local position of node `node` in cell c, or -1 if the cell does not contain it.
int local_node(const Mesh& m, index c, index node) {
  const int w = m.cell_width();
  const index* n = m.cell_nodes.data() + static_cast<std::size_t>(c) * w;
  for (int k = 0; k < w; ++k)
    if (n[k] == node) return k;
  return -1;
}

}  // namespace

std::array<Vec3, 4> barycentric_gradients(const Mesh& m, index c) {
  const int w = m.cell_width();
  std::array<Vec3, 4> g{};
  for (int k = 0; k < w; ++k) {
    const auto i = static_cast<std::size_t>(w * c + k);
    const index f = m.cell_faces[i];
    g[static_cast<std::size_t>(k)] =
        (-m.cell_face_sign[i] * m.face_area[f] / (m.dim * m.cell_volume[c])) * m.face_normal[f];
  }
  return g;
}

// Gather per edge (i, j): walk the cells around i and keep those that also contain j.
void edge_weights(const Mesh& m, std::span<const real> k_cell, std::span<real> edge_weight) {
  SCFD_CHECK(k_cell.size() == static_cast<std::size_t>(m.n_cells) &&
                 edge_weight.size() == static_cast<std::size_t>(m.n_edges),
             "edge_weights: k_cell has {} values for {} cells, edge_weight {} for {} edges",
             k_cell.size(), m.n_cells, edge_weight.size(), m.n_edges);
  SCFD_CHECK(m.node_cells.n_rows() == m.n_nodes,
             "edge_weights: node_cells has {} rows, {} expected", m.node_cells.n_rows(), m.n_nodes);
  for (index e = 0; e < m.n_edges; ++e) {
    const index i = m.edge_nodes[2 * e];
    const index j = m.edge_nodes[2 * e + 1];
    real w = 0;
    for (const index c : m.node_cells.row(i)) {
      const int lj = local_node(m, c, j);
      if (lj < 0) continue;
      Vec3 g[4];
      const real volume = gradients_from_nodes(m, c, g);
      w -= k_cell[c] * volume * dot(g[local_node(m, c, i)], g[lj]);
    }
    edge_weight[e] = w;
  }
}

}  // namespace scfd::topology
