// The node system (Backend::node_system: node-based diffusion with Dirichlet rows eliminated) as a
// LinearOperator for Pcg: assembled once by the backend (Backend::make_node_system), applied after
// a halo exchange of x overlapped with the inner rows (halo/overlap.hpp), through the node plan
// narrowed to the ghosts the owned rows read (the nodes across their edges; HaloPlan::narrowed,
// made here: collective with the neighbours). d, b, w and fixed are captured when it is made: a
// caller makes a new one when they change. The Mesh, Backend, HaloPlan and the four fields must
// outlive it.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "backend/backend.hpp"
#include "halo/halo.hpp"
#include "halo/overlap.hpp"
#include "solvers/linear_operator.hpp"

namespace scfd::solvers {

class NodeSystemOperator final : public LinearOperator {
 public:
  NodeSystemOperator(const topology::Mesh& m, const backend::Backend& be, halo::HaloPlan& nodes,
                     const backend::Field& d, real b, const backend::Field& w,
                     const backend::Field& fixed)
      : m_(m),
        be_(be),
        nodes_(nodes.narrowed(edge_neighbour_ghosts(m))),
        system_(be.make_node_system(m, d, b, w, fixed)),
        d_(d),
        b_(b),
        w_(w),
        fixed_(fixed) {}
  index size() const override { return m_.n_nodes; }
  index owned() const override { return m_.n_owned_nodes; }
  void apply(backend::Field& x, backend::Field& y) const override {
    halo::overlap(nodes_, be_, x, [&](backend::Rows rows) { system_->apply(x, y, rows); });
  }
  void diagonal(backend::Field& diag) const override {
    be_.node_system_diagonal(m_, d_, b_, w_, fixed_, diag);
  }

 private:
  const topology::Mesh& m_;
  const backend::Backend& be_;
  // The ghost nodes across the edges of the owned nodes.
  static std::vector<index> edge_neighbour_ghosts(const topology::Mesh& m) {
    const auto end = static_cast<std::size_t>(m.node_edges.offset[m.n_owned_nodes]);
    std::vector<index> nodes;
    nodes.reserve(2 * end);
    for (std::size_t k = 0; k < end; ++k) {
      const auto e = static_cast<std::size_t>(m.node_edges.item[k]);
      nodes.push_back(m.edge_nodes[2 * e]);
      nodes.push_back(m.edge_nodes[2 * e + 1]);
    }
    return halo::ghosts_among(m.n_owned_nodes, nodes);
  }

  mutable halo::HaloPlan nodes_;
  std::unique_ptr<backend::NodeSystem> system_;
  const backend::Field& d_;
  real b_;
  const backend::Field& w_;
  const backend::Field& fixed_;
};

}  // namespace scfd::solvers
