// The [time] section of a transient case and the step-size control (docs/case-file.md): a fixed
// time.dt, shortened so that a whole number of steps lands exactly on time.end, or (where the
// model allows it: Navier–Stokes) a step from a target Courant number Co (OpenFOAM's:
// dt max_c sum_f |U_f| / (2 V_c), the same in 2D and 3D),
// dt = min(time.dt_max, time.cfl / rate), growing by at most 20% a step (smooth growth keeps the
// extrapolated advecting velocity accurate); the run ends after time.steps steps or at time.end.
// Internal to the physics module.
#pragma once

#include "config/case.hpp"

namespace scfd::physics {

// The most steps one run may take (more is a mistake in time.dt, time.end or time.steps).
inline constexpr long long kMaxSteps = 1'000'000'000;

class TimeControl {
 public:
  // InputError for missing, conflicting or non-positive keys. Without `cfl_allowed`, time.dt is
  // required and time.cfl is not a key of the model.
  TimeControl(const config::Case& c, bool cfl_allowed);

  double start() const { return start_; }
  // The fixed step (landing on time.end) and, with a fixed step or time.steps, the step count.
  double fixed_dt() const { return dt_; }
  // Whether next() needs the CFL rate (a CFL-controlled step).
  bool cfl_controlled() const { return !fixed_; }
  // time.max_cfl: a Courant number above it is taken for divergence (models with one only).
  double max_cfl() const { return max_cfl_; }
  // time.steady_tolerance (0: none): the run ends before time.end once the change of the state
  // per unit time, relative to its size, falls below it (models with a CFL number only).
  double steady_tolerance() const { return steady_tolerance_; }
  // The steps of the whole run after `step` steps at time t with last step size last_dt (0
  // before the first step): exact for a fixed dt or time.steps, an estimate at the current dt
  // under CFL control to an end time.
  int total_steps(int step, double t, double last_dt) const;
  // The size of step `step` + 1 from time t: the fixed dt, or time.cfl / rate with rate the
  // Courant number per unit step, max_c sum_f |U_f| / (2 V_c); clipped to land on time.end.
  // SolveError when the Courant limit drives the step below 1e-6 time.dt_max (a velocity
  // growing without bound).
  double next(int step, double t, double rate, double last_dt) const;

 private:
  double start_ = 0, dt_ = 0, cfl_ = 0, dt_max_ = 0, end_ = 0, max_cfl_ = 0;
  double steady_tolerance_ = 0;
  bool fixed_ = true;
  bool to_end_ = false;  // time.end given (else time.steps)
  int steps_ = 0;        // 0: run to end_ under CFL control
};

}  // namespace scfd::physics
