// The node Laplacian of docs/architecture.md §2 (heat diffusion with T at nodes): node -> node,
//   (K T)_i = sum over the edges e = (i, j) of i of w_e (T_i - T_j),
//   w_e = -sum over the cells c containing e of k_c V_c grad(phi_i)·grad(phi_j),
// with phi the barycentric (P1 hat) functions of cell c (the weights: topology::edge_weights, or
// mesh.edge_stiffness for k = 1). K is the P1 finite-element stiffness
// matrix, which on simplices equals the median-dual finite-volume diffusion operator (the flux
// k grad T of each cell is constant, so the dual-face integrals telescope into the same weights).
// K is symmetric, K 1 = 0, positive semi-definite whenever the weights come from k_c >= 0.
// Every function here is a gather over the node_edges list.
// Reference: J.B. Perot & V. Subramanian, "Discrete calculus methods for diffusion",
// J. Comput. Phys. 224 (2007) 59-81 (node-based scheme and its equivalence with P1 FEM).
#include "backend/cpu/checks.hpp"
#include "backend/cpu/operators.hpp"

namespace scfd::backend::cpu {
namespace {

void check_node_operator(const Mesh& m, std::span<const real> edge_weight, const char* what) {
  SCFD_CHECK_SIZE(edge_weight, m.n_edges, what);
  SCFD_CHECK(m.node_edges.n_rows() == m.n_nodes, "{}: node_edges has {} rows, {} expected", what,
             m.node_edges.n_rows(), m.n_nodes);
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

}  // namespace scfd::backend::cpu
