// What ns-classical and ns-exact share (docs/methods.md): the face-flux state on a Backend, its
// coefficients and boundary data, time-step control, the known part of the face equation
// (Crank-Nicolson convection), the pressure Poisson solve, the output fields and run figures, and
// the FlowAccess the plugins read. A model derives from FlowModel and writes its own advance() (and
// ns-exact its pressure recovery); it reads the step state (FlowState: U, p, coefficients, clock,
// figures) through the read-only `flow_`, and only FlowModel's shared code (finish_step,
// choose_dt, the constructor, a restart) changes it. Internal to the physics module.
#pragma once

#include <array>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "physics/model.hpp"
#include "physics/ns/operators.hpp"
#include "physics/ns/post.hpp"
#include "physics/ns/setup.hpp"
#include "physics/time_control.hpp"

namespace scfd::physics::ns {

// What a step of either model reads and FlowModel's shared step code writes: the time control,
// the mesh factors on the backend, U and p, the pressure solve, the clock and the figures of the
// last step.
struct FlowState {
  explicit FlowState(const config::Case& c) : time(c, true), t(time.start()) {}
  const physics::TimeControl time;
  std::vector<real> face_diagonal;     // per local face: diag(M) (2D: M; 3D: of M_RT)
  std::vector<real> edge_diagonal;     // per local curl entity: diag(W) (2D: W; 3D: of W_mp)
  std::unique_ptr<Coefficients> coef;  // set once in the constructor
  FieldPtr u;                          // faces: U of the current step, with ghosts
  FieldPtr p;                          // cells: kinematic pressure (ns-exact: when recovered)
  std::unique_ptr<PressureSolve> pressure_solve;
  double t = 0, last_dt = 0;  // last_dt: 0 before the first step
  int step = 0;
  // Co = dt max_c sum_f |U_f| / (2 V_c) (OpenFOAM's Courant number, what time.cfl sets), the
  // face CFL number dt max_f |U_f| / (d min V), max|DU| and the relative change per unit time
  // |U^(n+1) - U^n|_M / (dt |U^(n+1)|_M) in the kinetic-energy norm |x|_M^2 = x^T M x, of the
  // last step; max_div: over every step so far.
  double last_courant = 0, last_cfl = 0, last_div = 0, max_div = 0, last_change = 0;
  double rate = 0;            // courant_rate() of the current U (the next step's dt comes from it)
  bool steady = false;        // last_change fell below time.steady_tolerance
  bool noise_warned = false;  // time.steady_tolerance was found within the solver noise
};

class FlowModel : public Model, public FlowAccess {
 public:
  // Model
  std::string name() const override { return name_; }
  bool steady() const override { return false; }
  // The run ends early at a steady state (time.steady_tolerance).
  int total_steps() const override {
    return shared_.steady ? shared_.step
                          : shared_.time.total_steps(shared_.step, shared_.t, shared_.last_dt);
  }
  int step() const override { return shared_.step; }
  double time() const override { return shared_.t; }
  std::vector<HostField> fields(const std::vector<std::string>& names) override;
  std::vector<std::string> field_names() const override {
    return {"velocity", "velocity_nodes", "pressure", "vorticity", "divergence"};
  }
  std::vector<std::pair<std::string, double>> figures() override;
  FlowAccess* flow() override { return this; }
  // U, U^(n-1), p, the advecting fluxes, the clock and the figures; a model adds its own.
  ModelState state() override;
  void state_loaded() override;

  // FlowAccess (pressure() and pressure_costs_a_solve() are the model's)
  const topology::Mesh& mesh() const override { return m_; }
  const backend::Backend& backend() const override { return be_; }
  double density() const override { return setup_.density; }
  double viscosity() const override { return setup_.viscosity; }
  std::optional<Vec3> boundary_velocity(index n) const override {
    return boundary_nodes_(n, shared_.t);
  }
  const Field& fluxes() const override { return *shared_.u; }
  const Field& previous_fluxes() const override { return *u_old_; }
  double last_dt() const override { return shared_.last_dt; }
  const Field& cell_velocity() override;
  const Field& vorticity() override;

 protected:
  // Reads the shared sections, builds the coefficients and the boundary data at time.start.
  // The derived constructor sets the initial velocity.
  FlowModel(const config::Case& c, const topology::Mesh& m, const backend::Backend& be,
            halo::Halo& halo, std::string name);

