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

namespace {

// The node at the other end of edge e from node i.
index other_node(const topology::Mesh& m, index e, index i) {
  return m.edge_nodes[2 * e] == i ? m.edge_nodes[2 * e + 1] : m.edge_nodes[2 * e];
}

}  // namespace

index node_system_entries(const topology::Mesh& m) {
  const auto& ne = m.node_edges;
  return ne.offset.empty() ? 0 : ne.offset[m.n_owned_nodes];
}

// The diagonal is summed as node_system_diagonal sums it, so the two agree bit for bit.
void node_system_assemble(const topology::Mesh& m, std::span<const real> d, real b,
                          std::span<const real> w, std::span<const real> fixed,
                          std::span<real> coef, std::span<real> diag) {
  const auto n = static_cast<std::size_t>(m.n_nodes);
  const auto& ne = m.node_edges;
  SCFD_CHECK(d.size() == n && fixed.size() == n &&
             w.size() == static_cast<std::size_t>(m.n_edges) &&
             diag.size() == static_cast<std::size_t>(m.n_owned_nodes) &&
             coef.size() == static_cast<std::size_t>(node_system_entries(m)));
  for (index i = 0; i < m.n_owned_nodes; ++i) {
    const bool fixed_i = fixed[i] != 0;
    real sum = 0;
    for (index k = ne.offset[i]; k < ne.offset[i + 1]; ++k) {
      const index e = ne.item[k];
      sum += w[e];
      coef[k] = fixed_i || fixed[other_node(m, e, i)] != 0 ? 0 : -b * w[e];
    }
    diag[i] = fixed_i ? 1 : d[i] + b * sum;
  }
}

std::vector<index> node_system_columns(const topology::Mesh& m) {
  std::vector<index> cols(static_cast<std::size_t>(node_system_entries(m)));
  const auto& ne = m.node_edges;
  for (index i = 0; i < m.n_owned_nodes; ++i)
    for (index k = ne.offset[i]; k < ne.offset[i + 1]; ++k) cols[k] = other_node(m, ne.item[k], i);
  return cols;
}

void node_system_apply(const topology::Mesh& m, std::span<const real> coef,
                       std::span<const real> diag, std::span<const real> x, std::span<real> y,
                       std::span<const index> columns, RowRange rows) {
  const auto n = static_cast<std::size_t>(m.n_nodes);
  const auto& ne = m.node_edges;
  SCFD_CHECK(x.size() == n && y.size() == n &&
             diag.size() == static_cast<std::size_t>(m.n_owned_nodes) &&
             coef.size() == static_cast<std::size_t>(node_system_entries(m)) &&
             (columns.empty() || columns.size() == coef.size()));
  for (index i = rows.begin; i < rows.stop(m.n_owned_nodes); ++i) {
    real yi = diag[i] * x[i];
    if (columns.empty()) {
      for (index k = ne.offset[i]; k < ne.offset[i + 1]; ++k)
        yi += coef[k] * x[other_node(m, ne.item[k], i)];
    } else {
      for (index k = ne.offset[i]; k < ne.offset[i + 1]; ++k) yi += coef[k] * x[columns[k]];
    }
    y[i] = yi;
  }
}

}  // namespace scfd::backend::cpu
