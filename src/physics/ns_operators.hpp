// The Fields of the ns-classical model and its two linear operators (see ns_classical.hpp),
// kept apart from the time stepping so that each file does one job. Internal to the physics
// module.
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "backend/backend.hpp"
#include "halo/halo.hpp"
#include "solvers/linear_operator.hpp"
#include "topology/mesh.hpp"

namespace scfd::physics::ns {

using backend::Field;
using FieldPtr = std::unique_ptr<Field>;

// The halo plan of the curl entities: nodes in 2D, edges in 3D.
inline halo::HaloPlan& curl_plan(halo::Halo& halo, const topology::Mesh& m) {
  return halo.plan(m.dim == 2 ? halo::Entity::node : halo::Entity::edge);
}

// The Fields of the model. Face fields have n_faces entries, cell fields n_cells, curl fields
// n_curl, boundary fields one (or 3) per owned boundary face.
struct State {
  FieldPtr mass, fixed, free, mobility, neg_mobility, weight, viscous_diag, pressure_diag,
      cfl_weight;                                           // geometry
  FieldPtr u, u_star, rhs, conv, conv_old, face_a, face_b;  // faces
  FieldPtr p, psi, cell_a, ones;                            // cells
  FieldPtr u_cell, n_cell;                                  // 3 per cell
  FieldPtr bc_flux;                                         // faces: fixed fluxes
  FieldPtr bc_velocity, bc_pressure, zero_boundary;         // boundary faces
  FieldPtr bc_circulation, curl_a;                          // curl entities
};

// y = free .* ((M + nu dt K)(free .* x)) + fixed .* x, K = M C W R M: the momentum matrix with
// the rows and columns of the fixed faces eliminated symmetrically.
class MomentumOperator final : public solvers::LinearOperator {
 public:
  MomentumOperator(const topology::Mesh& m, const backend::Backend& be, halo::Halo& halo, State& s)
      : m_(m), be_(be), halo_(halo), s_(s) {}
  index size() const override { return m_.n_faces; }
  index owned() const override { return m_.n_owned_faces; }
  void apply(Field& x, Field& y) const override {
    halo_.faces.exchange(be_, x);
    be_.multiply(*s_.free, x, *s_.face_a);
    viscous(*s_.face_a, *s_.face_b);
    be_.multiply(*s_.mass, *s_.face_a, y);
    be_.axpy(nu_dt, *s_.face_b, y);
    be_.multiply(*s_.free, y, y);
    be_.multiply(*s_.fixed, x, *s_.face_b);
    be_.axpy(1, *s_.face_b, y);
  }
  // d = free .* (mass + nu dt viscous_diag) + fixed.
  void diagonal(Field& d) const override {
    be_.copy(*s_.mass, d);
    be_.axpy(nu_dt, *s_.viscous_diag, d);
    be_.multiply(*s_.free, d, d);
    be_.axpy(1, *s_.fixed, d);
  }
  // y = M C W (R M x + extra), owned faces; x needs its ghosts. `extra` (curl entities, or null)
  // is the wall part of the circulation.
  void viscous(const Field& x, Field& y, const Field* extra = nullptr) const {
    be_.multiply(*s_.mass, x, y);
    be_.rotation(m_, y, *s_.curl_a);
    if (extra != nullptr) be_.axpy(1, *extra, *s_.curl_a);
    be_.multiply(*s_.weight, *s_.curl_a, *s_.curl_a);
    curl_plan().exchange(be_, *s_.curl_a);
    be_.curl(m_, *s_.curl_a, y);
    be_.multiply(*s_.mass, y, y);
  }
  real nu_dt = 0;

 private:
  halo::HaloPlan& curl_plan() const { return ns::curl_plan(halo_, m_); }
  const topology::Mesh& m_;
  const backend::Backend& be_;
  halo::Halo& halo_;
  State& s_;
};

// y = -D A~^-1 G0 x (G0: the gradient with zero boundary values; A~^-1 is zero on fixed faces).
class PressureOperator final : public solvers::LinearOperator {
 public:
  PressureOperator(const topology::Mesh& m, const backend::Backend& be, halo::Halo& halo, State& s)
      : m_(m), be_(be), halo_(halo), s_(s) {}
  index size() const override { return m_.n_cells; }
  index owned() const override { return m_.n_owned_cells; }
  void apply(Field& x, Field& y) const override {
    halo_.cells.exchange(be_, x);
    be_.gradient(m_, x, *s_.zero_boundary, *s_.face_a);
    be_.multiply(*s_.neg_mobility, *s_.face_a, *s_.face_a);
    halo_.faces.exchange(be_, *s_.face_a);
    be_.divergence(m_, *s_.face_a, y);
  }
  void diagonal(Field& d) const override { be_.copy(*s_.pressure_diag, d); }

