// ns-exact's streamfunction system (see ns/stream_operator.hpp).
#include "physics/ns/stream_operator.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include "backend/operator_matrices.hpp"
#include "core/collectives.hpp"
#include "core/error.hpp"
#include "halo/halo.hpp"
#include "halo/overlap.hpp"
#include "solvers/amg.hpp"

namespace scfd::physics::ns {
namespace {

// 2D: the weight of edge e for the node Laplacian L is M of the face with the same two nodes.
std::vector<real> edge_masses(const topology::Mesh& m, std::span<const real> mass) {
  std::map<std::pair<index, index>, index> edge_of;
  for (index e = 0; e < m.n_edges; ++e) {
    const index a = m.edge_nodes[2 * e], b = m.edge_nodes[2 * e + 1];
    edge_of[{std::min(a, b), std::max(a, b)}] = e;
  }
  std::vector<real> w(static_cast<std::size_t>(m.n_edges), 0);
  for (index f = 0; f < m.n_faces; ++f) {
    const index a = m.face_nodes[2 * f], b = m.face_nodes[2 * f + 1];
    const auto it = edge_of.find({std::min(a, b), std::max(a, b)});
    if (it != edge_of.end()) w[it->second] = mass[f];
  }
  return w;
}

}  // namespace

StreamOperator::StreamOperator(const topology::Mesh& m, const backend::Backend& be,
                               halo::Halo& halo, const Coefficients& k,
                               std::span<const real> face_diagonal,
                               std::span<const real> edge_diagonal, real upwind)
    : m_(m),
      be_(be),
      halo_(halo),
      k_(k),
      curl_x_(be.make_field(m.n_faces)),
      convected_(be.make_field(m.n_faces)),
      rotated_(be.make_field(m.n_curl())),
      convection_(m, be, halo, upwind) {
  const index nk = m.n_curl();
  for (FieldPtr* f : {&free_, &unknown_, &known_, &lx_, &wlx_, &px_}) *f = be.make_field(nk);
  fixed_host_.assign(static_cast<std::size_t>(nk), 0);
  chain_host_.assign(fixed_host_.size(), 0);
  update_masks();
  // 2D: S is the node Laplacian, applied by the backend's node system; its matrix here gives the
  // Jacobi diagonals. 3D: S is applied as the stored matrix.
  const backend::SparseMatrix s = m.dim == 2 ? stream_matrix(m, face_diagonal) : stream_matrix(m);
  halo::HaloPlan& curl = curl_plan(halo, m);
  std::vector<index> reads = halo::ghosts_read(curl, s);
  const std::vector<index> by_curl = curl_reads(m);
  reads.insert(reads.end(), by_curl.begin(), by_curl.end());
  laplacian_plan_ =
      std::make_unique<halo::HaloPlan>(curl.narrowed(halo::ghosts_among(m.n_owned_curl(), reads)));
  star_plan_ = std::make_unique<halo::HaloPlan>(curl.narrowed(k.edge_star_ghosts));
  rotation_plan_ = std::make_unique<halo::HaloPlan>(halo.faces.narrowed(rotation_reads(m)));
  const auto [dm, dv] = stream_diagonals(m, s, edge_diagonal);
  diag_mass_ = be.make_field_from(dm);
  diag_viscous_ = be.make_field_from(dv);
  std::vector<real> star_stream(dm.size());
  for (std::size_t i = 0; i < star_stream.size(); ++i) star_stream[i] = edge_diagonal[i] * dm[i];
  star_stream_ = be.make_field_from(star_stream);
  if (m.dim == 3) {
    stream_ = be.make_matrix(s);
    stream_l1_.assign(static_cast<std::size_t>(s.rows), 0);
    for (index i = 0; i < s.rows; ++i)
      for (index j = s.offset[i]; j < s.offset[i + 1]; ++j) stream_l1_[i] += std::abs(s.value[j]);
    return;
  }
  edge_weight_ = edge_masses(m, face_diagonal);
  const FieldPtr w = be.make_field_from(edge_weight_), zero = be.make_field(m.n_nodes);
  assembled_ = be.make_node_system(m, *zero, 1, *w, *zero);
}

StreamOperator::~StreamOperator() = default;

// The 2D multigrid preconditioner (see preconditioner() in the header): D L^-1 on the free
// nodes, L^-1 one V-cycle, and Jacobi on the chain entities.
class StreamOperator::Multigrid final : public StreamOperator::Tracking {
 public:
  explicit Multigrid(const StreamOperator& op)
      : op_(op),
        weight_(op.be_.make_field(op.size())),
        chain_scale_(op.be_.make_field(op.size())),
        t_(op.be_.make_field(op.size())) {}

