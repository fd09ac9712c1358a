// ns-exact's 3D stream-system preconditioner (see StreamOperator::preconditioner in
// ns/stream_operator.hpp; docs/methods.md, "The stream system's preconditioner (3D)"):
// M = (W^-1 + nu dt S)^-1 W^-1 S^+ on the free edges, W by its diagonal, each edge inverse by one
// cycle of the auxiliary-space preconditioner of Hiptmair and Xu ("Nodal auxiliary space
// preconditioning in H(curl) and H(div) spaces", SIAM J. Numer. Anal. 45 (2007) 2483-2509):
//
//   y = J r;  y += T K^-1 T^T (r - A y);  y += J (r - A y),
//
// J the l1-Jacobi sweep of the edge matrix A, T the transfer from an auxiliary node space, K^-1
// one V-cycle of smoothed-aggregation multigrid (solvers/amg.hpp) on its node matrix:
// - A = S (curl-curl): T = Pi, the interpolation of node vector fields (edge value: the tangential
//   integral of the piecewise-linear field, 1/2 t_e,c at either end node for component c); K = the
//   P1 Laplacian for each component (S G = 0: no gradient space);
// - A = W^-1 + nu dt S: T = [Pi G], G the node-to-edge gradient; K = m + nu dt (P1 Laplacian) for
//   each component, m the lumped node image of W^-1, and G^T W^-1 G for the gradient.
// A space's components are interleaved per node and its matrices placed block-diagonally, so one
// hierarchy and one V-cycle serve them all. The nodes of boundary-data edges are left out
// (Dirichlet in the node spaces): a node field vanishing there interpolates to edge values that
// vanish on every boundary-data edge.
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <vector>

#include "backend/operator_matrices.hpp"
#include "core/collectives.hpp"
#include "halo/halo.hpp"
#include "physics/ns/stream_operator.hpp"
#include "solvers/amg.hpp"
#include "solvers/sparse_algebra.hpp"

namespace scfd::physics::ns {
namespace {

// The first `rows` rows of a (a.rows >= rows).
SparseMatrix leading_rows(SparseMatrix a, index rows) {
  a.offset.resize(static_cast<std::size_t>(rows) + 1);
  a.column.resize(static_cast<std::size_t>(a.offset.back()));
  a.value.resize(a.column.size());
  a.rows = rows;
  return a;
}

}  // namespace

class StreamOperator::EdgeMultigrid final : public StreamOperator::Tracking {
 public:
  explicit EdgeMultigrid(const StreamOperator& op) : op_(op) {
    const backend::Backend& be = op.be_;
    for (FieldPtr* f : {&free_area_, &chain_scale_, &weight_s_, &weight_x_, &r_, &y_, &t_, &u_})
      *f = be.make_field(op.size());
    for (Space* space : {&curl_, &helmholtz_}) {
      space->plan = std::make_unique<halo::HaloPlan>(node_block_plan(op.m_, space->k));
      space->a = be.make_field(space->k * op.m_.n_nodes);
      space->b = be.make_field(space->k * op.m_.n_nodes);
    }
  }