 private:
  const topology::Mesh& m_;
  const backend::Backend& be_;
  halo::Halo& halo_;
  State& s_;
};

// The Fields of the ns-exact streamfunction system, one entry per curl entity (ns_exact.cpp).
struct StreamState {
  FieldPtr free, fixed;              // 1 on unknown / boundary-data entities, else 0
  FieldPtr diag_mass, diag_viscous;  // diagonals of L = R M C and of L W L (owned entities)
  FieldPtr t, w;
};

// ns-exact's system on the streamfunction, restricted to the unknown entities: y = free .* (R A C
// x) for x that is zero on the boundary-data entities (the solve is for the correction to a field
// that holds the boundary data; PCG keeps those entries at zero when b and the initial guess are),
// A = M + nu dt M C W R M the weighted momentum matrix of ns-classical. Its Jacobi diagonal is 1 on
// the boundary-data entities. With L = R M C, R A C = L + nu dt L W L. In 2D L is the
// graph Laplacian of the nodes with weight M_f on the edge that face f is, applied as an
// assembled node system (one sparse pass); in 3D L is curl, M, rotation. Symmetric positive
// definite in 2D with a boundary-data node; in 3D positive semi-definite, with the gradients of
// the interior node functions as null space (C G = 0), a consistent system for CG.
class StreamOperator final : public solvers::LinearOperator {
 public:
  // `mass` is M per local face (ghosts included).
  StreamOperator(const topology::Mesh& m, const backend::Backend& be, halo::Halo& halo, State& s,
                 StreamState& ss, std::span<const real> mass)
      : m_(m), be_(be), halo_(halo), s_(s), ss_(ss) {
    if (m.dim != 2) return;
    // Weight of edge e: M of the face with the same two nodes.
    std::map<std::pair<index, index>, index> edge_of;
    for (index e = 0; e < m.n_edges; ++e) {
      const index a = m.edge_nodes[2 * e], b = m.edge_nodes[2 * e + 1];  // global order
      edge_of[{std::min(a, b), std::max(a, b)}] = e;
    }
    std::vector<real> w(static_cast<std::size_t>(m.n_edges), 0);
    for (index f = 0; f < m.n_faces; ++f) {
      const index a = m.face_nodes[2 * f], b = m.face_nodes[2 * f + 1];
      const auto it = edge_of.find({std::min(a, b), std::max(a, b)});
      if (it != edge_of.end()) w[it->second] = mass[f];
    }
    const FieldPtr weight = be.make_field_from(w), zero = be.make_field(m.n_nodes);
    be.fill(*zero, 0);
    laplacian_ = be.make_node_system(m, *zero, 1, *weight, *zero);
  }
  index size() const override { return m_.n_curl(); }
  index owned() const override { return m_.n_owned_curl(); }
  void apply(Field& x, Field& y) const override {
    curl_plan().exchange(be_, x);
    full(x, y);
    be_.multiply(*ss_.free, y, y);
  }
  void diagonal(Field& d) const override {
    be_.copy(*ss_.diag_mass, d);
    be_.axpy(nu_dt, *ss_.diag_viscous, d);
    be_.multiply(*ss_.free, d, d);
    be_.axpy(1, *ss_.fixed, d);
  }
  // y = R A C x = (L + nu dt L W L) x on the owned entities (no elimination); x needs its ghosts.
  void full(const Field& x, Field& y) const {
    laplacian(x, *ss_.t);
    be_.multiply(*s_.weight, *ss_.t, *ss_.w);
    curl_plan().exchange(be_, *ss_.w);
    laplacian(*ss_.w, y);
    be_.xpay(*ss_.t, nu_dt, y);
  }
  // y = L x = R M C x on the owned entities; x needs its ghosts. 3D: uses face_a.
  void laplacian(const Field& x, Field& y) const {
    if (laplacian_) {
      laplacian_->apply(x, y);
      return;
    }
    be_.curl(m_, x, *s_.face_a);
    be_.multiply(*s_.mass, *s_.face_a, *s_.face_a);
    halo_.faces.exchange(be_, *s_.face_a);
    be_.rotation(m_, *s_.face_a, y);
  }
  real nu_dt = 0;

 private:
  halo::HaloPlan& curl_plan() const { return ns::curl_plan(halo_, m_); }
  const topology::Mesh& m_;
  const backend::Backend& be_;
  halo::Halo& halo_;
  State& s_;
  StreamState& ss_;
  std::unique_ptr<backend::NodeSystem> laplacian_;  // 2D: L assembled
};

}  // namespace scfd::physics::ns
