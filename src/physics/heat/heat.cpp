// Heat model time stepping (see heat.hpp). Per step, with theta in (0, 1] and Δt:
//   (M/Δt + θ(K + R)) T¹ = (M/Δt − (1−θ)(K + R)) T⁰ + θ f¹ + (1−θ) f⁰
// M: lumped heat capacity (Σ ρc V_c/(d+1)), K: conductivity-weighted node Laplacian, R: lumped
// convection coefficient h A/d, f: source S V_dual + heat flux q A/d + h T_amb A/d.
// Steady: (K + R) T = f. Dirichlet nodes are eliminated symmetrically (Backend::node_system):
// their known values move to the right-hand side, their rows become the identity.
#include "physics/heat/heat.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string_view>

#include "backend/operator_matrices.hpp"
#include "core/collectives.hpp"
#include "core/error.hpp"
#include "physics/boundary_tables.hpp"
#include "physics/formula_check.hpp"
#include "physics/heat/setup.hpp"
#include "physics/solver_settings.hpp"
#include "physics/time_control.hpp"
#include "solvers/node_system_operator.hpp"
#include "solvers/pcg.hpp"
#include "solvers/preconditioner.hpp"
#include "topology/p1.hpp"

namespace scfd::physics {
namespace {

using backend::Field;

class HeatModel final : public Model {
 public:
  HeatModel(const config::Case& c, const topology::Mesh& m, const backend::Backend& be,
            halo::Halo& halo);
  std::string name() const override { return "heat"; }
  bool steady() const override { return steady_; }
  int total_steps() const override { return n_steps_; }
  int step() const override { return step_; }
  double time() const override { return t_; }
  StepReport advance() override;
  std::vector<HostField> fields(const std::vector<std::string>& names) override;
  std::vector<std::string> field_names() const override { return {"temperature", "heat_flux"}; }
  std::vector<std::pair<std::string, double>> figures() override;
  ModelState state() override;
  void state_loaded() override;

 private:
  void read_time(const config::Case& c);
  void check_formulas(const config::Case& c) const;
  // SolveError on every rank when `v` (from the formulas at time t) is not finite somewhere.
  void check_finite(const std::vector<real>& v, double t) const;
  std::vector<real> load_vector(double t) const;  // f(t)
  std::vector<real> dirichlet_values(double t) const;
  // The Dirichlet values at time t written into dirichlet_ at the Dirichlet nodes (boundary
  // values: GL_POINTS on gl-raster), 0 at every other node.
  void write_dirichlet(double t);
  std::vector<real> temperature() const;
  void add_heat_flows(const std::vector<real>& t, std::vector<std::pair<std::string, double>>& out);

  const topology::Mesh& m_;
  const backend::Backend& be_;
  halo::HaloPlan& nodes_;
  heat::Setup setup_;
  bool steady_ = false;
  real theta_ = 1;
  double dt_ = 0;
  int n_steps_ = 1;
  std::optional<TimeControl> time_;  // transient runs
  bool diagonal_taken_ = false;      // the PCG has the system's diagonal (taken on its first solve)
  int step_ = 0;
  double t_ = 0;
  solvers::SolveOptions pcg_options_;
  std::string preconditioner_name_;  // solver.preconditioner
  bool loads_constant_ = true;       // f and the Dirichlet values do not depend on time

