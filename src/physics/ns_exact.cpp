// ns-exact time stepping (see ns_exact.hpp; the method and its boundary conditions are derived
// in docs/methods.md, "Exact fractional step"). The shared state, convection and output are in
// ns_flow.cpp; the streamfunction system in ns_stream_operator.cpp; the boundary values of the
// streamfunction in ns_stream.cpp.
#include "physics/ns_exact.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "physics/ns_flow.hpp"
#include "physics/ns_stream.hpp"
#include "physics/ns_stream_operator.hpp"
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
  std::vector<HostField> fields(const std::vector<std::string>& names) override;
  std::vector<std::string> notes() const override;
  const Field& pressure() override;
  bool pressure_costs_a_solve() const override { return true; }
  void keep_state() override;
  void restore_state() override;

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
  ns::MomentumOperator momentum_;
  ns::StreamOperator system_;
  solvers::Pcg pcg_curl_;
  // Curl entities: s; its correction to the boundary data (the next initial guess); scratch;
  // R rhs; the boundary data.
  FieldPtr stream_, s0_, s_rhs_, r_rhs_, s_boundary_;
  FieldPtr rhs_;  // faces: the face equation of the last step (for the pressure recovery)
  FieldPtr face_work_, residual_, zero_faces_, zero_cells_;
  std::vector<FieldPtr> chain_, basis_;   // per non-gauge chain: indicator, discrete-harmonic basis
  std::vector<std::vector<real>> cap_;    // chain_j . (R A C basis_k)
  std::vector<std::string> chain_names_;  // the patches of each chain
  double basis_nu_dt_ = -1;               // the nu dt the bases were solved for
  int pressure_step_ = 0;                 // the step whose pressure p_ holds
  FieldPtr kept_rhs_, kept_stream_;       // keep_state: the face equation and s of that step
  int kept_pressure_step_ = 0;
  solvers::SolveResult last_solve_;
};

NsExactModel::NsExactModel(const config::Case& c, const topology::Mesh& m,
                           const backend::Backend& be, halo::Halo& halo)
    : FlowModel(c, m, be, halo, "ns-exact"),
      case_path_(c.path()),
      momentum_(m, be, halo, *coef_),
      system_(m, be, halo, *coef_, mass_host_, dual_weight()),
      pcg_curl_(be, m.n_curl()) {
  for (FieldPtr* f : {&stream_, &s0_, &s_rhs_, &r_rhs_, &s_boundary_})
    *f = be.make_field(m.n_curl());
  for (FieldPtr* f : {&rhs_, &face_work_, &residual_, &zero_faces_}) *f = be.make_field(m.n_faces);
  zero_cells_ = be.make_field(m.n_cells);
  set_boundary(t_);
  // s^0: the M-weighted projection of the initial fluxes onto the fields C s that meet the
  // boundary data, R M C s = R M U_init (the system at nu dt = 0).
  initial_fluxes(*face_work_);
  be.multiply(*coef_->mass, *face_work_, *rhs_);
  momentum_.nu_dt = system_.nu_dt = 0;
  solve_stream(*rhs_);
}

// Boundary values of s at time t, and on the first call the chain indicators.
void NsExactModel::set_boundary(double t) {
  const ns::BoundaryData b = ns::boundary_data(m_, setup_, t, halo_);
  const ns::StreamBoundary sb = ns::stream_boundary(m_, setup_, b.flux, case_path_);
  be_.upload(sb.value, *s_boundary_);
  system_.set_fixed(sb.fixed);
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
  if (chain_.empty() || basis_nu_dt_ == system_.nu_dt) return 0;
  int iterations = 0;
  for (std::size_t k = 0; k < chain_.size(); ++k) {
    be_.axpy(-1, *chain_[k], *basis_[k]);  // the correction to chain_k: zero on the boundary
    iterations += solve_correction(*chain_[k], nullptr, *basis_[k], "streamfunction chain basis");
    be_.axpy(1, *chain_[k], *basis_[k]);
    curl_plan().exchange(be_, *basis_[k]);
  }
  for (std::size_t k = 0; k < chain_.size(); ++k) {
    system_.full(*basis_[k], *s_rhs_);
    for (std::size_t j = 0; j < chain_.size(); ++j)
      cap_[j][k] = solvers::global_sum(be_.dot(*chain_[j], *s_rhs_, m_.n_owned_curl()));
  }
  basis_nu_dt_ = system_.nu_dt;
  return iterations;
}

