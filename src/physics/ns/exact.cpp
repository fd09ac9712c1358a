// ns-exact time stepping (see ns/exact.hpp; the method and its boundary conditions are derived
// in docs/methods.md, "Exact fractional step"). The shared state, convection and output are in
// ns/flow.cpp; the streamfunction system in ns/stream_operator.cpp; the boundary values of the
// streamfunction in ns/stream.cpp.
#include "physics/ns/exact.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/collectives.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "core/timer.hpp"
#include "halo/overlap.hpp"
#include "physics/ns/flow.hpp"
#include "physics/ns/stream.hpp"
#include "physics/ns/stream_operator.hpp"
#include "solvers/krylov.hpp"
#include "solvers/residual_projection.hpp"

namespace scfd::physics {
namespace {

using backend::Field;
using ns::FieldPtr;

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
  std::vector<std::pair<std::string, int>> take_other_solves() override {
    return std::exchange(recoveries_, {});
  }
  ModelState state() override;
  void state_loaded() override;

 private:
  void set_boundary(double t);
  // step: a time step's (not the initial projection's), whose solution the next guess keeps.
  solvers::SolveResult solve_stream(Field& rhs, bool step);
  halo::HaloPlan& curl_plan() const { return ns::curl_plan(halo_, m_); }

  std::string case_path_;
  ns::MomentumOperator momentum_;
  ns::StreamOperator system_;
  std::unique_ptr<solvers::KrylovSolver> solver_;  // solver.stream_solver
  // Curl entities: s; its correction to the boundary data (the next initial guess); scratch;
  // R rhs; the boundary data.
  FieldPtr stream_, s0_, s_rhs_, r_rhs_, s_boundary_;
  // x of the two steps before s0_'s (the extrapolated initial guess)
  ns::SolutionHistory stream_history_;
  // The correction of that guess while the flow starts or changes fast (solver.stream_projection
  // > 0; null: the extrapolation alone throughout)
  std::unique_ptr<solvers::ResidualProjection> stream_projection_;
  int kept_capacity_ = 0;  // its capacity, also in the checkpoint (a restart with another forgets)
  FieldPtr rhs_;           // faces: the face equation of the last step (for the pressure recovery)
  FieldPtr face_work_, residual_, zero_faces_, zero_cells_;
  // The recovery's initial guess (solver.pressure_projection > 0; null: the last pressure)
  std::unique_ptr<solvers::SolutionProjection> recovery_projection_;
  std::vector<std::string> chain_names_;                 // the patches of each non-gauge chain
  int pressure_step_ = 0;                                // the step whose pressure flow_.p holds
  std::vector<std::pair<std::string, int>> recoveries_;  // take_other_solves
};

NsExactModel::NsExactModel(const config::Case& c, const topology::Mesh& m,
                           const backend::Backend& be, halo::Halo& halo)
    : FlowModel(c, m, be, halo, "ns-exact"),
      case_path_(c.path()),
      momentum_(m, be, halo, *flow_.coef, setup_.upwind),
      system_(m, be, halo, *flow_.coef, flow_.face_diagonal, flow_.edge_diagonal, setup_.upwind),
      solver_(solvers::make_krylov_solver(setup_.stream_solver, be, m.n_curl())),
      stream_history_(be, m.n_curl(), 1) {
  momentum_.advecting = system_.advecting = &advecting();
  for (FieldPtr* f : {&stream_, &s0_, &s_rhs_, &r_rhs_, &s_boundary_})
    *f = be.make_field(m.n_curl());
  for (FieldPtr* f : {&rhs_, &face_work_, &residual_, &zero_faces_}) *f = be.make_field(m.n_faces);
  zero_cells_ = be.make_field(m.n_cells);
  if (setup_.pressure_projection > 0)
    recovery_projection_ = std::make_unique<solvers::SolutionProjection>(
        be, m.n_cells, m.n_owned_cells, setup_.pressure_projection);
  // Worth correcting while the solve has more than three orders of magnitude left to reduce
  // (below, on DFG 2D-1, corrected guesses took more iterations, not fewer: docs/methods.md).
  if (setup_.stream_projection > 0)
    stream_projection_ = std::make_unique<solvers::ResidualProjection>(
        be, m.n_curl(), m.n_owned_curl(), setup_.stream_projection,
        1e3 * setup_.momentum.relative_tolerance);
  kept_capacity_ = setup_.stream_projection;
  if (setup_.stream_preconditioner == "amg") system_.use_multigrid();
  set_boundary(flow_.t);
  // s^0: the M-weighted projection of the initial fluxes onto the fields C s that meet the
  // boundary data, R M C s = R M U_init (the system at nu dt = 0). In 3D, where M_RT is not the
  // projection's diagonal A~, the initial fluxes are first projected as ns-classical projects
  // them (then C s = that field): both models start from the same divergence-free field.
  initial_fluxes(*face_work_);
  if (m.dim == 3) {
    const solvers::SolveResult r = project(*face_work_, *zero_cells_, *residual_);
    require_converged(r, "initial projection");
    be.copy(*residual_, *face_work_);
    be.fill(*zero_cells_, 0);
  }
  flow_.coef->face_star.apply(*face_work_, *rhs_);
  momentum_.nu_dt = system_.nu_dt = 0;
  solve_stream(*rhs_, false);
}

// Boundary values of s at time t, and on the first call the chains whose values are unknowns.
void NsExactModel::set_boundary(double t) {
  const ns::BoundaryData b = ns::boundary_data(m_, setup_, t, halo_);
  const ns::StreamBoundary sb = ns::stream_boundary(m_, setup_, b.flux, case_path_);
  be_.upload(sb.value, *s_boundary_);
  system_.set_fixed(sb.fixed);
  if (!chain_names_.empty() || sb.chains.empty()) return;
  system_.set_chains(sb.chains);
  chain_names_ = sb.chain_patches;
}

// s = boundary data + x, x in the unknown space (free entities and chains), with
// P (R A C s - R rhs) = 0: the face equation holds up to an interior pressure gradient, whose
// single-valuedness around each chain is the chain's equation. Then U = C s (with ghosts).
// rhs: the face equation; x (s0_) is kept as the next step's initial guess.
solvers::SolveResult NsExactModel::solve_stream(Field& rhs, bool step) {
  halo::overlap(halo_.faces, be_, rhs,
                [&](backend::Rows rows) { be_.rotation(m_, rhs, *r_rhs_, rows); });
  system_.full(*s_boundary_, *s_rhs_);
  be_.xpay(*r_rhs_, -1, *s_rhs_);  // R rhs - R A C s_boundary
  system_.project(*s_rhs_);
  // While the flow starts or changes fast, the extrapolated guess is corrected by the
  // combination of the kept solutions of least residual (solvers/residual_projection.hpp).
  if (step && stream_projection_)
    stream_projection_->guess(*s_rhs_, stream_history_.weights(), *s0_);
  system_.project(*s0_);
  const solvers::SolveResult r =
      solver_->solve(system_, *s_rhs_, *s0_, setup_.momentum, system_.preconditioner());
  require_converged(r, fmt::format("step {}: streamfunction", flow_.step + 1));
  system_.project(*s0_);
  if (step && stream_projection_) {
    const bool retired = stream_projection_->retired();
    stream_projection_->solved(system_, *s0_, r.iterations);
    if (!retired && stream_projection_->retired())
      log::info(
          "step {}: the stream guess's corrections did not pay on this flow (two corrected solves "
          "took as many iterations as the last uncorrected one): the extrapolation alone from "
          "here on",
          flow_.step + 1);
  }
  be_.copy(*s_boundary_, *stream_);
  be_.axpy(1, *s0_, *stream_);
  halo::overlap(curl_plan(), be_, *stream_,
                [&](backend::Rows rows) { be_.curl(m_, *stream_, *flow_.u, rows); });
  halo_.faces.exchange(be_, *flow_.u);
  return r;
}

StepReport NsExactModel::advance() {
  SCFD_CHECK(flow_.step < total_steps(), "advance past the last step");
  const double dt = choose_dt();
  if (setup_.bc_depends_on_time) {
    upload_boundary(flow_.t + dt);
    set_boundary(flow_.t + dt);
  }
  momentum_.nu_dt = system_.nu_dt = setup_.viscosity * dt;
  momentum_.convection_dt = system_.convection_dt = dt / 2;
  // The face equation without the pressure: M U^n - dt/2 C(a) U^n - dt D(a) (convection) - dt G_b
  // p_b (outlet pressures) - nu dt M C W B (wall circulation). R removes the interior pressure
  // gradient; the stream system holds the implicit terms of the boundary data too.
  convection_rhs(dt, *rhs_);
  if (setup_.has_outlet) {
    be_.gradient(m_, *zero_cells_, *flow_.coef->bc_pressure, *face_work_);
    be_.axpy(-dt, *face_work_, *rhs_);
  }
  momentum_.viscous(*zero_faces_, *face_work_, flow_.coef->bc_circulation.get());
  be_.axpy(-momentum_.nu_dt, *face_work_, *rhs_);
  // The initial guess: the quadratic extrapolation through the last three steps' x at their times
  // (3 x^n - 3 x^(n-1) + x^(n-2) for equal steps) once three are known; before, x^n + r (x^n -
  // x^(n-1)), r = dt / dt_prev (x^n on the first step). Linear: 14 % fewer iterations than x^n
  // on DFG 2D-1 level 2; quadratic: cavity-box 24^3, 40 steps on the cpu, 724 -> 624 (docs/
  // methods.md). s_rhs_ is scratch until the solve.
  const double ratio = flow_.last_dt > 0 ? dt / flow_.last_dt : 0;
  be_.copy(*s0_, *s_rhs_);
  stream_history_.next_guess(*s_rhs_, ratio, *s0_);
  // The kept images were taken with the last steps' dt in the operator: a step that changes dt
  // by more than half (the last step of a run, cut to its end time) makes them stale.
  if (stream_projection_ && !(ratio >= 0.5 && ratio <= 2)) stream_projection_->clear();
  be_.finish();
  const Timer stream_timer;
  const solvers::SolveResult r = solve_stream(*rhs_, true);
  be_.finish();
  const double stream_seconds = stream_timer.seconds();
  finish_step(dt);
  StepReport rep{
      flow_.step, flow_.t, r.iterations, r.relative_residual, {}, {}, {{"stream", r.iterations}}};
  rep.detail = fmt::format("dt {:.3e}  Co {:.3f}  CFL {:.3f}  max|DU| {:.2e}  change {:.1e}", dt,
                           flow_.last_courant, flow_.last_cfl, flow_.last_div, flow_.last_change);
  rep.seconds = {{"solve_stream", stream_seconds}};
  return rep;
}

// The pressure of the last step from its momentum residual: rhs - A U = dt G0 p on the faces
// whose flux is not data, so (-D A~^-1 G0) p = -D A~^-1 (rhs - A U) / dt (one Poisson solve).
// Solved to ns-classical's accuracy: its projection for dt p stops at a residual of tolerance
// |U*|, so this one for p at tolerance |U| / dt (not tolerance |A~^-1 G0 p|, a far smaller
// scale that took twice the iterations for digits the forces do not show).
const Field& NsExactModel::pressure() {
  if (pressure_step_ == flow_.step) return *flow_.p;
  momentum_.viscous(*flow_.u, *face_work_);
  flow_.coef->face_star.apply(*flow_.u, *residual_);
  be_.axpy(momentum_.nu_dt, *face_work_, *residual_);
  momentum_.convect(*flow_.u, *face_work_);
  be_.axpy(momentum_.convection_dt, *face_work_, *residual_);
  be_.xpay(*rhs_, -1, *residual_);
  be_.multiply(*flow_.coef->mobility, *residual_, *residual_);
  be_.scale(1 / flow_.last_dt, *residual_, *residual_);
  halo_.faces.exchange(be_, *residual_);
  const real u_norm = std::sqrt(global_sum(be_.dot(*flow_.u, *flow_.u, m_.n_owned_faces)));
  // p starts from its projection onto the span of the earlier recoveries' pressures
  // (solvers/projection.hpp; the last pressure while that is empty): DFG 2D-1 level 3, 100
  // steps with the forces every step on the cpu, 473 recovery iterations against 915 from the
  // quadratic extrapolation of the last three (docs/methods.md, "Pressure on request").
  const solvers::SolveResult r = flow_.pressure_solve->solve(
      *residual_, *flow_.p, u_norm / flow_.last_dt, recovery_projection_.get());
  halo_.cells.exchange(be_, *flow_.p);  // the pressure's ghosts, for the output
  require_converged(r, fmt::format("step {}: pressure", flow_.step));
  recoveries_.emplace_back("pressure", r.iterations);
  pressure_step_ = flow_.step;
  return *flow_.p;
}

// s, its unknown part (the next initial guess, chain values included) and the two steps' before
// with their count, the face equation of the last step (the pressure recovery), which step p
// holds and the recovery's projection (its initial guess).
ModelState NsExactModel::state() {
  ModelState s = FlowModel::state();
  const halo::Entity curl = m_.dim == 3 ? halo::Entity::edge : halo::Entity::node;
  s.fields.push_back({"streamfunction", curl, stream_.get()});
  s.fields.push_back({"streamfunction_unknowns", curl, s0_.get()});
  s.fields.push_back({"streamfunction_unknowns_previous", curl, &stream_history_.previous(),
                      "streamfunction_unknowns"});
  s.fields.push_back({"streamfunction_unknowns_before_previous", curl,
                      &stream_history_.before_previous(), "streamfunction_unknowns"});
  s.fields.push_back({"face_equation", halo::Entity::face, rhs_.get()});
  s.values.push_back({"pressure_step", &pressure_step_});
  if (recovery_projection_)  // absent from an earlier release's checkpoint: an empty basis
    ns::add_projection_state(s, *recovery_projection_, "pressure");
  // an earlier release's checkpoint: x^n and x^(n-1) (x^n where it lacks that too)
  s.values.push_back({"streamfunction_history", &stream_history_.known(), 2.0});
  s.values.push_back({"streamfunction_history_ratio", &stream_history_.ratio(), 1.0});
  if (stream_projection_) {  // an earlier release's checkpoint (or another capacity): none kept
    solvers::ResidualProjection& p = *stream_projection_;
    for (int k = 0; k < p.capacity(); ++k) {
      s.fields.push_back({fmt::format("streamfunction_kept_{}", k), curl, &p.solution(k),
                          "streamfunction_unknowns"});
      s.fields.push_back({fmt::format("streamfunction_kept_image_{}", k), curl, &p.image(k),
                          "streamfunction_unknowns"});
    }
    s.values.push_back({"streamfunction_kept", &p.size(), 0.0});
    s.values.push_back({"streamfunction_kept_newest", &p.newest(), 0.0});
    s.values.push_back({"streamfunction_kept_active", &p.active(), 0.0});
    s.values.push_back({"streamfunction_kept_declined", &p.declined(), 0.0});
    s.values.push_back({"streamfunction_uncorrected_iterations", &p.uncorrected_iterations(), 0.0});
    s.values.push_back({"streamfunction_corrections_failed", &p.failed(), 0.0});
    s.values.push_back({"streamfunction_corrections_retired", &p.retired(), 0.0});
    s.values.push_back({"streamfunction_kept_capacity", &kept_capacity_, 0.0});
  }
  return s;
}

void NsExactModel::state_loaded() {
  FlowModel::state_loaded();
  if (setup_.bc_depends_on_time) set_boundary(flow_.t);
  momentum_.nu_dt = system_.nu_dt = setup_.viscosity * flow_.last_dt;
  momentum_.convection_dt = system_.convection_dt = flow_.last_dt / 2;
  if (stream_projection_ && kept_capacity_ != stream_projection_->capacity()) {
    stream_projection_->clear();  // kept in other slots, or not at all: start from none
    kept_capacity_ = stream_projection_->capacity();
  }
}

std::vector<std::string> NsExactModel::notes() const {
  if (chain_names_.empty()) return {};
  std::string list;
  for (std::size_t k = 0; k < chain_names_.size(); ++k)
    list += fmt::format("{}[{}]", k == 0 ? "" : ", ", chain_names_[k]);
  return {fmt::format(
      "ns-exact: the streamfunction values of {} boundary chain(s) (2D: an inner boundary or a "
      "wall between outlets; 3D: a generator of the boundary surface) are solved for: {}",
      chain_names_.size(), list)};
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