  void update() override {
    const backend::Backend& be = op_.be_;
    const topology::Mesh& m = op_.m_;
    const bool fixed_changed = global_max(std::int64_t{op_.fixed_host_ != fixed_}) != 0;
    if (fixed_changed) {
      fixed_ = op_.fixed_host_;
      // A node is fixed where a boundary-data edge ends (its owner sees all its edges).
      node_fixed_.assign(static_cast<std::size_t>(m.n_nodes), 0);
      for (index e = 0; e < m.n_edges; ++e)
        if (fixed_[e] != 0)
          node_fixed_[m.edge_nodes[2 * e]] = node_fixed_[m.edge_nodes[2 * e + 1]] = 1;
      op_.halo_.nodes.exchange(std::span<real>(node_fixed_));
      std::vector<real> area(fixed_.size());
      for (std::size_t i = 0; i < area.size(); ++i)
        area[i] = (1 - fixed_[i]) * op_.star_inverse_[i];
      be.upload(area, *free_area_);
      // Pi (components 0-2 of every node) for S; Pi and G (component 3) for W^-1 + nu dt S.
      const auto pi_g = [&](index e, int end, int c) {
        return c < 3 ? tangent(e)[c] / 2 : (end == 0 ? real(-1) : real(1));
      };
      store_transfer(curl_, pi_g);
      store_transfer(helmholtz_, pi_g);
      const std::vector<real> zero(static_cast<std::size_t>(m.n_nodes), 0);
      const SparseMatrix k = backend::node_system_matrix(m, zero, 1, m.edge_stiffness, node_fixed_);
      curl_.amg = solvers::make_amg(be, interleave({&k, &k, &k}), *curl_.plan,
                                    "stream (S, nodal vector space)");
      gradient_ = backend::node_system_matrix(m, zero, 1, op_.star_inverse_, node_fixed_);
      // The node image of W^-1 for the vector space: sum over the node's edges of
      // |t_e|^2 / 6 W^-1_e (Pi^T W^-1 Pi lumped and averaged over the three components).
      node_mass_.assign(static_cast<std::size_t>(m.n_nodes), 0);
      for (index e = 0; e < m.n_edges; ++e) {
        const Vec3 t = tangent(e);
        const real share = dot(t, t) / 6 * op_.star_inverse_[e];
        node_mass_[m.edge_nodes[2 * e]] += share;
        node_mass_[m.edge_nodes[2 * e + 1]] += share;
      }
    }
    const real now = op_.nu_dt;
    if (fixed_changed || now != weights_nu_dt_) {  // l1-Jacobi: 1 / sum_j |A_ij| on free edges
      weights_nu_dt_ = now;
      std::vector<real> ws(fixed_.size(), 0), wx(fixed_.size(), 0);
      for (std::size_t i = 0; i < op_.stream_l1_.size(); ++i)
        if (fixed_[i] == 0) {
          const real l1 = op_.stream_l1_[i];
          ws[i] = l1 > 0 ? 1 / l1 : 0;
          wx[i] = 1 / (op_.star_inverse_[i] + now * l1);
        }
      be.upload(ws, *weight_s_);
      be.upload(wx, *weight_x_);
    }
    if (fixed_changed || !(now <= 2 * built_nu_dt_ && now >= 0.5 * built_nu_dt_)) {
      built_nu_dt_ = now;
      helmholtz_.amg.reset();
      if (now > 0) {
        const SparseMatrix k =
            backend::node_system_matrix(m, node_mass_, now, m.edge_stiffness, node_fixed_);
        helmholtz_.amg =
            solvers::make_amg(be, interleave({&k, &k, &k, &gradient_}), *helmholtz_.plan,
                              "stream (W^-1 + nu dt S, nodal vector and gradient spaces)");
      }
    }
    op_.chain_scale(*chain_scale_, *t_);
  }

  void apply(const Field& r, Field& z) const override {
    const backend::Backend& be = op_.be_;
    halo::HaloPlan& edges = curl_plan(op_.halo_, op_.m_);
    // y = B_S r: y = J r; y += T K^-1 T^T (r - S y); y += J (r - S y)
    be.copy(r, *r_);
    edges.exchange(be, *r_);
    be.multiply(*weight_s_, *r_, *y_);
    residual(0, *r_, *y_, *u_);
    correction(curl_, *u_, *y_);
    residual(0, *r_, *y_, *u_);
    be.multiply(*weight_s_, *u_, *u_);
    be.axpy(1, *u_, *y_);
    be.multiply(*free_area_, *y_, *r_);  // W^-1 y
    if (helmholtz_.amg) {                // z = B_X W^-1 y, the same three steps
      edges.exchange(be, *r_);
      be.multiply(*weight_x_, *r_, z);
      residual(op_.nu_dt, *r_, z, *u_);
      correction(helmholtz_, *u_, z);
      residual(op_.nu_dt, *r_, z, *u_);
      be.multiply(*weight_x_, *u_, *u_);
      be.axpy(1, *u_, z);
    } else {  // nu dt = 0: M = S^+
      be.copy(*y_, z);
    }
    be.multiply(*op_.free_, z, z);
    be.multiply(*chain_scale_, r, *t_);
    be.axpy(1, *t_, z);
  }

 private:
  // An auxiliary space of k values per node, interleaved (node n's value c at k n + c, so the
  // owned values come first, as a halo plan needs): its transfer T from the nodes to the edges,
  // T^T, the multigrid of its block-diagonal matrix (one V-cycle for all k components), and
  // node scratch.
  struct Space {
    explicit Space(int components) : k(components) {}
    int k;
    std::unique_ptr<halo::HaloPlan> plan;  // the node plan, each node k entities
    std::unique_ptr<backend::Matrix> to_edges, to_nodes;
    std::unique_ptr<solvers::Amg> amg;
    FieldPtr a, b;
  };

  Vec3 tangent(index e) const {
    const topology::Mesh& m = op_.m_;
    return m.node_x[m.edge_nodes[2 * e + 1]] - m.node_x[m.edge_nodes[2 * e]];
  }

