// ns-exact's 3D stream-system preconditioner (see StreamOperator::preconditioner in
// ns/stream_operator.hpp; docs/methods.md, "The stream system's preconditioner (3D)"):
// M = D B on the free edges, the factored form (W^-1 + nu dt S)^-1 W^-1 S^+ with W by its
// diagonal, in which
// - B approximates S^+ by one cycle of the auxiliary-space preconditioner of Hiptmair and Xu
//   ("Nodal auxiliary space preconditioning in H(curl) and H(div) spaces", SIAM J. Numer. Anal.
//   45 (2007) 2483-2509) for the semi-definite curl-curl matrix S:
//
//     y = J r;  y += Pi K^-1 Pi^T (r - S y);  y += J (r - S y),
//
//   J the l1-Jacobi sweep of S, Pi the interpolation of node vector fields (edge value: the
//   tangential integral of the piecewise-linear field, 1/2 t_e,c at either end node for
//   component c), K^-1 one V-cycle of smoothed-aggregation multigrid (solvers/amg.hpp) on the P1
//   Laplacian of each component (S G = 0 needs no gradient space). The components are
//   interleaved per node and K is block-diagonal, so one hierarchy and one V-cycle serve all
//   three. The nodes of boundary-data edges are left out (Dirichlet): a node field vanishing
//   there interpolates to edge values that vanish on every boundary-data edge;
// - D = W^-1 / (W^-1 + nu dt diag S), the second factor by its diagonal: as few iterations as
//   an auxiliary-space cycle of W^-1 + nu dt S in the tests (docs/methods.md), at no cost and
//   with no hierarchy to rebuild when nu dt changes.
#include <cmath>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
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
  explicit EdgeMultigrid(const StreamOperator& op)
      : op_(op), plan_(std::make_unique<halo::HaloPlan>(node_vector_plan(op.m_))) {
    const backend::Backend& be = op.be_;
    for (FieldPtr* f : {&chain_scale_, &weight_s_, &weight_x_, &y_, &t_, &u_})
      *f = be.make_field(op.size());
    for (FieldPtr* f : {&a_, &b_}) *f = be.make_field(3 * op.m_.n_nodes);
  }

  void update() override {
    const backend::Backend& be = op_.be_;
    const bool fixed_changed = global_max(std::int64_t{op_.fixed_host_ != fixed_}) != 0;
    if (fixed_changed) {  // l1-Jacobi on the free edges: 1 / sum_j |S_ij|
      fixed_ = op_.fixed_host_;
      build_space();
      std::vector<real> ws(fixed_.size(), 0);
      for (std::size_t i = 0; i < op_.stream_l1_.size(); ++i)
        if (fixed_[i] == 0 && op_.stream_l1_[i] > 0) ws[i] = 1 / op_.stream_l1_[i];
      be.upload(ws, *weight_s_);
    }
    if (fixed_changed || op_.nu_dt != weight_nu_dt_) {
      weight_nu_dt_ = op_.nu_dt;
      op_.second_factor(*weight_x_);
    }
    op_.chain_scale(*chain_scale_, *t_);
  }

  // z = D y with y = B r: y = J r; y += Pi K^-1 Pi^T (r - S y); y += J (r - S y), the last
  // update one Jacobi-sweep kernel. r's ghosts are not read (the weights are 0 there), nor the
  // rows of u = r - S y on the boundary-data edges (Pi^T has no column there). Six kernels and
  // the V-cycle's (two more with chains): below a million edges a GPU kernel's fixed cost is a
  // good part of its time, and the form with separate residual, mask and axpy kernels (15) took
  // 20.4 instead of 19.0 ms per step of the 289k-tet cavity on an H200 (docs/methods.md).
  void apply(Field& r, Field& z) const override {
    const backend::Backend& be = op_.be_;
    be.multiply(*weight_s_, r, *y_);
    edges().exchange(be, *y_);
    be.matrix_residual(*op_.stream_, r, *y_, *u_);
    edges().exchange(be, *u_);  // Pi^T reads the ghosts
    be.matrix_apply(*to_nodes_, *u_, *a_);
    amg_->apply(*a_, *b_);
    plan_->exchange(be, *b_);
    be.matrix_apply_add(*to_edges_, *b_, *y_, *t_);
    edges().exchange(be, *t_);
    be.matrix_jacobi(*op_.stream_, *weight_s_, r, *t_, *y_);
    be.multiply(*weight_x_, *y_, z);
    if (!op_.chains_.empty()) {
      be.multiply(*chain_scale_, r, *t_);
      be.axpy(1, *t_, z);
    }
  }

 private:
  halo::HaloPlan& edges() const { return curl_plan(op_.halo_, op_.m_); }

  Vec3 tangent(index e) const {
    const topology::Mesh& m = op_.m_;
    return m.node_x[m.edge_nodes[2 * e + 1]] - m.node_x[m.edge_nodes[2 * e]];
  }

  // The node plan with three entities per node (value c of node n at 3 n + c, global 3 gid + c):
  // the owned values come first, as a plan needs.
  static halo::HaloPlan node_vector_plan(const topology::Mesh& m) {
    std::vector<index> gid;
    std::vector<int> owner;
    for (const index g : m.node_gid)
      for (index c = 0; c < 3; ++c) gid.push_back(3 * g + c);
    for (const int o : m.node_ghost_owner) owner.insert(owner.end(), 3, o);
    return halo::HaloPlan::build(halo::Entity::node,
                                 3 * (gid.empty() ? m.n_nodes : m.n_owned_nodes), gid, owner,
                                 MPI_COMM_WORLD);
  }

  // Pi and Pi^T, and the multigrid of K, for the current boundary-data edges. A node is fixed
  // where a boundary-data edge ends (its owner sees all its edges); row e of Pi holds
  // 1/2 t_e,c at value c of either end node where the edge is free and the node is not fixed.
  // Collective.
  void build_space() {
    const topology::Mesh& m = op_.m_;
    std::vector<real> node_fixed(static_cast<std::size_t>(m.n_nodes), 0);
    for (index e = 0; e < m.n_edges; ++e)
      if (fixed_[e] != 0) node_fixed[m.edge_nodes[2 * e]] = node_fixed[m.edge_nodes[2 * e + 1]] = 1;
    op_.halo_.nodes.exchange(std::span<real>(node_fixed));
    SparseMatrix pi;
    pi.rows = m.n_edges;
    pi.cols = 3 * m.n_nodes;
    for (index e = 0; e < m.n_edges; ++e) {
      if (fixed_[e] == 0)
        for (int end = 0; end < 2; ++end)
          if (const index n = m.edge_nodes[2 * e + end]; node_fixed[n] == 0)
            for (int c = 0; c < 3; ++c) {
              pi.column.push_back(3 * n + c);
              pi.value.push_back(tangent(e)[c] / 2);
            }
      pi.offset.push_back(pi.entries());
    }
    to_edges_ = op_.be_.make_matrix(leading_rows(pi, m.n_owned_edges));
    to_nodes_ = op_.be_.make_matrix(leading_rows(solvers::transpose(pi), 3 * m.n_owned_nodes));
    // K: the P1 Laplacian (Dirichlet at the fixed nodes) for each component, block-diagonal.
    const std::vector<real> zero(static_cast<std::size_t>(m.n_nodes), 0);
    const SparseMatrix k = backend::node_system_matrix(m, zero, 1, m.edge_stiffness, node_fixed);
    SparseMatrix kkk;
    kkk.rows = 3 * k.rows;
    kkk.cols = 3 * k.cols;
    for (index i = 0; i < k.rows; ++i)
      for (index c = 0; c < 3; ++c) {
        for (index j = k.offset[i]; j < k.offset[i + 1]; ++j) {
          kkk.column.push_back(3 * k.column[j] + c);
          kkk.value.push_back(k.value[j]);
        }
        kkk.offset.push_back(kkk.entries());
      }
    amg_ = solvers::make_amg(op_.be_, std::move(kkk), *plan_, "stream (S, nodal vector space)");
  }

  const StreamOperator& op_;
  std::vector<real> fixed_;               // the boundary-data edges Pi and K were built for
  real weight_nu_dt_ = -1;                // the nu dt of weight_x_ (-1: none yet)
  std::unique_ptr<halo::HaloPlan> plan_;  // nodes, three values each
  std::unique_ptr<backend::Matrix> to_edges_, to_nodes_;  // Pi (owned edges), Pi^T (owned nodes)
  std::unique_ptr<solvers::Amg> amg_;                     // K
  // edges: the chain entities' Jacobi weights; the free edges' l1-Jacobi weights of S and
  // second-factor diagonal; scratch
  FieldPtr chain_scale_, weight_s_, weight_x_, y_, t_, u_;
  FieldPtr a_, b_;  // node vectors: scratch
};

std::unique_ptr<StreamOperator::Tracking> StreamOperator::make_edge_multigrid() const {
  return std::make_unique<EdgeMultigrid>(*this);
}

}  // namespace scfd::physics::ns
