// ns-classical time stepping (see ns/classical.hpp; the discretisation is derived in
// docs/methods.md). The shared state, convection and output are in ns/flow.cpp.
#include "physics/ns/classical.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/error.hpp"
#include "core/timer.hpp"
#include "halo/overlap.hpp"
#include "physics/ns/flow.hpp"
#include "solvers/bicgstab.hpp"

namespace scfd::physics {
namespace {

using backend::Field;
using ns::FieldPtr;

class NsClassicalModel final : public ns::FlowModel {
 public:
  NsClassicalModel(const config::Case& c, const topology::Mesh& m, const backend::Backend& be,
                   halo::Halo& halo);
  StepReport advance() override;
  // The pressure is part of the state: always current.
  const Field& pressure() override { return *flow_.p; }
  bool pressure_costs_a_solve() const override { return false; }
  ModelState state() override {
    ModelState s = FlowModel::state();
    s.fields.push_back({"pressure_increment", halo::Entity::cell, psi_.get()});
    // absent from an earlier release's checkpoint: no momentum solution known
    s.fields.push_back({"momentum_solution", halo::Entity::face, u_star_.get(), "velocity_flux"});
    s.fields.push_back({"momentum_solution_previous", halo::Entity::face,
                        &u_star_history_.previous(), "velocity_flux"});
    s.fields.push_back({"momentum_solution_before_previous", halo::Entity::face,
                        &u_star_history_.before_previous(), "velocity_flux"});
    s.values.push_back({"momentum_solutions", &u_star_history_.known(), 0.0});
    s.values.push_back({"momentum_solutions_ratio", &u_star_history_.ratio(), 1.0});
    if (projection_)  // absent from an earlier release's checkpoint: an empty basis
      ns::add_projection_state(s, *projection_, "pressure_increment");
    return s;
  }

 private:
  solvers::SolveResult project(const Field& u_star,
                               solvers::SolutionProjection* projection = nullptr);