  std::vector<real> mass_, robin_;      // host copies (per node)
  std::vector<real> load_old_;          // f at the last time level, when loads depend on time
  std::vector<index> dirichlet_nodes_;  // local nodes with a Dirichlet value (ghosts included)
  std::unique_ptr<Field> t_field_, rhs_, tmp_, load_, dirichlet_, free_, fixed_, w_, d_, mass_dt_,
      robin_field_;
  // M/Δt + θ(K + R) with the Dirichlet elimination, assembled once: d, θ and the weights are
  // fixed for a run (Δt is set before the first step and never changes).
  std::unique_ptr<solvers::NodeSystemOperator> system_;
  std::unique_ptr<solvers::Pcg> pcg_;
  std::unique_ptr<solvers::Preconditioner> preconditioner_;  // null: PCG's built-in Jacobi
};

HeatModel::HeatModel(const config::Case& c, const topology::Mesh& m, const backend::Backend& be,
                     halo::Halo& halo)
    : m_(m), be_(be), nodes_(halo.plan(halo::Entity::node)), setup_(heat::read_setup(c, m)) {
  read_time(c);
  check_formulas(c);
  const auto nn = static_cast<std::size_t>(m.n_nodes);
  // Lumped heat capacity and convection coefficients.
  mass_.assign(nn, 0);
  for (index n = 0; n < m.n_nodes; ++n)
    for (index cell : m.node_cells.row(n))
      mass_[n] += setup_.heat_capacity[cell] * m.cell_volume[cell] / (m.dim + 1);
  robin_.assign(nn, 0);
  bool any_fixed_or_robin = false;
  for (const auto& bc : setup_.bcs) {
    loads_constant_ = loads_constant_ && bc.value.is_constant();
    if (bc.kind == heat::BcKind::heat_flux) continue;
    any_fixed_or_robin = true;
    if (bc.kind == heat::BcKind::convection)
      for (std::size_t k = 0; k < bc.nodes.size(); ++k) robin_[bc.nodes[k]] += bc.h * bc.area[k];
  }
  loads_constant_ = loads_constant_ && setup_.source.is_constant();
  if (steady_ && !any_fixed_or_robin)
    throw input_error(
        "{}: a steady heat problem needs at least one boundary of type temperature "
        "or convection (with heat-flux/insulated boundaries only, T is not unique)",
        c.path());

  // Masks of owned nodes from the local patches, ghosts from their owners (a ghost's patch faces
  // need not be on this rank).
  std::vector<real> fixed(nn, 0), free(nn, 1);
  for (index n = 0; n < m.n_owned_nodes; ++n)
    if (setup_.dirichlet_bc[n] >= 0) fixed[n] = 1;
  nodes_.exchange(std::span<real>(fixed));
  for (std::size_t n = 0; n < nn; ++n) {
    free[n] = 1 - fixed[n];
    if (fixed[n] != 0) dirichlet_nodes_.push_back(static_cast<index>(n));
  }
  std::vector<real> w(static_cast<std::size_t>(m.n_edges));
  topology::edge_weights(m, setup_.conductivity, w);
  std::vector<real> d(nn), mass_dt(nn, 0);
  for (std::size_t n = 0; n < nn; ++n) {
    if (!steady_) mass_dt[n] = mass_[n] / dt_;
    d[n] = mass_dt[n] + theta_ * robin_[n];
  }
  fixed_ = be_.make_field_from(fixed);
  free_ = be_.make_field_from(free);
  w_ = be_.make_field_from(w);
  d_ = be_.make_field_from(d);
  mass_dt_ = be_.make_field_from(mass_dt);
  robin_field_ = be_.make_field_from(robin_);
  rhs_ = be.make_field(m.n_nodes);
  tmp_ = be.make_field(m.n_nodes);
  load_old_ = load_vector(t_);
  load_ = be_.make_field_from(load_old_);
  dirichlet_ = be_.make_field(m.n_nodes);
  write_dirichlet(t_);

  // Initial condition (Dirichlet nodes take their boundary value). A steady run has none: the
  // key would change nothing but the solver's first guess.
  if (steady_ && c.has("initial.temperature"))
    c.fail("initial.temperature",
           "a steady run (time.mode = \"steady\") has no initial state: remove it, or set "
           "time.mode = \"transient\"");
  const config::Expression init = c.function("initial.temperature", 0.0);
  check_formula(c, "initial.temperature", init, m.node_x, t_);
  std::vector<real> t0(nn);
  for (std::size_t n = 0; n < nn; ++n) {
    const Vec3& x = m.node_x[n];
    t0[n] = init(x.x, x.y, x.z, t_);
  }
  t_field_ = be_.make_field_from(t0);
  system_ = std::make_unique<solvers::NodeSystemOperator>(m, be, nodes_, *d_, theta_, *w_, *fixed_);
  pcg_ = std::make_unique<solvers::Pcg>(be, m.n_nodes);
  try {  // a multigrid's set-up can find the mesh too stretched
    preconditioner_ = solvers::make_preconditioner(
        preconditioner_name_,
        {be, [&] { return backend::node_system_matrix(m, d, theta_, w, fixed); }, nodes_, "heat"});
  } catch (const InputError& e) {
    c.fail("solver.preconditioner", e.what());
  }
}

constexpr std::array<std::string_view, 2> kModes = {"steady", "transient"};
constexpr std::array<std::string_view, 2> kSchemes = {"backward-euler", "crank-nicolson"};

void HeatModel::read_time(const config::Case& c) {
  steady_ = c.choice("time.mode", kModes) == "steady";
  if (!steady_) {
    theta_ = c.choice("time.scheme", kSchemes, "crank-nicolson") == "backward-euler" ? 1.0 : 0.5;
    // A fixed step for the whole run: M/dt is part of the matrix assembled once.
    time_.emplace(c, false);
    t_ = time_->start();
    dt_ = time_->fixed_dt();
    n_steps_ = time_->total_steps(0, t_, dt_);
  }
  pcg_options_.relative_tolerance = read_tolerance(c, "solver.tolerance", 1e-10);
  pcg_options_.absolute_tolerance = c.get<double>("solver.absolute_tolerance", 0.0);
  if (!(pcg_options_.absolute_tolerance >= 0)) c.fail("solver.absolute_tolerance", "must be >= 0");
  pcg_options_.max_iterations = read_max_iterations(c);
  pcg_options_.check_every = read_check_every(c);
  // Transient node systems are dominated by the lumped mass and Jacobi does well there; steady
  // problems on large meshes gain from amg.
  preconditioner_name_ = read_preconditioner(c, "jacobi");
  if (!(pcg_options_.relative_tolerance > 0) && !(pcg_options_.absolute_tolerance > 0))
    c.fail("solver.tolerance", "solver.tolerance or solver.absolute_tolerance must be > 0");
}

void HeatModel::check_formulas(const config::Case& c) const {
  check_formula(c, "material.source", setup_.source, m_.node_x, t_);
  for (const auto& bc : setup_.bcs) {
    const std::string key =
        boundary_key(m_, bc.patch) + (bc.kind == heat::BcKind::convection ? ".ambient" : ".value");
    check_formula(c, key, bc.value, patch_points(m_, bc.patch), t_);
  }
  if (setup_.has_exact) check_formula(c, "verification.temperature", setup_.exact, m_.node_x, t_);
}

// The formulas were checked at t = time.start when the case was read; later times meet this.
void HeatModel::check_finite(const std::vector<real>& v, double t) const {
  const bool finite = std::all_of(v.begin(), v.end(), [](real x) { return std::isfinite(x); });
  if (global_min(finite ? 1 : 0) == 0)
    throw SolveError(
        fmt::format("the source or boundary values at t = {:.6g} are not finite: "
                    "check the formulas of [material] and [boundary.*]",
                    t));
}

std::vector<real> HeatModel::load_vector(double t) const {
  std::vector<real> f(static_cast<std::size_t>(m_.n_nodes), 0);
  for (index n = 0; n < m_.n_nodes; ++n) {
    const Vec3& x = m_.node_x[n];
    f[n] = setup_.source(x.x, x.y, x.z, t) * m_.node_dual_volume[n];
  }
  for (const auto& bc : setup_.bcs) {
    if (bc.kind == heat::BcKind::temperature) continue;
    const real h = bc.kind == heat::BcKind::convection ? bc.h : 1;
    for (std::size_t k = 0; k < bc.nodes.size(); ++k) {
      const Vec3& x = m_.node_x[bc.nodes[k]];
      f[bc.nodes[k]] += h * bc.value(x.x, x.y, x.z, t) * bc.area[k];
    }
  }
  check_finite(f, t);
  return f;
}

void HeatModel::write_dirichlet(double t) {
  const std::vector<real> g = dirichlet_values(t);
  std::vector<real> at_nodes(dirichlet_nodes_.size());
  for (std::size_t k = 0; k < at_nodes.size(); ++k)
    at_nodes[k] = g[static_cast<std::size_t>(dirichlet_nodes_[k])];
  be_.upload_entries(dirichlet_nodes_, at_nodes, *dirichlet_);
}

std::vector<real> HeatModel::dirichlet_values(double t) const {
  std::vector<real> g(static_cast<std::size_t>(m_.n_nodes), 0);
  for (index n = 0; n < m_.n_owned_nodes; ++n) {
    const int b = setup_.dirichlet_bc[n];
    if (b < 0) continue;
    const Vec3& x = m_.node_x[n];
    g[n] = setup_.bcs[static_cast<std::size_t>(b)].value(x.x, x.y, x.z, t);
  }
  nodes_.exchange(std::span<real>(g));
  check_finite(g, t);
  return g;
}

StepReport HeatModel::advance() {
  SCFD_CHECK(step_ < n_steps_, "advance past the last step");
  const double t_new = steady_ ? t_ : t_ + dt_;
  // rhs = θ f(t_new) + (1−θ) f(t_old), on the host only when the loads depend on time.
  if (loads_constant_) {
    be_.copy(*load_, *rhs_);
  } else {
    std::vector<real> f_new = load_vector(t_new);
    std::vector<real> f(f_new.size());
    for (std::size_t i = 0; i < f.size(); ++i)
      f[i] = theta_ * f_new[i] + (1 - theta_) * load_old_[i];
    be_.upload(f, *rhs_);
    load_old_ = std::move(f_new);
  }
  if (!steady_) {
    be_.multiply(*mass_dt_, *t_field_, *tmp_);  // + M/Δt T⁰
    be_.axpy(1, *tmp_, *rhs_);
    if (theta_ < 1) {  // − (1−θ)(K + R) T⁰
      be_.node_laplacian(m_, *w_, *t_field_, *tmp_);
      be_.axpy(-(1 - theta_), *tmp_, *rhs_);
      be_.multiply(*robin_field_, *t_field_, *tmp_);
      be_.axpy(-(1 - theta_), *tmp_, *rhs_);
    }
  }
  // Dirichlet elimination: rhs_free −= θ K g, rhs_fixed = g; initial guess takes g too.
  if (!loads_constant_) write_dirichlet(t_new);
  be_.node_laplacian(m_, *w_, *dirichlet_, *tmp_);
  be_.axpy(-theta_, *tmp_, *rhs_);
  be_.multiply(*free_, *rhs_, *rhs_);
  be_.axpy(1, *dirichlet_, *rhs_);
  be_.multiply(*free_, *t_field_, *t_field_);
  be_.axpy(1, *dirichlet_, *t_field_);

  const solvers::SolveResult r = pcg_->solve(*system_, *rhs_, *t_field_, pcg_options_,
                                             !diagonal_taken_, preconditioner_.get());
  diagonal_taken_ = true;
  require_converged(r, fmt::format("step {}", step_ + 1));
  nodes_.exchange(be_, *t_field_);  // ghosts feed the next step's explicit part and the output
  t_ = t_new;
  ++step_;
  return {step_, t_, r.iterations, r.relative_residual, {}, {}, {{"temperature", r.iterations}}};
}

ModelState HeatModel::state() {
  return {&be_,
          {{"temperature", halo::Entity::node, t_field_.get()}},
          {{"time", &t_}, {"step", &step_}}};
}

// The loads of the restored time level, and the steps left from there (Δt may differ from the
// checkpoint's run: the matrix was assembled with this run's).
void HeatModel::state_loaded() {
  if (!loads_constant_) load_old_ = load_vector(t_);
  if (time_) n_steps_ = time_->total_steps(step_, t_, dt_);
}

std::vector<real> HeatModel::temperature() const {
  std::vector<real> t(static_cast<std::size_t>(m_.n_nodes));
  be_.download(*t_field_, t);
  return t;
}

std::vector<HostField> HeatModel::fields(const std::vector<std::string>& names) {
  const auto want = [&](const char* n) {
    return names.empty() || std::find(names.begin(), names.end(), n) != names.end();
  };
  std::vector<HostField> out;
  const std::vector<real> t = temperature();
  if (want("temperature")) out.push_back({"temperature", 1, false, t});
  if (want("heat_flux")) {  // q_c = -k_c grad T_c, the P1 gradient of the node temperatures
    const int w = m_.cell_width();
    HostField q{"heat_flux", 3, true, std::vector<real>(3 * static_cast<std::size_t>(m_.n_cells))};
    for (index c = 0; c < m_.n_cells; ++c) {
      const std::array<Vec3, 4> g = topology::barycentric_gradients(m_, c);
      Vec3 grad;
      for (int k = 0; k < w; ++k) grad += t[m_.cell_nodes[w * c + k]] * g[k];
      for (int d = 0; d < 3; ++d)
        q.data[3 * static_cast<std::size_t>(c) + d] = -setup_.conductivity[c] * grad[d];
    }
    out.push_back(std::move(q));
  }
  return out;
}

std::vector<std::pair<std::string, double>> HeatModel::figures() {
  const std::vector<real> t = temperature();
  const auto owned = t.begin() + m_.n_owned_nodes;
  const auto [lo, hi] = std::minmax_element(t.begin(), owned);
  std::vector<std::pair<std::string, double>> out = {{"temperature_min", global_min(*lo)},
                                                     {"temperature_max", global_max(*hi)}};
  if (setup_.has_exact) {
    // Error against verification.temperature: dual-volume weighted RMS and maximum.
    real e2 = 0, vol = 0, emax = 0;
    for (index n = 0; n < m_.n_owned_nodes; ++n) {
      const Vec3& x = m_.node_x[n];
      const real e = t[n] - setup_.exact(x.x, x.y, x.z, t_);
      e2 += m_.node_dual_volume[n] * e * e;
      vol += m_.node_dual_volume[n];
      emax = std::max(emax, std::abs(e));
    }
    const auto [e2_all, vol_all] = global_sum({e2, vol});
    out.emplace_back("error_l2", std::sqrt(e2_all / vol_all));
    out.emplace_back("error_max", global_max(emax));
  }
  if (steady_) add_heat_flows(t, out);
  return out;
}

// Heat flow into the domain through each temperature patch (W), from the discrete balance at its
// nodes: Q_i = (K T + R T - f)_i, the consistent boundary flux of the FE/median-dual scheme. With
// the other figures it shows conservation: the flows and the loads sum to zero in a steady state.
void HeatModel::add_heat_flows(const std::vector<real>& t,
                               std::vector<std::pair<std::string, double>>& out) {
  be_.node_laplacian(m_, *w_, *t_field_, *tmp_);  // K T by the operator the solve applies
  std::vector<real> kt(t.size());
  be_.download(*tmp_, kt);
  const std::vector<real> f = load_vector(t_);
  std::vector<double> flow(setup_.bcs.size(), 0.0);
  for (index n = 0; n < m_.n_owned_nodes; ++n) {
    const int b = setup_.dirichlet_bc[n];
    if (b >= 0) flow[static_cast<std::size_t>(b)] += kt[n] + robin_[n] * t[n] - f[n];
  }
  for (std::size_t b = 0; b < setup_.bcs.size(); ++b)
    if (setup_.bcs[b].kind == heat::BcKind::temperature)
      out.emplace_back(
          "heat_flow_" + m_.patches[static_cast<std::size_t>(setup_.bcs[b].patch)].name,
          global_sum(flow[b]));
}

}  // namespace

std::unique_ptr<Model> make_heat_model(const config::Case& c, const topology::Mesh& mesh,
                                       const backend::Backend& backend, halo::Halo& halo) {
  return std::make_unique<HeatModel>(c, mesh, backend, halo);
}

void check_heat_time(const config::Case& c) {
  if (c.choice("time.mode", kModes) == "steady") return;
  c.choice("time.scheme", kSchemes, "crank-nicolson");
  const TimeControl checked(c, false);
}

}  // namespace scfd::physics
