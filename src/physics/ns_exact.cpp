// ns-exact time stepping (see ns_exact.hpp; the method and its boundary conditions are derived
// in docs/methods.md, "Exact fractional step"). The shared state, convection, probes and output
// are in ns_flow.cpp; the boundary values of the streamfunction in ns_stream.cpp.
#include "physics/ns_exact.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/error.hpp"
#include "physics/ns_flow.hpp"
#include "physics/ns_stream.hpp"
#include "solvers/collectives.hpp"

namespace scfd::physics {
namespace {

using backend::Field;
using ns::FieldPtr;

// Solves the small symmetric positive semi-definite system a x = b (the capacitance matrix) by
// Gaussian elimination without pivoting; a direction whose pivot vanishes (a 3D generator that
// only carries a circulation, with no flux) gets x = 0: its value does not change the flow.
std::vector<real> solve_capacitance(std::vector<std::vector<real>> a, std::vector<real> b) {
  const std::size_t n = b.size();
  real scale = 0;
  for (std::size_t k = 0; k < n; ++k) scale = std::max(scale, std::abs(a[k][k]));
  std::vector<char> skip(n, 0);
  for (std::size_t k = 0; k < n; ++k) {
    if (!(std::abs(a[k][k]) > 1e-10 * scale)) {
      skip[k] = 1;
      continue;
    }
    for (std::size_t i = k + 1; i < n; ++i) {
      const real f = a[i][k] / a[k][k];
      for (std::size_t j = k; j < n; ++j) a[i][j] -= f * a[k][j];
      b[i] -= f * b[k];
    }
  }
  std::vector<real> x(n, 0);
  for (std::size_t k = n; k-- > 0;) {
    if (skip[k] != 0) continue;
    real s = b[k];
    for (std::size_t j = k + 1; j < n; ++j) s -= a[k][j] * x[j];
    x[k] = s / a[k][k];
  }
  return x;
}

class NsExactModel final : public ns::FlowModel {
 public:
  NsExactModel(const config::Case& c, const topology::Mesh& m, const backend::Backend& be,
               halo::Halo& halo);
  StepReport advance() override;
  std::vector<std::string> field_names() const override {
    std::vector<std::string> names = FlowModel::field_names();
    if (m_.dim == 2) names.push_back("streamfunction");
    return names;
  }
  std::vector<HostField> fields(const std::vector<std::string>& names) const override;
  std::vector<std::string> notes() const override;

 protected:
  void update_pressure() const override;

 private:
  struct StreamSolve {
    int iterations = 0;        // the streamfunction solve
    int basis_iterations = 0;  // the chain bases (only when nu dt changed)
    real residual = 0;
  };
  void set_boundary(double t);
  StreamSolve solve_stream(Field& rhs);
  int update_basis();
  int solve_correction(const Field& lift, const Field* source, Field& x, const char* what);
  halo::HaloPlan& curl_plan() const { return ns::curl_plan(halo_, m_); }

