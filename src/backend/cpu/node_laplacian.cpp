// The node Laplacian of DESIGN.md §2 (heat diffusion with T at nodes): node -> node,
//   (K T)_i = sum over the edges e = (i, j) of i of w_e (T_i - T_j),
//   w_e = -sum over the cells c containing e of k_c V_c grad(phi_i)·grad(phi_j),
// with phi the barycentric (P1 hat) functions of cell c. K is the P1 finite-element stiffness
// matrix, which on simplices equals the median-dual finite-volume diffusion operator (the flux
// k grad T of each cell is constant, so the dual-face integrals telescope into the same weights).
// K is symmetric, K 1 = 0, positive semi-definite whenever the weights come from k_c >= 0.
// Every function here is a gather over a connectivity list (node_edges, node_cells).
// Reference: J.B. Perot & V. Subramanian, "Discrete calculus methods for diffusion",
// J. Comput. Phys. 224 (2007) 59-81 (node-based scheme and its equivalence with P1 FEM).
#include <cmath>

#include "backend/cpu/checks.hpp"
#include "backend/cpu/operators.hpp"

namespace scfd::backend::cpu {
namespace {

void check_node_operator(const Mesh& m, std::span<const real> edge_weight, const char* what) {
  SCFD_CHECK_SIZE(edge_weight, m.n_edges, what);
  SCFD_CHECK(m.node_edges.n_rows() == m.n_nodes, "{}: node_edges has {} rows, {} expected", what,
             m.node_edges.n_rows(), m.n_nodes);
}

// Barycentric-function gradients g[0..dim] and volume of cell c, from its node coordinates:
// the rows of J^-1 with J = [x1 - x0, x2 - x0(, x3 - x0)], and grad(phi_0) = -sum of the others.
// (The gradients do not depend on the orientation of the cell; the volume is |det J| / dim!.)
real barycentric_gradients(const Mesh& m, index c, Vec3 g[4]) {
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

void node_laplacian(const Mesh& m, std::span<const real> edge_weight, std::span<const real> t,
                    std::span<real> out) {
  check_node_operator(m, edge_weight, "node_laplacian: edge_weight");
  SCFD_CHECK_SIZE(t, m.n_nodes, "node_laplacian: t");
  SCFD_CHECK_SIZE(out, m.n_nodes, "node_laplacian: out");
  SCFD_CHECK(disjoint(out, t) && disjoint(out, edge_weight),
             "node_laplacian: output aliases an input");
  const index* offset = m.node_edges.offset.data();
  const index* edge = m.node_edges.item.data();
  const index* edge_nodes = m.edge_nodes.data();
  for (index i = 0; i < m.n_owned_nodes; ++i) {
    const real ti = t[i];
    real sum = 0;
    for (index k = offset[i]; k < offset[i + 1]; ++k) {
      const index e = edge[k];
      const index j = edge_nodes[2 * e] + edge_nodes[2 * e + 1] - i;  // the other node
      sum += edge_weight[e] * (ti - t[j]);
    }
    out[i] = sum;
  }
}

void node_laplacian_diagonal(const Mesh& m, std::span<const real> edge_weight,
                             std::span<real> diag) {
  check_node_operator(m, edge_weight, "node_laplacian_diagonal: edge_weight");
  SCFD_CHECK_SIZE(diag, m.n_nodes, "node_laplacian_diagonal: diag");
  SCFD_CHECK(disjoint(diag, edge_weight), "node_laplacian_diagonal: output aliases the input");
  const index* offset = m.node_edges.offset.data();
  const index* edge = m.node_edges.item.data();
  for (index i = 0; i < m.n_owned_nodes; ++i) {
    real sum = 0;
    for (index k = offset[i]; k < offset[i + 1]; ++k) sum += edge_weight[edge[k]];
    diag[i] = sum;
  }
}

// Gather per edge (i, j): walk the cells around i and keep those that also contain j.
void edge_weights_from_cells(const Mesh& m, std::span<const real> k_cell,
                             std::span<real> edge_weight) {
  SCFD_CHECK_SIZE(k_cell, m.n_cells, "edge_weights_from_cells: k_cell");
  SCFD_CHECK_SIZE(edge_weight, m.n_edges, "edge_weights_from_cells: edge_weight");
  SCFD_CHECK(m.node_cells.n_rows() == m.n_nodes,
             "edge_weights_from_cells: node_cells has {} "
             "rows, {} expected",
             m.node_cells.n_rows(), m.n_nodes);
  SCFD_CHECK(disjoint(edge_weight, k_cell), "edge_weights_from_cells: output aliases the input");
  for (index e = 0; e < m.n_edges; ++e) {
    const index i = m.edge_nodes[2 * e];
    const index j = m.edge_nodes[2 * e + 1];
    real w = 0;
    for (const index c : m.node_cells.row(i)) {
      const int lj = local_node(m, c, j);
      if (lj < 0) continue;
      Vec3 g[4];
      const real volume = barycentric_gradients(m, c, g);
      w -= k_cell[c] * volume * dot(g[local_node(m, c, i)], g[lj]);
    }
    edge_weight[e] = w;
  }
}

}  // namespace scfd::backend::cpu
