// ns-classical time stepping (see ns_classical.hpp; the discretisation is derived in
// docs/methods.md). The shared state, convection, probes and output are in ns_flow.cpp.
#include "physics/ns_classical.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "physics/ns_flow.hpp"

namespace scfd::physics {
namespace {

using backend::Field;
using ns::MomentumOperator;

class NsClassicalModel final : public ns::FlowModel {
 public:
  NsClassicalModel(const config::Case& c, const topology::Mesh& m, const backend::Backend& be,
                   halo::Halo& halo);
  StepReport advance() override;

 private:
  solvers::PcgResult project(const Field& u_star);

  std::unique_ptr<MomentumOperator> momentum_;
  std::unique_ptr<solvers::Pcg> pcg_faces_;
};

NsClassicalModel::NsClassicalModel(const config::Case& c, const topology::Mesh& m,
                                   const backend::Backend& be, halo::Halo& halo)
    : FlowModel(c, m, be, halo, "ns-classical") {
  momentum_ = std::make_unique<MomentumOperator>(m, be, halo, s_);
  pcg_faces_ = std::make_unique<solvers::Pcg>(be, m.n_faces);
  // U^0: the face fluxes of the initial velocity, projected onto D U = 0 so that the first step
  // starts from a discretely divergence-free field.
  initial_fluxes(*s_.u_star);
  const solvers::PcgResult r = project(*s_.u_star);
  if (!r.converged()) throw SolveError("initial projection: " + r.message);
}

// U = U* - A~^-1 G0 psi with (-D A~^-1 G0) psi = -D U*. Leaves psi in s_.psi; U with ghosts.
solvers::PcgResult NsClassicalModel::project(const Field& u_star) {
  const solvers::PcgResult r = solve_pressure(u_star, *s_.psi);
  be_.gradient(m_, *s_.psi, *s_.zero_boundary, *s_.face_a);
  be_.multiply(*s_.mobility, *s_.face_a, *s_.face_a);
  be_.copy(u_star, *s_.u);
  be_.axpy(-1, *s_.face_a, *s_.u);
  halo_.faces.exchange(be_, *s_.u);
  return r;
}

StepReport NsClassicalModel::advance() {
  SCFD_CHECK(step_ < total_steps(), "advance past the last step");
  const double dt = choose_dt();
  if (setup_.bc_depends_on_position) upload_boundary(t_ + dt);
  momentum_->nu_dt = setup_.viscosity * dt;

  explicit_part(dt, *s_.rhs);                            // M U^n + dt (AB2 convection)
  be_.gradient(m_, *s_.p, *s_.bc_pressure, *s_.face_b);  // - dt G p^n
  be_.axpy(-dt, *s_.face_b, *s_.rhs);
  // - nu dt M C W (R M U_fixed + wall circulation): the known part of the viscous term.
  momentum_->viscous(*s_.bc_flux, *s_.face_b, s_.bc_circulation.get());
  be_.axpy(-momentum_->nu_dt, *s_.face_b, *s_.rhs);
  be_.multiply(*s_.free, *s_.rhs, *s_.rhs);
  be_.axpy(1, *s_.bc_flux, *s_.rhs);
  be_.multiply(*s_.free, *s_.u, *s_.u_star);  // initial guess U^n, fixed faces at their data
  be_.axpy(1, *s_.bc_flux, *s_.u_star);

  const solvers::PcgResult rm =
      pcg_faces_->solve(*momentum_, *s_.rhs, *s_.u_star, momentum_options_);
  if (!rm.converged())
    throw SolveError(fmt::format("step {}: momentum: {}", step_ + 1, rm.message));
  halo_.faces.exchange(be_, *s_.u_star);
  const solvers::PcgResult rp = project(*s_.u_star);
  if (!rp.converged())
    throw SolveError(fmt::format("step {}: pressure: {}", step_ + 1, rp.message));
  be_.axpy(1 / dt, *s_.psi, *s_.p);
  halo_.cells.exchange(be_, *s_.p);
  finish_step(dt);
  StepReport rep{step_, t_, rm.iterations + rp.iterations, rp.relative_residual, {}};
  rep.detail = fmt::format("dt {:.3e}  CFL {:.3f}  max|DU| {:.2e}  CG mom {:>3} p {:>4}", dt,
                           last_cfl_, last_div_, rm.iterations, rp.iterations);
  return rep;
}

}  // namespace

std::unique_ptr<Model> make_ns_classical_model(const config::Case& c, const topology::Mesh& mesh,
                                               const backend::Backend& backend, halo::Halo& halo) {
  return std::make_unique<NsClassicalModel>(c, mesh, backend, halo);
}

}  // namespace scfd::physics