  std::string case_path_;
  ns::StreamState ss_;
  FieldPtr stream_, s0_, s_rhs_, r_rhs_, s_boundary_, zero_faces_;
  std::vector<FieldPtr> chain_, basis_;   // per non-gauge chain: indicator, discrete-harmonic basis
  std::vector<std::vector<real>> cap_;    // chain_j . (R A C basis_k)
  std::vector<std::string> chain_names_;  // the patches of each chain
  double basis_nu_dt_ = -1;               // the nu dt the bases were solved for
  std::unique_ptr<ns::MomentumOperator> momentum_;
  std::unique_ptr<ns::StreamOperator> system_;
  std::unique_ptr<solvers::Pcg> pcg_curl_;
  mutable int pressure_step_ = 0;  // the step whose pressure s_.p holds
  solvers::PcgResult last_solve_;
};

NsExactModel::NsExactModel(const config::Case& c, const topology::Mesh& m,
                           const backend::Backend& be, halo::Halo& halo)
    : FlowModel(c, m, be, halo, "ns-exact"), case_path_(c.path()) {
  const index nk = m.n_curl();
  for (FieldPtr* f :
       {&stream_, &s0_, &s_rhs_, &r_rhs_, &s_boundary_, &ss_.free, &ss_.fixed, &ss_.t, &ss_.w})
    *f = make(nk);
  zero_faces_ = make(m.n_faces);
  be.fill(*zero_faces_, 0);
  // Jacobi diagonals: (R M C)_kk = sum_f M_f and (R M C W R M C)_kk = sum_j W_j (R M C)_jk^2
  // over the entities j sharing a face with k.
  const std::vector<real> mass = download(*s_.mass), weight = download(*s_.weight);
  std::vector<real> dm(static_cast<std::size_t>(nk), 0), dv(dm.size(), 0);
  const int cw = m.curl_width();
  std::vector<std::pair<index, real>> row;
  for (index k = 0; k < m.n_owned_curl(); ++k) {
    row.clear();
    const auto faces = m.curl_faces.row(k);
    const auto signs = m.curl_faces.row_sign(k);
    for (std::size_t i = 0; i < faces.size(); ++i) {
      const index f = faces[i];
      dm[k] += mass[f];
      for (int j = 0; j < cw; ++j) {
        const real v = signs[i] * m.face_curl_sign[cw * f + j] * mass[f];
        const index e = m.face_curl[cw * f + j];
        auto it = std::find_if(row.begin(), row.end(), [&](const auto& p) { return p.first == e; });
        if (it == row.end())
          row.emplace_back(e, v);
        else
          it->second += v;
      }
    }
    for (const auto& [e, v] : row) dv[k] += weight[e] * v * v;
  }
  ss_.diag_mass = be.make_field_from(dm);
  ss_.diag_viscous = be.make_field_from(dv);
  momentum_ = std::make_unique<ns::MomentumOperator>(m, be, halo, s_);
  system_ = std::make_unique<ns::StreamOperator>(m, be, halo, s_, ss_, mass);
  pcg_curl_ = std::make_unique<solvers::Pcg>(be, nk);
  be.fill(*s0_, 0);
  set_boundary(t_);
  // s^0: the M-weighted projection of the initial fluxes onto the fields C s that meet the
  // boundary data, R M C s = R M U_init (the system at nu dt = 0).
  initial_fluxes(*s_.u_star);
  be.multiply(*s_.mass, *s_.u_star, *s_.rhs);
  momentum_->nu_dt = system_->nu_dt = 0;
  solve_stream(*s_.rhs);
}

// Boundary values of s at time t, and on the first call the chain indicators.
void NsExactModel::set_boundary(double t) {
  const ns::BoundaryData b = ns::boundary_data(m_, setup_, t, halo_);
  const ns::StreamBoundary sb = ns::stream_boundary(m_, setup_, b.flux, case_path_);
  be_.upload(sb.value, *s_boundary_);
  be_.upload(sb.fixed, *ss_.fixed);
  std::vector<real> free(sb.fixed.size());
  for (std::size_t i = 0; i < free.size(); ++i) free[i] = 1 - sb.fixed[i];
  be_.upload(free, *ss_.free);
  if (!chain_.empty() || sb.chains.empty()) return;
  for (const std::vector<real>& c : sb.chains) {
    chain_.push_back(be_.make_field_from(c));
    basis_.push_back(be_.make_field_from(c));
  }
  cap_.assign(chain_.size(), std::vector<real>(chain_.size(), 0));
  chain_names_ = sb.chain_patches;
}

// basis_k: s = chain_k on the boundary data, R A C s = 0 on the unknowns; and the capacitance
// matrix cap_jk = chain_j . R A C basis_k (symmetric positive semi-definite). Redone when nu dt
// changes (with time.cfl until dt settles at dt_max). Returns the CG iterations.
int NsExactModel::update_basis() {
  if (chain_.empty() || basis_nu_dt_ == system_->nu_dt) return 0;
  int iterations = 0;
  for (std::size_t k = 0; k < chain_.size(); ++k) {
    be_.axpy(-1, *chain_[k], *basis_[k]);  // the correction to chain_k: zero on the boundary
    iterations += solve_correction(*chain_[k], nullptr, *basis_[k], "streamfunction chain basis");
    be_.axpy(1, *chain_[k], *basis_[k]);
    curl_plan().exchange(be_, *basis_[k]);
  }
  for (std::size_t k = 0; k < chain_.size(); ++k) {
    system_->full(*basis_[k], *s_rhs_);
    for (std::size_t j = 0; j < chain_.size(); ++j)
      cap_[j][k] = solvers::global_sum(be_.dot(*chain_[j], *s_rhs_, m_.n_owned_curl()));
  }
  basis_nu_dt_ = system_->nu_dt;
  return iterations;
}

// Solves free .* (R A C (lift + x)) = free .* source for x, zero on the boundary-data entities
// (x holds the initial guess, its boundary entries are zeroed; no source: 0); `lift` (with its
// ghosts) holds the boundary data. Uses s_rhs_. Returns the CG iterations; throws SolveError.
int NsExactModel::solve_correction(const Field& lift, const Field* source, Field& x,
                                   const char* what) {
  system_->full(lift, *s_rhs_);
  if (source != nullptr)
    be_.xpay(*source, -1, *s_rhs_);
  else
    be_.axpy(-2, *s_rhs_, *s_rhs_);           // s_rhs_ = -s_rhs_
  be_.multiply(*ss_.free, *s_rhs_, *s_rhs_);  // b = free .* (source - R A C lift)
  be_.multiply(*ss_.free, x, x);
  last_solve_ = pcg_curl_->solve(*system_, *s_rhs_, x, momentum_options_);
  if (!last_solve_.converged())
    throw SolveError(fmt::format("step {}: {}: {}", step_ + 1, what, last_solve_.message));
  return last_solve_.iterations;
}

// s with R A C s = R rhs on the unknowns, s = boundary data + sum_k c_k chain_k on the boundary,
// the c_k from chain_j . (R A C s - R rhs) = 0; then U = C s (with ghosts). rhs: face equation.
NsExactModel::StreamSolve NsExactModel::solve_stream(Field& rhs) {
  StreamSolve out;
  halo_.faces.exchange(be_, rhs);
  be_.rotation(m_, rhs, *r_rhs_);
  // s = s_boundary + the correction s0 (kept as the next step's initial guess).
  out.iterations = solve_correction(*s_boundary_, r_rhs_.get(), *s0_, "streamfunction");
  out.residual = last_solve_.relative_residual;
  be_.copy(*s_boundary_, *stream_);
  be_.axpy(1, *s0_, *stream_);
  curl_plan().exchange(be_, *stream_);
  if (!chain_.empty()) {
    out.basis_iterations = update_basis();
    system_->full(*stream_, *s_rhs_);
    be_.xpay(*r_rhs_, -1, *s_rhs_);  // R rhs - R A C s
    std::vector<real> g(chain_.size());
    for (std::size_t j = 0; j < chain_.size(); ++j)
      g[j] = solvers::global_sum(be_.dot(*chain_[j], *s_rhs_, m_.n_owned_curl()));
    const std::vector<real> c = solve_capacitance(cap_, g);
    for (std::size_t k = 0; k < chain_.size(); ++k) be_.axpy(c[k], *basis_[k], *stream_);
  }
  be_.curl(m_, *stream_, *s_.u);
  halo_.faces.exchange(be_, *s_.u);
  return out;
}

StepReport NsExactModel::advance() {
  SCFD_CHECK(step_ < total_steps(), "advance past the last step");
  const double dt = choose_dt();
  if (setup_.bc_depends_on_position) {
    upload_boundary(t_ + dt);
    set_boundary(t_ + dt);
  }
  momentum_->nu_dt = system_->nu_dt = setup_.viscosity * dt;
  // The face equation without the pressure: M U^n + dt (AB2 convection) - dt G_b p_b (outlet
  // pressures) - nu dt M C W B (wall circulation). R removes the interior pressure gradient.
  explicit_part(dt, *s_.rhs);
  if (setup_.has_outlet) {
    be_.fill(*s_.cell_a, 0);
    be_.gradient(m_, *s_.cell_a, *s_.bc_pressure, *s_.face_b);
    be_.axpy(-dt, *s_.face_b, *s_.rhs);
  }
  momentum_->viscous(*zero_faces_, *s_.face_b, s_.bc_circulation.get());
  be_.axpy(-momentum_->nu_dt, *s_.face_b, *s_.rhs);
  const StreamSolve r = solve_stream(*s_.rhs);
  finish_step(dt);
  StepReport rep{step_, t_, r.iterations + r.basis_iterations, r.residual, {}};
  rep.detail = fmt::format("dt {:.3e}  CFL {:.3f}  max|DU| {:.2e}  CG s {:>4}", dt, last_cfl_,
                           last_div_, r.iterations);
  if (r.basis_iterations > 0) rep.detail += fmt::format(" chains {}", r.basis_iterations);
  return rep;
}

// The pressure of the last step from its momentum residual: rhs - A U = dt G0 p on the faces
// whose flux is not data, so (-D A~^-1 G0) p = -D A~^-1 (rhs - A U) / dt (one Poisson solve).
void NsExactModel::update_pressure() const {
  if (pressure_step_ == step_) return;
  pressure_step_ = step_;
  momentum_->viscous(*s_.u, *s_.face_b);
  be_.multiply(*s_.mass, *s_.u, *s_.face_a);
  be_.axpy(momentum_->nu_dt, *s_.face_b, *s_.face_a);
  be_.xpay(*s_.rhs, -1, *s_.face_a);
  be_.multiply(*s_.mobility, *s_.face_a, *s_.face_a);
  be_.fill(*s_.face_b, 0);
  be_.axpy(1 / dt_, *s_.face_a, *s_.face_b);
  halo_.faces.exchange(be_, *s_.face_b);
  const solvers::PcgResult r = solve_pressure(*s_.face_b, *s_.p);
  if (!r.converged()) throw SolveError(fmt::format("step {}: pressure: {}", step_, r.message));
}

std::vector<std::string> NsExactModel::notes() const {
  if (chain_.empty()) return {};
  std::string list;
  for (std::size_t k = 0; k < chain_names_.size(); ++k)
    list += fmt::format("{}[{}]", k == 0 ? "" : ", ", chain_names_[k]);
  return {fmt::format(
      "ns-exact: the streamfunction values of {} boundary chain(s) (2D: an inner boundary or a "
      "wall between outlets; 3D: a generator of the boundary surface) are solved for: {}",
      chain_.size(), list)};
}

std::vector<HostField> NsExactModel::fields(const std::vector<std::string>& names) const {
  std::vector<HostField> out = FlowModel::fields(names);
  const bool want =
      names.empty() || std::find(names.begin(), names.end(), "streamfunction") != names.end();
  if (want && m_.dim == 2) out.push_back({"streamfunction", 1, false, download(*stream_)});
  return out;
}

}  // namespace

std::unique_ptr<Model> make_ns_exact_model(const config::Case& c, const topology::Mesh& mesh,
                                           const backend::Backend& backend, halo::Halo& halo) {
  return std::make_unique<NsExactModel>(c, mesh, backend, halo);
}

}  // namespace scfd::physics