  // The node plan with each node k entities (k n + c, global k gid + c).
  static halo::HaloPlan node_block_plan(const topology::Mesh& m, int k) {
    std::vector<index> gid;
    std::vector<int> owner;
    for (const index g : m.node_gid)
      for (int c = 0; c < k; ++c) gid.push_back(k * g + c);
    for (const int o : m.node_ghost_owner)
      owner.insert(owner.end(), static_cast<std::size_t>(k), o);
    return halo::HaloPlan::build(halo::Entity::node,
                                 k * (gid.empty() ? m.n_nodes : m.n_owned_nodes), gid, owner,
                                 MPI_COMM_WORLD);
  }

  // The block-diagonal matrix of the node matrices `blocks` (owned rows x local nodes each),
  // interleaved as Space's values.
  static SparseMatrix interleave(std::initializer_list<const SparseMatrix*> blocks) {
    const auto k = static_cast<index>(blocks.size());
    const SparseMatrix& first = **blocks.begin();
    SparseMatrix out;
    out.rows = k * first.rows;
    out.cols = k * first.cols;
    for (index i = 0; i < first.rows; ++i) {
      index c = 0;
      for (const SparseMatrix* b : blocks) {
        for (index j = b->offset[i]; j < b->offset[i + 1]; ++j) {
          out.column.push_back(k * b->column[j] + c);
          out.value.push_back(b->value[j]);
        }
        out.offset.push_back(out.entries());
        ++c;
      }
    }
    return out;
  }

  // T of `space` on the owned edges and T^T on its owned values (reading every local edge): row
  // e of T holds value(e, end, c) at value c of either end node where the edge is free and the
  // node is not fixed.
  template <class Value>
  void store_transfer(Space& space, Value value) {
    const topology::Mesh& m = op_.m_;
    SparseMatrix t;
    t.rows = m.n_edges;
    t.cols = space.k * m.n_nodes;
    for (index e = 0; e < m.n_edges; ++e) {
      if (fixed_[e] == 0)
        for (int end = 0; end < 2; ++end)
          if (const index n = m.edge_nodes[2 * e + end]; node_fixed_[n] == 0)
            for (int c = 0; c < space.k; ++c) {
              t.column.push_back(space.k * n + c);
              t.value.push_back(value(e, end, c));
            }
      t.offset.push_back(t.entries());
    }
    space.to_edges = op_.be_.make_matrix(leading_rows(t, m.n_owned_edges));
    space.to_nodes =
        op_.be_.make_matrix(leading_rows(solvers::transpose(t), space.k * m.n_owned_nodes));
  }

  // u = b - A x on the free edges, with its ghosts, for A = S (c = 0) or W^-1 + c S (x: its
  // ghosts are exchanged here).
  void residual(real c, const Field& b, Field& x, Field& u) const {
    const backend::Backend& be = op_.be_;
    halo::HaloPlan& edges = curl_plan(op_.halo_, op_.m_);
    edges.exchange(be, x);
    if (c == 0) {
      be.matrix_residual(*op_.stream_, b, x, u);
    } else {
      be.matrix_apply(*op_.stream_, x, *t_);
      be.multiply(*free_area_, x, u);
      be.axpy(c, *t_, u);
      be.xpay(b, -1, u);
    }
    be.multiply(*op_.free_, u, u);
    edges.exchange(be, u);
  }

  // z += T K^-1 T^T r for the auxiliary space (r with its ghosts).
  void correction(const Space& space, const Field& r, Field& z) const {
    const backend::Backend& be = op_.be_;
    be.matrix_apply(*space.to_nodes, r, *space.a);
    space.amg->apply(*space.a, *space.b);
    space.plan->exchange(be, *space.b);
    be.matrix_apply(*space.to_edges, *space.b, *t_);
    be.axpy(1, *t_, z);
  }

  const StreamOperator& op_;
  std::vector<real> fixed_;       // the boundary-data edges the transfers were built for
  std::vector<real> node_fixed_;  // 1 at the nodes of boundary-data edges
  std::vector<real> node_mass_;   // the node image of W^-1 (helmholtz_)
  SparseMatrix gradient_;         // G^T W^-1 G on the nodes
  real built_nu_dt_ = -1;         // the nu dt of helmholtz_'s multigrid (-1: none built yet)
  real weights_nu_dt_ = -1;       // the nu dt of weight_x_
  Space curl_{3}, helmholtz_{4};  // S: Pi; W^-1 + nu dt S: Pi and G
  // edges: W^-1 on the free edges; the chain entities' Jacobi weights; the l1-Jacobi weights of
  // S and of W^-1 + nu dt S on the free edges; scratch
  FieldPtr free_area_, chain_scale_, weight_s_, weight_x_, r_, y_, t_, u_;
};

std::unique_ptr<StreamOperator::Tracking> StreamOperator::make_edge_multigrid() const {
  return std::make_unique<EdgeMultigrid>(*this);
}

}  // namespace scfd::physics::ns