  std::vector<real> download(const Field& f) const;
  // The face fluxes of the initial velocity (boundary data on fixed faces), not yet projected.
  void initial_fluxes(Field& u) const;
  void upload_boundary(double t);
  // U = U* - A~^-1 G0 psi with (-D A~^-1 G0) psi = -D U* (ns-classical's projection; psi starts
  // from its value and ends with its ghosts, U with its ghosts). u_star must not be u.
  solvers::SolveResult project(const Field& u_star, Field& psi, Field& u,
                               solvers::SolutionProjection* projection = nullptr);
  double choose_dt();
  // The convection of the step is Crank-Nicolson in the convected velocity, with the advecting
  // fluxes extrapolated to the half step: a = U^n + (r/2)(U^n - U^(n-1)), r = dt / dt_old
  // (a = U^n on the first step). Sets a (advecting(), with ghosts) and
  //   y = M U^n - dt/2 C(a) U^n - dt D(a)
  // with C(a) + D(a) the convection of Convection (D: its inflow boundary data); the models add
  // dt/2 C(a) to the left side (MomentumOperator::convection_dt = dt/2).
  void convection_rhs(double dt, Field& y);
  const Field& advecting() const { return *advecting_; }
  // After the velocity of the new step is in flow_.u (with ghosts): advances the clock and measures
  // the Courant number, the face CFL number and max|DU|; SolveError when the velocity is not
  // finite or the Courant number is above time.max_cfl (a diverging run).
  void finish_step(double dt);

  const topology::Mesh& m_;
  const backend::Backend& be_;
  halo::Halo& halo_;
  const Setup setup_;
  // The shared state, read-only to the models: only this class's step code changes it (the
  // models write the values of U and p through the backend, never the members).
  const FlowState& flow_ = shared_;

 private:
  void check_balance(const config::Case& c, const BoundaryData& b) const;
  real courant_rate();  // max_c sum_f |U_f| / (2 V_c): Co per unit time step
  // last_change of the step just taken (U^n in u_old_, convected_ as scratch), and whether
  // the run is steady.
  void measure_change(double dt);

  FlowState shared_;  // declared before everything built from it
  std::string name_;
  EdgeStar wall_star_;  // 3D: the wall map of W_mp (its matrix is on the backend)
  BoundaryNodeVelocity boundary_nodes_;
  Convection convection_;
  FieldPtr u_old_, advecting_, convected_;  // faces: U^(n-1), a, scratch
  FieldPtr face_tmp_, cell_tmp_;            // CFL rate, divergence
  FieldPtr cell_velocity_, circulation_, vorticity_;
  int cell_velocity_step_ = -1, vorticity_step_ = -1;  // the step they hold
};

// A solve's solutions of the last steps, for the next step's initial guess: the quadratic through
// the last three consecutive steps' solutions at their times, evaluated at the next step's
// (3 x^n - 3 x^(n-1) + x^(n-2) for equal steps), x^n + r (x^n - x^(n-1)) with two (r = dt /
// dt_prev).
class SolutionHistory {
 public:
  // Fields of n entries; `known`: how many consecutive steps' solutions the caller's x holds now
  // (0 or 1).
  SolutionHistory(const backend::Backend& be, index n, int known);
  // guess = the extrapolation through x (the last step's solution, not guess itself) and the kept
  // solutions: true; false, guess untouched, while fewer than two steps' are known. Then x is
  // kept, and the solve about to run counts as the next step's.
  // ratio: dt / dt_prev of the step about to run (not finite or <= 0: unknown, taken as 1).
  bool next_guess(const Field& x, real ratio, Field& guess);
  // The last next_guess's weights on x, previous and before_previous: guess = their sum with
  // these weights ({1} where it left guess untouched, which the caller holds x in).
  std::span<const real> weights() const {
    return {weights_.data(), static_cast<std::size_t>(n_weights_)};
  }
  // For a checkpoint: the kept solutions, how many of x, previous and before_previous are
  // consecutive steps', and the last call's ratio (the spacing of x and previous against
  // previous and before_previous).
  Field& previous() { return *previous_; }
  Field& before_previous() { return *before_previous_; }
  int& known() { return known_; }
  real& ratio() { return ratio_; }

 private:
  const backend::Backend& be_;
  FieldPtr previous_, before_previous_;
  int known_;
  real ratio_ = 1;  // the last call's ratio (1 before any)
  std::array<real, 3> weights_{};
  int n_weights_ = 0;
};

// The state of a pressure solve's projection (solvers/projection.hpp) for a checkpoint: cell
// fields NAME_basis_K and NAME_earlier_K, the value NAME_basis_size. A checkpoint without them
// (an earlier release's) restores an empty basis, the fields from NAME.
void add_projection_state(ModelState& s, solvers::SolutionProjection& projection,
                          const std::string& name);

}  // namespace scfd::physics::ns
