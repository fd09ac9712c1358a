// Shared part of the ns-classical and ns-exact models (see ns/flow.hpp; the discretisation is
// derived in docs/methods.md). Every array of the state is a backend Field; the host computes
// only the set-up factors and boundary data (ns/setup.cpp, ns/geometry.cpp) and the node
// averages and vorticity of the output (ns/post.cpp) from downloaded fields.
#include "physics/ns/flow.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <future>
#include <optional>

#include "core/collectives.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "core/threads.hpp"
#include "core/timer.hpp"
#include "halo/overlap.hpp"

namespace scfd::physics::ns {

FlowModel::FlowModel(const config::Case& c, const topology::Mesh& m, const backend::Backend& be,
                     halo::Halo& halo, std::string name)
    : m_(m),
      be_(be),
      halo_(halo),
      setup_(read_setup(c, m)),
      shared_(c),
      name_(std::move(name)),
      boundary_nodes_(m, setup_),
      convection_(m, be, halo, setup_.upwind) {
  check_formulas(c, m, setup_, shared_.t);
  // One rank in fp64: the pressure solve's matrix and multigrid hierarchy (host work alone, with
  // its own host threads) on a thread of their own, from as soon as the mobility is known, while
  // this thread makes the rest of the geometry and copies the coefficients to the GPU, whose
  // uploads and driver calls leave most host threads idle (8.2M tets on an H200 node:
  // docs/bench/h200-2026-11-29-overlap). The thread holds its own copy of the mobility; should
  // this thread throw, the future's destructor waits for it.
  std::future<PressureHost> pressure;
  std::function<void(const Geometry&)> start_pressure;
  if (world_size() == 1 && be.precision() == "fp64")
    start_pressure = [&](const Geometry& geometry) {
      const std::optional<solvers::AmgOptions> multigrid =
          setup_.pressure_preconditioner == "amg" ? std::optional(solvers::amg_options(be))
                                                  : std::nullopt;
      pressure = std::async(std::launch::async, [&m, mobility = geometry.mobility, multigrid] {
        const SetupBeside beside;
        return pressure_host(m, mobility, multigrid ? &*multigrid : nullptr);
      });
    };
  Geometry g = build_geometry(m, setup_, halo, start_pressure);
  const auto [fallback_faces, fallback_duals] = global_sum(std::pair<real, real>{
      static_cast<real>(g.fallback_faces), static_cast<real>(g.fallback_duals)});
  if (fallback_faces > 0 && m.dim == 2)
    log::warn(
        "{}: {} faces have a non-positive circumcentre distance (right-angled or "
        "non-Delaunay pairs): their dual length is the centroid distance along the normal; "
        "a Delaunay mesh is more accurate",
        name_, fallback_faces);
  if (fallback_duals > 0)
    log::warn(
        "{}: {} nodes have a small or negative circumcentric dual area: the median "
        "dual is used there",
        name_, fallback_duals);
  shared_.coef = std::make_unique<Coefficients>(be, m, g);
  shared_.face_diagonal = std::move(g.face_star.diagonal);
  shared_.edge_diagonal = std::move(g.edge_star.diagonal);
  wall_star_ = std::move(g.edge_wall);
  shared_.u = be.make_field(m.n_faces);
  shared_.p = be.make_field(m.n_cells);
  u_old_ = be.make_field(m.n_faces);
  advecting_ = be.make_field(m.n_faces);
  convected_ = be.make_field(m.n_faces);
  face_tmp_ = be.make_field(m.n_faces);
  cell_tmp_ = be.make_field(m.n_cells);
  cell_velocity_ = be.make_field(3 * m.n_cells);
  circulation_ = be.make_field(m.n_curl());
  vorticity_ = be.make_field(m.n_curl());
  const BoundaryData b = boundary_data(m, setup_, shared_.t, halo, &wall_star_);
  check_balance(c, b);
  shared_.coef->set_boundary(be, b);
  try {  // the multigrid's set-up can find the mesh too stretched: name the key that chose it
    shared_.pressure_solve =
        pressure.valid()
            ? std::make_unique<PressureSolve>(m, be, halo, *shared_.coef, setup_.has_outlet,
                                              setup_.pressure, setup_.pressure_preconditioner,
                                              pressure.get())
            : std::make_unique<PressureSolve>(m, be, halo, *shared_.coef, setup_.has_outlet,
                                              setup_.pressure, setup_.pressure_preconditioner);
  } catch (const InputError& e) {
    c.fail("solver.preconditioner", e.what());
  }
}

std::vector<real> FlowModel::download(const Field& f) const {
  std::vector<real> h(static_cast<std::size_t>(f.size()));
  be_.download(f, h);
  return h;
}

void FlowModel::upload_boundary(double t) {
  shared_.coef->set_boundary(be_, boundary_data(m_, setup_, t, halo_, &wall_star_));
}

solvers::SolveResult FlowModel::project(const Field& u_star, Field& psi, Field& u,
                                        solvers::SolutionProjection* projection) {
  const solvers::SolveResult r = shared_.pressure_solve->solve(u_star, psi, 0, projection);
  halo::overlap(halo_.cells, be_, psi, [&](backend::Rows rows) {
    be_.gradient(m_, psi, *shared_.coef->zero_boundary, *face_tmp_, rows);
  });
  be_.multiply(*shared_.coef->mobility, *face_tmp_, *face_tmp_);
  be_.copy(u_star, u);
  be_.axpy(-1, *face_tmp_, u);
  halo_.faces.exchange(be_, u);
  return r;
}

void FlowModel::check_balance(const config::Case& c, const BoundaryData& b) const {
  if (setup_.has_outlet) return;
  const real net = global_sum(b.net_inflow);
  const real scale = global_sum(b.flux_scale);
  // Quadrature of smooth boundary formulas leaves a small imbalance (removed in the projection);
  // more than 1e-6 of the boundary flux is a set-up error.
  if (std::abs(net) > 1e-6 * scale && std::abs(net) > 1e-14)
    throw input_error(
        "{}: boundary: every patch prescribes the normal velocity but the net inflow is {:.6g} "
        "(sum of |flux| {:.6g}); an incompressible flow needs it to be 0: balance the velocity "
        "boundaries or make one patch type = \"outlet\"",
        c.path(), net, scale);
}

double FlowModel::choose_dt() {
  if (!shared_.time.cfl_controlled())
    return shared_.time.next(shared_.step, shared_.t, 0, shared_.last_dt);
  if (shared_.step == 0)
    shared_.rate = courant_rate();  // later: measured by finish_step on the same U
  return shared_.time.next(shared_.step, shared_.t, shared_.rate, shared_.last_dt);
}

real FlowModel::courant_rate() {
  be_.flux_sum_abs(m_, *shared_.u, *cell_tmp_);
  be_.multiply(*shared_.coef->courant_weight, *cell_tmp_, *cell_tmp_);
  return global_max(be_.max_abs(*cell_tmp_, m_.n_owned_cells));
}

void FlowModel::initial_fluxes(Field& u) const {
  std::vector<real> h(static_cast<std::size_t>(m_.n_faces));
  parallel_for(m_.n_faces, [&](index first, index end) {
    for (index f = first; f < end; ++f) h[f] = face_flux(m_, f, setup_.initial, shared_.t);
  });
  be_.upload(h, u);
  be_.multiply(*shared_.coef->free, u, u);
  be_.axpy(1, *shared_.coef->bc_flux, u);
}

void FlowModel::convection_rhs(double dt, Field& y) {
  const real r = shared_.last_dt > 0 ? dt / shared_.last_dt : 0;
  be_.copy(*shared_.u, *advecting_);
  if (r > 0) {  // a = (1 + r/2) U^n - (r/2) U^(n-1)
    be_.scale(1 + r / 2, *advecting_, *advecting_);
    be_.axpy(-r / 2, *u_old_, *advecting_);
  }
  be_.copy(*shared_.u, *u_old_);
  shared_.coef->face_star.apply(*shared_.u, y);
  convection_.apply(*advecting_, *shared_.u, *shared_.coef->bc_velocity, *convected_);  // C U^n + D
  be_.axpy(-dt / 2, *convected_, y);
  convection_.boundary_part(*advecting_, *shared_.coef->bc_velocity, *convected_);  // D
  be_.axpy(-dt / 2, *convected_, y);
}

void FlowModel::finish_step(double dt) {
  shared_.last_dt = dt;
  shared_.t += dt;
  ++shared_.step;
  shared_.rate = courant_rate();
  shared_.last_courant = dt * shared_.rate;
  be_.multiply(*shared_.coef->cfl_weight, *shared_.u, *face_tmp_);
  shared_.last_cfl = dt * global_max(be_.max_abs(*face_tmp_, m_.n_owned_faces));
  be_.divergence(m_, *shared_.u, *cell_tmp_);
  shared_.last_div = global_max(be_.max_abs(*cell_tmp_, m_.n_owned_cells));
  measure_change(dt);
  if (!std::isfinite(shared_.last_courant) || !std::isfinite(shared_.last_div))
    throw SolveError(fmt::format("step {}: the velocity is not finite (Courant number {})",
                                 shared_.step, shared_.last_courant));
  if (shared_.last_courant > shared_.time.max_cfl())
    throw SolveError(fmt::format(
        "step {}: the Courant number {:.3g} is above time.max_cfl = {:g}: the run is diverging; "
        "lower time.dt, or use time.cfl",
        shared_.step, shared_.last_courant, shared_.time.max_cfl()));
  shared_.max_div = std::max(shared_.max_div, shared_.last_div);
}

// The relative change in the kinetic-energy norm |x|^2 = x^T M x.
void FlowModel::measure_change(double dt) {
  const index n = m_.n_owned_faces;
  shared_.coef->face_star.apply(*shared_.u, *face_tmp_);
  const real size = be_.dot(*shared_.u, *face_tmp_, n);
  be_.copy(*shared_.u, *face_tmp_);
  be_.axpy(-1, *u_old_, *face_tmp_);  // U^(n+1) - U^n, with ghosts
  shared_.coef->face_star.apply(*face_tmp_, *convected_);
  const real change = be_.dot(*face_tmp_, *convected_, n);
  const auto [change_all, size_all] = global_sum(std::pair<real, real>{change, size});
  shared_.last_change = size_all > 0 ? std::sqrt(change_all / size_all) / dt : 0;
  // A solve to relative tolerance tol leaves an error of about tol |U| in a step, so the change
  // per unit time cannot settle much below tol / dt (cavity2d, both tolerances 1e-6, dt 0.017:
  // it levels out at 3e-5). A steady tolerance near that ends the run on noise, or never.
  const double noise =
      std::max(setup_.momentum.relative_tolerance, setup_.pressure.relative_tolerance) / dt;
  if (shared_.time.steady_tolerance() > 0 && shared_.time.steady_tolerance() < 10 * noise &&
      !shared_.noise_warned) {
    shared_.noise_warned = true;
    log::warn(
        "time.steady_tolerance = {:g} is below 10 times the change per unit time that the solver "
        "tolerances leave as noise (about max(solver.momentum_tolerance, "
        "solver.pressure_tolerance) / dt = {:.2g}): the run may stop on noise or never; lower "
        "the solver tolerances to {:.1g} or below, or raise time.steady_tolerance",
        shared_.time.steady_tolerance(), noise, shared_.time.steady_tolerance() * dt / 10);
  }
  if (shared_.time.steady_tolerance() > 0 &&
      shared_.last_change < shared_.time.steady_tolerance() && !shared_.steady) {
    shared_.steady = true;
    log::info(
        "{}: steady state at step {} (t = {:.6g}): the velocity changes by {:.3g} of its "
        "size per unit time (kinetic-energy norm), below time.steady_tolerance = {:g}",
        name_, shared_.step, shared_.t, shared_.last_change, shared_.time.steady_tolerance());
  }
}

ModelState FlowModel::state() {
  using halo::Entity;
  return {&be_,
          {{"velocity_flux", Entity::face, shared_.u.get()},
           {"velocity_flux_old", Entity::face, u_old_.get()},
           {"pressure", Entity::cell, shared_.p.get()},
           {"advecting_flux", Entity::face, advecting_.get()}},
          {{"time", &shared_.t},
           {"step", &shared_.step},
           {"last_dt", &shared_.last_dt},
           {"courant_rate", &shared_.rate},
           {"last_courant", &shared_.last_courant},
           {"last_cfl", &shared_.last_cfl},
           {"last_divergence", &shared_.last_div},
           {"max_divergence", &shared_.max_div},
           {"last_change", &shared_.last_change},
           {"steady", &shared_.steady}}};
}

SolutionHistory::SolutionHistory(const backend::Backend& be, index n, int known)
    : be_(be), previous_(be.make_field(n)), before_previous_(be.make_field(n)), known_(known) {}

bool SolutionHistory::next_guess(const Field& x, real ratio, Field& guess) {
  const bool extrapolated = known_ >= 2;
  const real r = std::isfinite(ratio) && ratio > 0 ? ratio : 1;
  if (known_ >= 3) {
    // Lagrange through x at t_n, previous at t_n - h1 and before_previous at t_n - h1 - h2,
    // evaluated at t_n + h; in units of h1: h = r, h2 = 1 / ratio_. Equal steps give exactly
    // 3, -3, 1. In a start-up, where the Courant number shrinks the steps, the equal-step weights
    // miss: the 49k-tet cavity to t = 0.1 (cpu) 23.86 -> 21.95 stream iterations per step.
    const real h = r, h2 = 1 / ratio_;
    weights_ = {(h + 1) * (h + 1 + h2) / (1 + h2), -h * (h + 1 + h2) / h2,
                h * (h + 1) / ((1 + h2) * h2)};
    n_weights_ = 3;
  } else if (known_ == 2) {
    weights_ = {1 + r, -r, 0};
    n_weights_ = 2;
  } else {
    weights_ = {1, 0, 0};  // guess is left as it is, x itself
    n_weights_ = 1;
  }
  if (n_weights_ > 1) {
    be_.scale(weights_[0], x, guess);
    be_.axpy(weights_[1], *previous_, guess);
    if (n_weights_ == 3) be_.axpy(weights_[2], *before_previous_, guess);
  }
  be_.copy(*previous_, *before_previous_);
  be_.copy(x, *previous_);
  known_ = std::min(known_ + 1, 3);
  ratio_ = r;
  return extrapolated;
}

void add_projection_state(ModelState& s, solvers::SolutionProjection& projection,
                          const std::string& name) {
  for (int k = 0; k < projection.capacity(); ++k)
    s.fields.push_back(
        {fmt::format("{}_basis_{}", name, k), halo::Entity::cell, &projection.basis(k), name});
  for (int k = 0; k < 2; ++k)
    s.fields.push_back(
        {fmt::format("{}_earlier_{}", name, k), halo::Entity::cell, &projection.earlier(k), name});
  s.values.push_back({name + "_basis_size", &projection.size(), 0.0});
}

void FlowModel::state_loaded() {
  if (setup_.bc_depends_on_time) upload_boundary(shared_.t);
  cell_velocity_step_ = vorticity_step_ = -1;
}

const Field& FlowModel::cell_velocity() {
  if (cell_velocity_step_ != shared_.step) {
    be_.interpolate(m_, *shared_.u, *cell_velocity_);
    halo_.cells.exchange(be_, *cell_velocity_, 3);
    cell_velocity_step_ = shared_.step;
  }
  return *cell_velocity_;
}

// omega = W (R M U + B) (2D) or W_mp R M_RT U + beta (3D), formed as the viscous term forms it.
const Field& FlowModel::vorticity() {
  if (vorticity_step_ != shared_.step) {
    shared_.coef->face_star.apply(*shared_.u, *face_tmp_);
    if (m_.dim == 3) halo_.faces.exchange(be_, *face_tmp_);
    be_.rotation(m_, *face_tmp_, *circulation_);
    if (m_.dim == 2) be_.axpy(1, *shared_.coef->bc_circulation, *circulation_);
    curl_plan(halo_, m_).exchange(be_, *circulation_);
    shared_.coef->edge_star.apply(*circulation_, *vorticity_);
    if (m_.dim == 3) be_.axpy(1, *shared_.coef->bc_circulation, *vorticity_);
    curl_plan(halo_, m_).exchange(be_, *vorticity_);
    vorticity_step_ = shared_.step;
  }
  return *vorticity_;
}

std::vector<HostField> FlowModel::fields(const std::vector<std::string>& names) {
  const auto want = [&](const char* n) {
    return names.empty() || std::find(names.begin(), names.end(), n) != names.end();
  };
  const std::vector<real> flat = download(cell_velocity());
  std::vector<Vec3> uc(static_cast<std::size_t>(m_.n_cells));
  for (std::size_t c = 0; c < uc.size(); ++c)
    uc[c] = {flat[3 * c], flat[3 * c + 1], flat[3 * c + 2]};
  const std::vector<Vec3> un = node_velocity(m_, uc, boundary_nodes_, shared_.t);
  const auto vectors = [](const char* name, bool at_cells, const std::vector<Vec3>& v) {
    HostField h{name, 3, at_cells, {}};
    for (const Vec3& x : v) h.data.insert(h.data.end(), {x.x, x.y, x.z});
    return h;
  };
  std::vector<HostField> out;
  if (want("velocity")) out.push_back(vectors("velocity", true, uc));
  if (want("velocity_nodes")) out.push_back(vectors("velocity_nodes", false, un));
  if (want("pressure")) {
    std::vector<real> p = download(pressure());
    for (real& x : p) x *= setup_.density;
    out.push_back({"pressure", 1, true, std::move(p)});
  }
  if (want("vorticity")) {
    const std::vector<Vec3> w = cell_vorticity(m_, un);
    if (m_.dim == 3) {
      out.push_back(vectors("vorticity", true, w));
    } else {
      HostField h{"vorticity", 1, true, {}};
      for (const Vec3& x : w) h.data.push_back(x.z);
      out.push_back(std::move(h));
    }
  }
  if (want("divergence")) {  // (D U)_c / V_c
    be_.divergence(m_, *shared_.u, *cell_tmp_);
    halo_.cells.exchange(be_, *cell_tmp_);
    HostField h{"divergence", 1, true, download(*cell_tmp_)};
    for (index c = 0; c < m_.n_cells; ++c) h.data[c] /= m_.cell_volume[c];
    out.push_back(std::move(h));
  }
  return out;
}

std::vector<std::pair<std::string, double>> FlowModel::figures() {
  std::vector<std::pair<std::string, double>> out = {{"courant", shared_.last_courant},
                                                     {"cfl", shared_.last_cfl},
                                                     {"max_div", shared_.last_div},
                                                     {"max_div_all_steps", shared_.max_div},
                                                     {"change_per_time", shared_.last_change}};
  const std::vector<real> u = download(*shared_.u);
  // Kinetic energy (per unit density): 1/2 U^T M U (2D: 1/2 sum_f A_f L_f u_n^2; 3D: the energy
  // of the Raviart-Thomas velocity).
  real energy = 0;
  if (m_.dim == 2) {
    for (index f = 0; f < m_.n_owned_faces; ++f)
      energy += 0.5 * shared_.face_diagonal[f] * u[f] * u[f];
  } else {
    shared_.coef->face_star.apply(*shared_.u, *face_tmp_);
    energy = 0.5 * be_.dot(*shared_.u, *face_tmp_, m_.n_owned_faces);
  }
  out.emplace_back("kinetic_energy", global_sum(energy));
  if (setup_.has_exact) {
    // Error of the normal velocity u_n = U_f / A_f against the face average of the exact one,
    // in the discrete L2 norm sum_f A_f L_f (.)^2 (which approximates the integral of |u|^2).
    real e2 = 0, vol = 0, emax = 0;
    for (index f = 0; f < m_.n_owned_faces; ++f) {
      const real a = m_.face_area[f];
      const real e = (u[f] - face_flux(m_, f, setup_.exact, shared_.t)) / a;
      const real w = a * a * shared_.face_diagonal[f];
      e2 += w * e * e;
      vol += w;
      emax = std::max(emax, std::abs(e));
    }
    const auto [e2_all, vol_all] = global_sum({e2, vol});
    out.emplace_back("error_l2", std::sqrt(e2_all / vol_all));
    out.emplace_back("error_max", global_max(emax));
  }
  return out;
}

}  // namespace scfd::physics::ns
