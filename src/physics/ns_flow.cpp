// Shared part of the ns-classical and ns-exact models (ns_flow.hpp; the discretisation is derived
// in docs/methods.md). Every array of the state is a backend Field; the host computes only the
// set-up factors and boundary data (ns_setup.cpp) and the output / probe values (ns_post.cpp).
//
// Parallel runs: operators write owned entries; the inputs of each gather are exchanged first
// (faces before R, D and the cell reconstruction; curl entities before C; cells before G; cell
// vectors with 3 components), so every rank count computes the serial operators.
#include "physics/ns_flow.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "core/error.hpp"
#include "core/log.hpp"
#include "solvers/collectives.hpp"

namespace scfd::physics::ns {

FlowModel::FlowModel(const config::Case& c, const topology::Mesh& m, const backend::Backend& be,
                     halo::Halo& halo, std::string name)
    : m_(m),
      be_(be),
      halo_(halo),
      setup_(read_setup(c, m)),
      name_(std::move(name)) {
  read_time(c);
  const Geometry g = build_geometry(m, setup_, halo);
  const real fallback_faces = solvers::global_sum(static_cast<real>(g.fallback_faces));
  const real fallback_duals = solvers::global_sum(static_cast<real>(g.fallback_duals));
  if (fallback_faces > 0)
    log::warn(
        "{}: {} faces have a non-positive circumcentre distance (right-angled or "
        "non-Delaunay pairs): their dual length is the centroid distance along the normal; "
        "a Delaunay mesh is more accurate",
        name_, fallback_faces);
  if (fallback_duals > 0)
    log::warn(
        "{}: {} {} have a small or negative circumcentric dual area: the median "
        "dual is used there",
        name_, fallback_duals, m.dim == 2 ? "nodes" : "edges");
  global_cells_ = solvers::global_sum(static_cast<real>(m.n_owned_cells));
  make_fields(g);
  const BoundaryData b = boundary_data(m, setup_, t_, halo);
  check_balance(c, b);
  upload_boundary(t_);
  pressure_ = std::make_unique<PressureOperator>(m, be, halo, s_);
  pcg_cells_ = std::make_unique<solvers::Pcg>(be, m.n_cells);
  setup_probes(c);
  weight_host_ = g.dual_weight;
  setup_forces(c);
}

void FlowModel::read_time(const config::Case& c) {
  t_ = c.get<double>("time.start", 0.0);
  if (c.has("time.dt") == c.has("time.cfl"))
    c.fail("time", "give exactly one of time.dt (fixed step) and time.cfl (target CFL number)");
  if (c.has("time.dt")) {
    dt_ = c.require<double>("time.dt");
    if (!(dt_ > 0)) c.fail("time.dt", fmt::format("must be > 0, got {}", dt_));
  } else {
    fixed_dt_ = false;
    cfl_target_ = c.require<double>("time.cfl");
    if (!(cfl_target_ > 0)) c.fail("time.cfl", fmt::format("must be > 0, got {}", cfl_target_));
    dt_max_ = c.require<double>("time.dt_max");
    if (!(dt_max_ > 0)) c.fail("time.dt_max", fmt::format("must be > 0, got {}", dt_max_));
  }
  if (c.has("time.steps") == c.has("time.end"))
    c.fail("time", "give exactly one of time.steps and time.end");
  if (c.has("time.steps")) {
    n_steps_ = static_cast<int>(c.require<long long>("time.steps"));
    if (n_steps_ < 1) c.fail("time.steps", "must be >= 1");
  } else {
    to_end_ = true;
    t_end_ = c.require<double>("time.end");
    if (!(t_end_ > t_)) c.fail("time.end", fmt::format("must be > time.start = {}", t_));
    if (fixed_dt_) {  // land exactly on the end time
      n_steps_ = static_cast<int>(std::ceil((t_end_ - t_) / dt_ - 1e-9));
      dt_ = (t_end_ - t_) / n_steps_;
    }
  }
  momentum_options_.relative_tolerance = c.get<double>("solver.momentum_tolerance", 1e-9);
  pressure_options_.relative_tolerance = c.get<double>("solver.pressure_tolerance", 1e-9);
  for (const char* key : {"solver.momentum_tolerance", "solver.pressure_tolerance"})
    if (!(c.get<double>(key, 1e-9) > 0)) c.fail(key, "must be > 0");
  const auto max_it = static_cast<int>(c.get<long long>("solver.max_iterations", 5000));
  if (max_it < 1) c.fail("solver.max_iterations", "must be >= 1");
  momentum_options_.max_iterations = pressure_options_.max_iterations = max_it;
}

int FlowModel::total_steps() const {
  if (fixed_dt_ || n_steps_ > 0) return n_steps_;
  // CFL-controlled run to an end time: the steps left at the current dt (an estimate until the
  // end time is reached).
  const double left = t_end_ - t_;
  if (left <= 1e-12 * std::max(1.0, std::abs(t_end_))) return step_;
  const double dt = dt_ > 0 ? dt_ : dt_max_;
  return step_ + std::max(1, static_cast<int>(std::ceil(left / dt - 1e-9)));
}

std::vector<real> FlowModel::download(const Field& f) const {
  std::vector<real> h(static_cast<std::size_t>(f.size()));
  be_.download(f, h);
  return h;
}

void FlowModel::make_fields(const Geometry& g) {
  s_.mass = be_.make_field_from(g.mass);
  s_.fixed = be_.make_field_from(g.fixed);
  std::vector<real> free(g.fixed.size()), neg(g.mobility.size());
  for (std::size_t i = 0; i < free.size(); ++i) free[i] = 1 - g.fixed[i];
  for (std::size_t i = 0; i < neg.size(); ++i) neg[i] = -g.mobility[i];
  s_.free = be_.make_field_from(free);
  s_.mobility = be_.make_field_from(g.mobility);
  s_.neg_mobility = be_.make_field_from(neg);
  s_.weight = be_.make_field_from(g.dual_weight);
  s_.viscous_diag = be_.make_field_from(g.viscous_diag);
  s_.pressure_diag = be_.make_field_from(g.pressure_diag);
  s_.cfl_weight = be_.make_field_from(g.cfl_weight);
  const index nf = m_.n_faces, nc = m_.n_cells, nb = m_.n_boundary_faces();
  for (FieldPtr* f :
       {&s_.u, &s_.u_star, &s_.rhs, &s_.conv, &s_.conv_old, &s_.face_a, &s_.face_b, &s_.bc_flux})
    *f = make(nf);
  for (FieldPtr* f : {&s_.p, &s_.psi, &s_.cell_a, &s_.ones}) *f = make(nc);
  be_.fill(*s_.ones, 1);
  s_.u_cell = make(3 * nc);
  s_.n_cell = make(3 * nc);
  s_.bc_velocity = make(3 * nb);
  s_.bc_pressure = make(nb);
  s_.zero_boundary = make(nb);
  s_.bc_circulation = make(m_.n_curl());
  s_.curl_a = make(m_.n_curl());
}

void FlowModel::upload_boundary(double t) {
  const BoundaryData b = boundary_data(m_, setup_, t, halo_);
  be_.upload(b.flux, *s_.bc_flux);
  be_.upload(b.velocity, *s_.bc_velocity);
  be_.upload(b.pressure, *s_.bc_pressure);
  be_.upload(b.circulation, *s_.bc_circulation);
}

// With no outlet the pressure is fixed only up to a constant and D U = 0 needs the prescribed
// boundary fluxes to balance (checked at the start time).
void FlowModel::check_balance(const config::Case& c, const BoundaryData& b) const {
  if (setup_.has_outlet) return;
  const real net = solvers::global_sum(b.net_inflow);
  const real scale = solvers::global_sum(b.flux_scale);
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
  double dt = dt_;
  if (!fixed_dt_) {
    be_.multiply(*s_.cfl_weight, *s_.u, *s_.face_a);
    const real rate = solvers::global_max(be_.max_abs(*s_.face_a, m_.n_owned_faces));
    dt = rate > 0 ? std::min(dt_max_, cfl_target_ / rate) : dt_max_;
    if (dt_old_ > 0) dt = std::min(dt, 1.2 * dt_old_);  // smooth growth keeps AB2 accurate
    // A velocity growing without bound drives the CFL-limited step to zero: stop instead.
    if (dt < 1e-6 * dt_max_)
      throw SolveError(fmt::format(
          "step {}: the CFL-limited time step {:.3g} fell below 1e-6 time.dt_max: the velocity is "
          "growing without bound (unstable run: lower time.cfl; docs/methods.md, \"Time step on "
          "tetrahedra\")",
          step_ + 1, dt));
  }
  if (to_end_ && t_ + dt > t_end_ - 1e-9 * dt) dt = t_end_ - t_;
  return dt;
}

// out = -J N(I U^n): the convective term of the weighted face equation. J (integration) is the
// V-weighted adjoint of I (interpolation), so U^T J N = sum_c V_c u_c·N_c, which vanishes for
// the central scheme when D U = 0: convection neither creates nor destroys U^T M U.
void FlowModel::convection(Field& out) {
  be_.interpolate(m_, *s_.u, *s_.u_cell);
  halo_.cells.exchange(be_, *s_.u_cell, 3);
  be_.convection(m_, *s_.u, *s_.u_cell, *s_.bc_velocity, setup_.upwind, *s_.n_cell);
  halo_.cells.exchange(be_, *s_.n_cell, 3);
  be_.integrate(m_, *s_.n_cell, out);
  be_.fill(*s_.face_a, 0);
  be_.xpay(*s_.face_a, -1, out);
}

// CFL = dt max_f |U_f| / (d min V) and max_c |(D U)_c| after the step.
std::pair<real, real> FlowModel::cfl_and_divergence(double dt) {
  be_.multiply(*s_.cfl_weight, *s_.u, *s_.face_a);
  const real cfl = dt * solvers::global_max(be_.max_abs(*s_.face_a, m_.n_owned_faces));
  be_.divergence(m_, *s_.u, *s_.cell_a);
  const real div = solvers::global_max(be_.max_abs(*s_.cell_a, m_.n_owned_cells));
  return {cfl, div};
}

void FlowModel::initial_fluxes(Field& u) const {
  std::vector<real> h(static_cast<std::size_t>(m_.n_faces));
  for (index f = 0; f < m_.n_faces; ++f) h[f] = face_flux(m_, f, setup_.initial, t_);
  be_.upload(h, u);
  be_.multiply(*s_.free, u, u);
  be_.axpy(1, *s_.bc_flux, u);
}

solvers::PcgResult FlowModel::solve_pressure(const Field& v, Field& psi) const {
  be_.divergence(m_, v, *s_.cell_a);
  be_.fill(psi, 0);               // psi = 0: the initial guess, and the zero of the xpay
  be_.xpay(psi, -1, *s_.cell_a);  // b = -D v
  if (!setup_.has_outlet) {       // singular system: remove the round-off part of b along 1
    const real mean = solvers::global_sum(be_.dot(*s_.cell_a, *s_.ones, m_.n_owned_cells));
    be_.axpy(-mean / global_cells_, *s_.ones, *s_.cell_a);
  }
  // Stop at |r| <= tol |b| or |r| <= tol |v|: near a steady state D v is itself tiny, and a
  // residual far below the fluxes of the flow changes nothing.
  solvers::PcgOptions options = pressure_options_;
  options.absolute_tolerance =
      options.relative_tolerance * std::sqrt(solvers::global_sum(be_.dot(v, v, m_.n_owned_faces)));
  const solvers::PcgResult r = pcg_cells_->solve(*pressure_, *s_.cell_a, psi, options);
  halo_.cells.exchange(be_, psi);
  return r;
}

void FlowModel::explicit_part(double dt, Field& y) {
  convection(*s_.conv);
  const real r = dt_old_ > 0 ? dt / dt_old_ : 0;
  be_.multiply(*s_.mass, *s_.u, y);
  be_.axpy(dt * (1 + r / 2), *s_.conv, y);
  if (r > 0) be_.axpy(-dt * r / 2, *s_.conv_old, y);
  std::swap(s_.conv, s_.conv_old);
}

void FlowModel::finish_step(double dt) {
  dt_old_ = dt_ = dt;
  t_ += dt;
  ++step_;
  std::tie(last_cfl_, last_div_) = cfl_and_divergence(dt);
  if (!std::isfinite(last_cfl_) || !std::isfinite(last_div_))
    throw SolveError(fmt::format("step {}: the velocity is not finite (CFL {})", step_, last_cfl_));
  max_div_ = std::max(max_div_, last_div_);
  write_probes();
  write_forces();
  if (step_ == total_steps()) write_lines();
}

// Locates `points` (collective): each point goes to the rank whose containing cell holds it
// best; a point outside the mesh is an input error at `key`.
ProbeSet FlowModel::claim_points(const config::Case& c, const std::string& key,
                                 const std::vector<Vec3>& points) const {
  ProbeSet set = locate_probes(m_, points);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (std::size_t i = 0; i < set.points.size(); ++i) {
    struct {
      double score;
      int rank;
    } mine{set.score[i], rank}, best{};
    MPI_Allreduce(&mine, &best, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    if (best.score < -1e-9)
      c.fail(key, fmt::format("point {} at ({}, {}, {}) lies outside the mesh", i, set.points[i].x,
                              set.points[i].y, set.points[i].z));
    if (best.rank != rank) set.cell[i] = kNone;
  }
  return set;
}

// The points of the sampling lines and the probes, and the header of probes.csv.
void FlowModel::setup_probes(const config::Case& c) {
  const std::filesystem::path dir =
      c.directory() / c.get<std::string>("output.directory", "output");
  for (const SampleLine& line : setup_.lines) {
    std::vector<Vec3> points;
    for (int i = 0; i < line.points; ++i)
      points.push_back(line.from +
                       (static_cast<real>(i) / (line.points - 1)) * (line.to - line.from));
    lines_.push_back(claim_points(c, "output.lines." + line.name + ".from", points));
  }
  line_dir_ = dir / "lines";
  if (setup_.probes.empty()) return;
  probes_ = claim_points(c, "probes.x", setup_.probes);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  probe_file_ = dir / "probes.csv";
  if (rank != 0) return;
  std::filesystem::create_directories(probe_file_.parent_path());
  std::ofstream out(probe_file_);
  out << "step,time";
  for (std::size_t i = 0; i < probes_.points.size(); ++i) {
    for (int d = 0; d < m_.dim; ++d) out << fmt::format(",p{}_u{}", i, "xyz"[d]);
    if (setup_.probe_pressure) out << fmt::format(",p{}_p", i);
  }
  out << "\n";
  if (!out) throw input_error("{}: cannot write", probe_file_.string());
}

// Velocity (dim values) and, with_pressure, the pressure (density x p reconstructed linearly in
// the containing cell, pressure_at) at every point of the set, summed over ranks (each point
// lives on one rank). Collective.
std::vector<real> FlowModel::sample(const ProbeSet& set, bool with_pressure) const {
  std::vector<real> flux(set.faces.size());
  if (!flux.empty()) be_.download_indices(*s_.u, set.faces, flux);
  const std::vector<Vec3> u = probe_velocity(m_, set, flux);
  if (with_pressure) update_pressure();
  std::vector<real> p(with_pressure ? set.cells.size() : 0);
  if (!p.empty()) be_.download_indices(*s_.p, set.cells, p);
  const auto pressure = [&](index c) {
    return p[static_cast<std::size_t>(std::lower_bound(set.cells.begin(), set.cells.end(), c) -
                                      set.cells.begin())];
  };
  std::vector<real> v;
  for (std::size_t i = 0; i < u.size(); ++i) {
    for (int d = 0; d < m_.dim; ++d) v.push_back(u[i][d]);
    if (!with_pressure) continue;
    v.push_back(set.cell[i] != kNone
                    ? setup_.density * pressure_at(m_, set.cell[i], set.points[i], pressure)
                    : 0.0);
  }
  MPI_Allreduce(MPI_IN_PLACE, v.data(), static_cast<int>(v.size()), MPI_DOUBLE, MPI_SUM,
                MPI_COMM_WORLD);
  return v;
}

void FlowModel::write_probes() {
  if (probes_.points.empty()) return;
  const std::vector<real> v = sample(probes_, setup_.probe_pressure);
  if (log::rank() != 0) return;
  std::ofstream out(probe_file_, std::ios::app);
  out << fmt::format("{},{:.10g}", step_, t_);
  for (real x : v) out << fmt::format(",{:.10g}", x);
  out << "\n";
}

// OUTPUT/lines/NAME.csv for every output.lines entry: s (distance from `from`), the point, the
// velocity (w = 0 in 2D) and the pressure. Collective.
void FlowModel::write_lines() const {
  for (std::size_t l = 0; l < lines_.size(); ++l) {
    const std::vector<real> v = sample(lines_[l], true);
    if (log::rank() != 0) continue;
    std::filesystem::create_directories(line_dir_);
    const std::filesystem::path file = line_dir_ / (setup_.lines[l].name + ".csv");
    std::ofstream out(file);
    out << "s,x,y,z,u,v,w,p\n";
    const auto w = static_cast<std::size_t>(m_.dim) + 1;
    for (std::size_t i = 0; i < lines_[l].points.size(); ++i) {
      const Vec3 x = lines_[l].points[i];
      Vec3 u{};
      for (int d = 0; d < m_.dim; ++d) u[d] = v[i * w + static_cast<std::size_t>(d)];
      out << fmt::format("{:.8g},{:.8g},{:.8g},{:.8g},{:.10g},{:.10g},{:.10g},{:.10g}\n",
                         norm(x - lines_[l].points[0]), x.x, x.y, x.z, u.x, u.y, u.z,
                         v[i * w + static_cast<std::size_t>(m_.dim)]);
    }
    if (!out) throw input_error("{}: cannot write", file.string());
  }
}

void FlowModel::setup_forces(const config::Case& c) {
  if (setup_.force_patch < 0) return;
  force_file_ = c.directory() / c.get<std::string>("output.directory", "output") / "forces.csv";
  if (log::rank() != 0) return;
  std::filesystem::create_directories(force_file_.parent_path());
  std::ofstream out(force_file_);
  out << "step,time,force_x,force_y,drag_coefficient,lift_coefficient\n";
  if (!out) throw input_error("{}: cannot write", force_file_.string());
}

// Force on forces.patch (collective): the node circulations Gamma = R M U + B are formed on the
// backend as the viscous term forms them; the host sums the wall tractions (ns_post.hpp).
Vec3 FlowModel::force() const {
  update_pressure();
  be_.multiply(*s_.mass, *s_.u, *s_.face_a);
  be_.rotation(m_, *s_.face_a, *s_.curl_a);
  be_.axpy(1, *s_.bc_circulation, *s_.curl_a);
  halo_.nodes.exchange(be_, *s_.curl_a);
  const std::vector<real> gamma = download(*s_.curl_a), p = download(*s_.p);
  const Vec3 f =
      patch_force(m_, setup_.force_patch, p, gamma, weight_host_, setup_.density, setup_.viscosity);
  const auto [fx, fy] = solvers::global_sum(std::pair<real, real>{f.x, f.y});
  return {fx, fy, 0};
}

void FlowModel::write_forces() {
  if (setup_.force_patch < 0) return;
  const Vec3 f = force();
  if (log::rank() != 0) return;
  const double q =
      0.5 * setup_.density * setup_.force_velocity * setup_.force_velocity * setup_.force_length;
  std::ofstream out(force_file_, std::ios::app);
  out << fmt::format("{},{:.10g},{:.10g},{:.10g},{:.10g},{:.10g}\n", step_, t_, f.x, f.y, f.x / q,
                     f.y / q);
}

std::vector<HostField> FlowModel::fields(const std::vector<std::string>& names) const {
  const auto want = [&](const char* n) {
    return names.empty() || std::find(names.begin(), names.end(), n) != names.end();
  };
  const std::vector<real> u = download(*s_.u);
  const std::vector<Vec3> uc = cell_velocity(m_, u);
  const std::vector<Vec3> un = node_velocity(m_, uc);
  const auto vectors = [](const char* name, bool at_cells, const std::vector<Vec3>& v) {
    HostField h{name, 3, at_cells, {}};
    for (const Vec3& x : v) h.data.insert(h.data.end(), {x.x, x.y, x.z});
    return h;
  };
  std::vector<HostField> out;
  if (want("velocity")) out.push_back(vectors("velocity", true, uc));
  if (want("velocity_nodes")) out.push_back(vectors("velocity_nodes", false, un));
  if (want("pressure")) {
    update_pressure();
    std::vector<real> p = download(*s_.p);
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
    be_.divergence(m_, *s_.u, *s_.cell_a);
    halo_.cells.exchange(be_, *s_.cell_a);
    HostField h{"divergence", 1, true, download(*s_.cell_a)};
    for (index c = 0; c < m_.n_cells; ++c) h.data[c] /= m_.cell_volume[c];
    out.push_back(std::move(h));
  }
  return out;
}

std::vector<std::pair<std::string, double>> FlowModel::figures() const {
  std::vector<std::pair<std::string, double>> out = {
      {"cfl", last_cfl_}, {"max_div", last_div_}, {"max_div_all_steps", max_div_}};
  const std::vector<real> u = download(*s_.u);
  const std::vector<real> mass = download(*s_.mass);
  // Kinetic energy (per unit density): 1/2 sum_f (L_f / A_f) U_f^2 = 1/2 sum_f A_f L_f u_n^2.
  real energy = 0;
  for (index f = 0; f < m_.n_owned_faces; ++f) energy += 0.5 * mass[f] * u[f] * u[f];
  out.emplace_back("kinetic_energy", solvers::global_sum(energy));
  if (setup_.has_exact) {
    // Error of the normal velocity u_n = U_f / A_f against the face average of the exact one,
    // in the discrete L2 norm sum_f A_f L_f (.)^2 (which approximates the integral of |u|^2).
    real e2 = 0, vol = 0, emax = 0;
    for (index f = 0; f < m_.n_owned_faces; ++f) {
      const real a = m_.face_area[f];
      const real e = (u[f] - face_flux(m_, f, setup_.exact, t_)) / a;
      const real w = a * a * mass[f];
      e2 += w * e * e;
      vol += w;
      emax = std::max(emax, std::abs(e));
    }
    const auto [e2_all, vol_all] = solvers::global_sum({e2, vol});
    out.emplace_back("error_l2", std::sqrt(e2_all / vol_all));
    out.emplace_back("error_max", solvers::global_max(emax));
  }
  if (!probes_.points.empty()) {
    const bool with_p = setup_.probe_pressure;
    const std::vector<real> v = sample(probes_, with_p);
    const std::size_t w = static_cast<std::size_t>(m_.dim) + (with_p ? 1 : 0);
    for (std::size_t i = 0; i < probes_.points.size(); ++i) {
      for (int d = 0; d < m_.dim; ++d)
        out.emplace_back(fmt::format("probe{}_u{}", i, "xyz"[d]), v[i * w + d]);
      if (with_p) out.emplace_back(fmt::format("probe{}_p", i), v[i * w + m_.dim]);
    }
  }
  if (setup_.force_patch >= 0) {
    const Vec3 f = force();
    const double q =
        0.5 * setup_.density * setup_.force_velocity * setup_.force_velocity * setup_.force_length;
    out.emplace_back("force_x", f.x);
    out.emplace_back("force_y", f.y);
    out.emplace_back("drag_coefficient", f.x / q);
    out.emplace_back("lift_coefficient", f.y / q);
  }
  return out;
}

}  // namespace scfd::physics::ns