  ns::MomentumOperator momentum_;
  solvers::BiCgStab momentum_solver_;
  // 3D with solver.momentum_preconditioner = cells; null: Jacobi
  std::unique_ptr<ns::FaceBlockPreconditioner> momentum_preconditioner_;
  FieldPtr u_star_, rhs_, face_work_;  // faces
  // the momentum solutions U* of the two steps before u_star_'s (the initial guess); u_star_
  // holds none before the first step
  ns::SolutionHistory u_star_history_;
  FieldPtr psi_;  // cells: the pressure increment times dt
  // The pressure solve's initial guess (solver.pressure_projection > 0; null: the last psi)
  std::unique_ptr<solvers::SolutionProjection> projection_;
};

NsClassicalModel::NsClassicalModel(const config::Case& c, const topology::Mesh& m,
                                   const backend::Backend& be, halo::Halo& halo)
    : FlowModel(c, m, be, halo, "ns-classical"),
      momentum_(m, be, halo, *flow_.coef, setup_.upwind),
      momentum_solver_(be, m.n_faces),
      u_star_(be.make_field(m.n_faces)),
      rhs_(be.make_field(m.n_faces)),
      face_work_(be.make_field(m.n_faces)),
      u_star_history_(be, m.n_faces, 0),
      psi_(be.make_field(m.n_cells)) {
  momentum_.advecting = &advecting();
  if (m.dim == 3 && setup_.momentum_preconditioner == "cells")
    momentum_preconditioner_ = std::make_unique<ns::FaceBlockPreconditioner>(
        m, be, *flow_.coef, flow_.face_diagonal, halo);
  if (setup_.pressure_projection > 0)
    projection_ = std::make_unique<solvers::SolutionProjection>(be, m.n_cells, m.n_owned_cells,
                                                                setup_.pressure_projection);
  // U^0: the face fluxes of the initial velocity, projected onto D U = 0 so that the first step
  // starts from a discretely divergence-free field.
  initial_fluxes(*u_star_);
  const solvers::SolveResult r = project(*u_star_);
  require_converged(r, "initial projection");
}

// U = U* - A~^-1 G0 psi with (-D A~^-1 G0) psi = -D U*. Leaves psi in psi_; U with ghosts.
solvers::SolveResult NsClassicalModel::project(const Field& u_star,
                                               solvers::SolutionProjection* projection) {
  return FlowModel::project(u_star, *psi_, *flow_.u, projection);
}

StepReport NsClassicalModel::advance() {
  SCFD_CHECK(flow_.step < total_steps(), "advance past the last step");
  const double dt = choose_dt();
  if (setup_.bc_depends_on_time) upload_boundary(flow_.t + dt);
  Timer phase;
  momentum_.nu_dt = setup_.viscosity * dt;
  momentum_.convection_dt = dt / 2;

  convection_rhs(dt, *rhs_);  // M U^n - dt/2 C(a) U^n - dt D(a)
  be_.gradient(m_, *flow_.p, *flow_.coef->bc_pressure, *face_work_);  // - dt G p^n
  be_.axpy(-dt, *face_work_, *rhs_);
  // - nu dt M C W (R M U_fixed + wall circulation) - dt/2 C(a) U_fixed (- M U_fixed in 3D): the
  // known part of the implicit terms.
  momentum_.viscous(*flow_.coef->bc_flux, *face_work_, flow_.coef->bc_circulation.get());
  be_.axpy(-momentum_.nu_dt, *face_work_, *rhs_);
  momentum_.convect(*flow_.coef->bc_flux, *face_work_);
  be_.axpy(-momentum_.convection_dt, *face_work_, *rhs_);
  // - M U_fixed: M_RT couples the free faces to the fixed ones
  if (!flow_.coef->diagonal_stars()) {
    flow_.coef->face_star.apply(*flow_.coef->bc_flux, *face_work_);
    be_.axpy(-1, *face_work_, *rhs_);
  }
  be_.multiply(*flow_.coef->free, *rhs_, *rhs_);
  be_.axpy(1, *flow_.coef->bc_flux, *rhs_);
  // The initial guess, fixed faces at their data: the quadratic extrapolation of the last three
  // momentum solutions at their times (3 U*^n - 3 U*^(n-1) + U*^(n-2) for equal steps);
  // U*^n + r (U*^n - U*^(n-1)) with two (r = dt / dt_prev); before, the projected velocities'
  // U^n + r (U^n - U^(n-1)) = 2 a - U^n (U^n on the first step). U* = U^(n+1) + A~^-1 G0 psi
  // carries the pressure increment that U lacks: on cavity-box 32^3, 40 steps on the cpu,
  // 240 -> 204 momentum iterations (docs/methods.md, "The discrete equations").
  if (!u_star_history_.next_guess(*u_star_, dt / flow_.last_dt, *face_work_)) {
    be_.scale(2, advecting(), *face_work_);
    be_.axpy(-1, *flow_.u, *face_work_);
  }
  be_.multiply(*flow_.coef->free, *face_work_, *u_star_);
  be_.axpy(1, *flow_.coef->bc_flux, *u_star_);

  const solvers::SolveResult rm = momentum_solver_.solve(
      momentum_, *rhs_, *u_star_, setup_.momentum, momentum_preconditioner_.get());
  require_converged(rm, fmt::format("step {}: momentum", flow_.step + 1));
  halo_.faces.exchange(be_, *u_star_);
  be_.finish();
  const double momentum_seconds = phase.seconds();
  phase.reset();
  // The pressure solve starts from the projection of its solution onto the earlier steps'
  // (solvers/projection.hpp): cavity-box 32^3, 40 steps on the cpu, 724 -> 397 pressure
  // iterations, 14 -> 4 per step at the end (docs/methods.md).
  const solvers::SolveResult rp = project(*u_star_, projection_.get());
  require_converged(rp, fmt::format("step {}: pressure", flow_.step + 1));
  be_.axpy(1 / dt, *psi_, *flow_.p);
  halo_.cells.exchange(be_, *flow_.p);
  be_.finish();
  const double pressure_seconds = phase.seconds();
  finish_step(dt);
  return {
      .step = flow_.step,
      .time = flow_.t,
      .iterations = rm.iterations + rp.iterations,
      .residual = rp.relative_residual,
      .detail = fmt::format("dt {:.3e}  Co {:.3f}  CFL {:.3f}  max|DU| {:.2e}  change {:.1e}", dt,
                            flow_.last_courant, flow_.last_cfl, flow_.last_div, flow_.last_change),
      .seconds = {{"solve_momentum", momentum_seconds}, {"solve_pressure", pressure_seconds}},
      .solves = {{"momentum", rm.iterations}, {"pressure", rp.iterations}}};
}

}  // namespace

std::unique_ptr<Model> make_ns_classical_model(const config::Case& c, const topology::Mesh& mesh,
                                               const backend::Backend& backend, halo::Halo& halo) {
  return std::make_unique<NsClassicalModel>(c, mesh, backend, halo);
}

}  // namespace scfd::physics