  void update() override {
    const bool fixed_changed = global_max(std::int64_t{op_.fixed_host_ != fixed_}) != 0;
    if (fixed_changed) {
      fixed_ = op_.fixed_host_;
      const std::vector<real> zero(fixed_.size(), 0);
      laplacian_ = solvers::make_amg(
          op_.be_, backend::node_system_matrix(op_.m_, zero, 1, op_.edge_weight_, fixed_),
          curl_plan(op_.halo_, op_.m_), "stream (L)");
    }
    if (fixed_changed || op_.nu_dt != weight_nu_dt_) {
      weight_nu_dt_ = op_.nu_dt;
      op_.second_factor(*weight_);
    }
    op_.chain_scale(*chain_scale_, *t_);  // the diagonal changes with nu dt
  }

  void apply(Field& r, Field& z) const override {
    const backend::Backend& be = op_.be_;
    laplacian_->apply(r, *t_);
    be.multiply(*weight_, *t_, z);
    if (!op_.chains_.empty()) {
      be.multiply(*chain_scale_, r, *t_);
      be.axpy(1, *t_, z);
    }
  }

 private:
  const StreamOperator& op_;
  std::vector<real> fixed_;  // the boundary-data entities the hierarchy was built for
  real weight_nu_dt_ = -1;   // the nu dt of weight_ (-1: none yet)
  std::unique_ptr<solvers::Amg> laplacian_;
  FieldPtr weight_, chain_scale_, t_;  // D; the chain entities' Jacobi weights; scratch
};

// Formed on the backend (no upload: it changes with nu dt, i.e. at most steps of a run whose
// step follows the Courant number), as 1 / (1 + nu dt W_ii L_ii): the same as W^-1 / (W^-1 + nu
// dt L_ii) and finite where W_ii is 0.
void StreamOperator::second_factor(Field& weight) const {
  be_.fill(weight, 1);
  be_.axpy(nu_dt, *star_stream_, weight);
  be_.reciprocal(weight, weight);
  be_.multiply(*free_, weight, weight);
}

void StreamOperator::chain_scale(Field& scale, Field& work) const {
  diagonal(work);
  be_.reciprocal(work, scale);
  be_.copy(*unknown_, work);
  be_.axpy(-1, *free_, work);  // 1 on the chain entities
  be_.multiply(work, scale, scale);
}

void StreamOperator::use_multigrid() {
  if (m_.dim == 2)
    multigrid_ = std::make_unique<Multigrid>(*this);
  else
    multigrid_ = make_edge_multigrid();
}

const solvers::Preconditioner* StreamOperator::preconditioner() {
  if (!multigrid_) return nullptr;
  multigrid_->update();
  return multigrid_.get();
}

void StreamOperator::set_fixed(std::span<const real> fixed) {
  SCFD_CHECK(fixed.size() == fixed_host_.size(), "set_fixed: {} entries for {} entities",
             fixed.size(), fixed_host_.size());
  fixed_host_.assign(fixed.begin(), fixed.end());
  update_masks();
}

// Modified Gram-Schmidt over the owned entries (the ghost entries follow the same combinations);
// a chain in the span of the earlier ones adds nothing.
void StreamOperator::set_chains(const std::vector<std::vector<real>>& chains) {
  SCFD_CHECK(chains_.empty(), "set_chains twice");
  const auto owned_dot = [&](const std::vector<real>& a, const std::vector<real>& b) {
    real s = 0;
    for (index k = 0; k < m_.n_owned_curl(); ++k) s += a[k] * b[k];
    return global_sum(s);
  };
  std::vector<std::vector<real>> basis;
  for (std::vector<real> c : chains) {
    SCFD_CHECK(c.size() == fixed_host_.size(), "set_chains: {} entries for {} entities", c.size(),
               fixed_host_.size());
    const real norm0 = std::sqrt(owned_dot(c, c));
    for (const std::vector<real>& q : basis) {
      const real a = owned_dot(q, c);
      for (std::size_t i = 0; i < c.size(); ++i) c[i] -= a * q[i];
    }
    const real norm = std::sqrt(owned_dot(c, c));
    if (!(norm > 1e-10 * norm0)) continue;
    for (std::size_t i = 0; i < c.size(); ++i) {
      SCFD_CHECK(c[i] == 0 || fixed_host_[i] != 0, "a chain on an unknown entity");
      c[i] /= norm;
      if (c[i] != 0) chain_host_[i] = 1;
    }
    basis.push_back(std::move(c));
  }
  for (const std::vector<real>& q : basis) chains_.push_back(be_.make_field_from(q));
  chain_coef_.resize(chains_.size());
  if (!chains_.empty()) chain_sums_ = be_.make_scalars(static_cast<index>(chains_.size()));
  update_masks();
}

void StreamOperator::update_masks() {
  std::vector<real> free(fixed_host_.size()), unknown(free.size()), known(free.size());
  for (std::size_t i = 0; i < free.size(); ++i) {
    free[i] = 1 - fixed_host_[i];
    unknown[i] = std::max(free[i], chain_host_[i]);
    known[i] = 1 - unknown[i];
  }
  be_.upload(free, *free_);
  be_.upload(unknown, *unknown_);
  be_.upload(known, *known_);
}

// The chains' coefficients stay on the backend (slots of chain_sums_): no read-back on one rank.
void StreamOperator::project(const Field& x, Field& y) const {
  const auto n_chains = static_cast<index>(chains_.size());
  for (index k = 0; k < n_chains; ++k) be_.dot(*chains_[k], x, m_.n_owned_curl(), *chain_sums_, k);
  if (n_chains > 0 && world_size() > 1) {
    be_.read_scalars(*chain_sums_, chain_coef_);
    global_sum(std::span<real>(chain_coef_));
    be_.write_scalars(chain_coef_, *chain_sums_);
  }
  be_.multiply(*free_, x, y);
  for (index k = 0; k < n_chains; ++k) be_.axpy(*chain_sums_, {.slot = k}, *chains_[k], y);
}

void StreamOperator::apply(Field& x, Field& y) const {
  project(x, *px_);
  full(*px_, y, true);
  project(y);
}

void StreamOperator::diagonal(Field& d) const {
  be_.copy(*diag_mass_, d);
  be_.axpy(nu_dt, *diag_viscous_, d);
  be_.multiply(*unknown_, d, d);
  be_.axpy(1, *known_, d);
}

void StreamOperator::full(Field& x, Field& y, bool exchange_x) const {
  laplacian(x, *lx_, exchange_x);
  if (stream_)
    halo::overlap(*star_plan_, be_, *lx_,
                  [&](backend::Rows rows) { k_.edge_star.apply(*lx_, *wlx_, rows); });
  else
    k_.edge_star.apply(*lx_, *wlx_);
  laplacian(*wlx_, y, true);
  be_.xpay(*lx_, nu_dt, y);
  if (advecting == nullptr || convection_dt == 0) return;
  be_.curl(m_, x, *curl_x_);
  convection_.apply_exchanging(*advecting, *curl_x_, convection_.zero_boundary(), *convected_);
  halo::overlap(*rotation_plan_, be_, *convected_,
                [&](backend::Rows rows) { be_.rotation(m_, *convected_, *rotated_, rows); });
  be_.axpy(convection_dt, *rotated_, y);
}

void StreamOperator::laplacian(Field& x, Field& y, bool exchange_x) const {
  // The first product reads the ghosts of x: exchanged behind its inner rows when asked.
  const auto first = [&](const auto& op) {
    if (exchange_x)
      halo::overlap(*laplacian_plan_, be_, x, op);
    else
      op(backend::Rows::all);
  };
  if (assembled_)
    first([&](backend::Rows rows) { assembled_->apply(x, y, rows); });
  else
    first([&](backend::Rows rows) { be_.matrix_apply(*stream_, x, y, rows); });
}

}  // namespace scfd::physics::ns
