// ns-exact's streamfunction system (see ns/stream_operator.hpp).
#include "physics/ns/stream_operator.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include "core/collectives.hpp"
#include "core/error.hpp"
#include "halo/halo.hpp"
#include "halo/overlap.hpp"

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
  if (m.dim == 3) {
    stream_ = be.make_matrix(s);
    return;
  }
  const FieldPtr w = be.make_field_from(edge_masses(m, face_diagonal)),
                 zero = be.make_field(m.n_nodes);
  assembled_ = be.make_node_system(m, *zero, 1, *w, *zero);
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

void StreamOperator::project(Field& x) const {
  std::vector<real>& c = chain_coef_;
  for (std::size_t k = 0; k < c.size(); ++k) c[k] = be_.dot(*chains_[k], x, m_.n_owned_curl());
  if (!c.empty()) global_sum(std::span<real>(c));
  be_.multiply(*free_, x, x);
  for (std::size_t k = 0; k < c.size(); ++k) be_.axpy(c[k], *chains_[k], x);
}

void StreamOperator::apply(Field& x, Field& y) const {
  be_.copy(x, *px_);
  project(*px_);
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