// Solves free .* (R A C (lift + x)) = free .* source for x, zero on the boundary-data entities
// (x holds the initial guess, its boundary entries are zeroed; no source: 0); `lift` (with its
// ghosts) holds the boundary data. Uses s_rhs_. Returns the CG iterations; throws SolveError.
int NsExactModel::solve_correction(const Field& lift, const Field* source, Field& x,
                                   const char* what) {
  system_.full(lift, *s_rhs_);
  if (source != nullptr)
    be_.xpay(*source, -1, *s_rhs_);
  else
    be_.scale(-1, *s_rhs_, *s_rhs_);
  be_.multiply(system_.free(), *s_rhs_, *s_rhs_);  // b = free .* (source - R A C lift)
  be_.multiply(system_.free(), x, x);
  last_solve_ = pcg_curl_.solve(system_, *s_rhs_, x, setup_.momentum);
  require_converged(last_solve_, fmt::format("step {}: {}", step_ + 1, what));
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
    system_.full(*stream_, *s_rhs_);
    be_.xpay(*r_rhs_, -1, *s_rhs_);  // R rhs - R A C s
    std::vector<real> g(chain_.size());
    for (std::size_t j = 0; j < chain_.size(); ++j)
      g[j] = solvers::global_sum(be_.dot(*chain_[j], *s_rhs_, m_.n_owned_curl()));
    const std::vector<real> c = solve_capacitance(cap_, g);
    for (std::size_t k = 0; k < chain_.size(); ++k) be_.axpy(c[k], *basis_[k], *stream_);
  }
  be_.curl(m_, *stream_, *u_);
  halo_.faces.exchange(be_, *u_);
  return out;
}

StepReport NsExactModel::advance() {
  SCFD_CHECK(step_ < total_steps(), "advance past the last step");
  const double dt = choose_dt();
  if (setup_.bc_depends_on_position) {
    upload_boundary(t_ + dt);
    set_boundary(t_ + dt);
  }
  momentum_.nu_dt = system_.nu_dt = setup_.viscosity * dt;
  // The face equation without the pressure: M U^n + dt (AB2 convection) - dt G_b p_b (outlet
  // pressures) - nu dt M C W B (wall circulation). R removes the interior pressure gradient.
  explicit_part(dt, *rhs_);
  if (setup_.has_outlet) {
    be_.gradient(m_, *zero_cells_, *coef_->bc_pressure, *face_work_);
    be_.axpy(-dt, *face_work_, *rhs_);
  }
  momentum_.viscous(*zero_faces_, *face_work_, coef_->bc_circulation.get());
  be_.axpy(-momentum_.nu_dt, *face_work_, *rhs_);
  const StreamSolve r = solve_stream(*rhs_);
  finish_step(dt);
  StepReport rep{step_, t_, r.iterations + r.basis_iterations, r.residual, {}};
  rep.detail = fmt::format("dt {:.3e}  CFL {:.3f}  max|DU| {:.2e}  CG s {:>4}", dt, last_cfl_,
                           last_div_, r.iterations);
  if (r.basis_iterations > 0) rep.detail += fmt::format(" chains {}", r.basis_iterations);
  return rep;
}

// The pressure of the last step from its momentum residual: rhs - A U = dt G0 p on the faces
// whose flux is not data, so (-D A~^-1 G0) p = -D A~^-1 (rhs - A U) / dt (one Poisson solve).
const Field& NsExactModel::pressure() {
  if (pressure_step_ == step_) return *p_;
  momentum_.viscous(*u_, *face_work_);
  be_.multiply(*coef_->mass, *u_, *residual_);
  be_.axpy(momentum_.nu_dt, *face_work_, *residual_);
  be_.xpay(*rhs_, -1, *residual_);
  be_.multiply(*coef_->mobility, *residual_, *residual_);
  be_.scale(1 / last_dt_, *residual_, *residual_);
  halo_.faces.exchange(be_, *residual_);
  const solvers::SolveResult r = pressure_solve_->solve(*residual_, *p_);
  require_converged(r, fmt::format("step {}: pressure", step_));
  pressure_step_ = step_;
  return *p_;
}

// The pressure recovery of the kept step needs its face equation and its nu dt.
void NsExactModel::keep_state() {
  FlowModel::keep_state();
  if (!kept_rhs_) {
    kept_rhs_ = be_.make_field(m_.n_faces);
    kept_stream_ = be_.make_field(m_.n_curl());
  }
  be_.copy(*rhs_, *kept_rhs_);
  be_.copy(*stream_, *kept_stream_);
  kept_pressure_step_ = pressure_step_;
}

void NsExactModel::restore_state() {
  FlowModel::restore_state();
  be_.copy(*kept_rhs_, *rhs_);
  be_.copy(*kept_stream_, *stream_);
  pressure_step_ = kept_pressure_step_;
  momentum_.nu_dt = system_.nu_dt = setup_.viscosity * last_dt_;
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

std::vector<HostField> NsExactModel::fields(const std::vector<std::string>& names) {
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
