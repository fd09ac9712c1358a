// Node system operator (see node_system.hpp): a gather over node_edges, one output node per
// iteration, reading the neighbour through the edge. The Dirichlet elimination keeps symmetry:
// fixed rows are the identity and fixed columns are dropped (their values move to the
// right-hand side when the physics assembles it).
#include "backend/cpu/node_system.hpp"

#include "core/error.hpp"

namespace scfd::backend::cpu {

void node_system(const topology::Mesh& m, std::span<const real> d, real b, std::span<const real> w,
                 std::span<const real> fixed, std::span<const real> x, std::span<real> y) {
  const auto n = static_cast<std::size_t>(m.n_nodes);
  SCFD_CHECK(d.size() == n && fixed.size() == n && x.size() == n && y.size() == n &&
             w.size() == static_cast<std::size_t>(m.n_edges));
  const auto& ne = m.node_edges;
  for (index i = 0; i < m.n_owned_nodes; ++i) {
    if (fixed[i] != 0) {
      y[i] = x[i];
      continue;
    }
    real sum = 0;
    for (index k = ne.offset[i]; k < ne.offset[i + 1]; ++k) {
      const index e = ne.item[k];
      const index j = m.edge_nodes[2 * e] == i ? m.edge_nodes[2 * e + 1] : m.edge_nodes[2 * e];
      sum += w[e] * (x[i] - (1 - fixed[j]) * x[j]);
    }
    y[i] = d[i] * x[i] + b * sum;
  }
}

void node_system_diagonal(const topology::Mesh& m, std::span<const real> d, real b,
                          std::span<const real> w, std::span<const real> fixed,
                          std::span<real> diag) {
  const auto n = static_cast<std::size_t>(m.n_nodes);
  SCFD_CHECK(d.size() == n && fixed.size() == n && diag.size() == n &&
             w.size() == static_cast<std::size_t>(m.n_edges));
  const auto& ne = m.node_edges;
  for (index i = 0; i < m.n_owned_nodes; ++i) {
    if (fixed[i] != 0) {
      diag[i] = 1;
      continue;
    }
    real sum = 0;
    for (index k = ne.offset[i]; k < ne.offset[i + 1]; ++k) sum += w[ne.item[k]];
    diag[i] = d[i] + b * sum;
  }
}

}  // namespace scfd::backend::cpu
