// The [time] section and the step-size control (see time_control.hpp).
#include "physics/time_control.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "physics/model.hpp"

namespace scfd::physics {

TimeControl::TimeControl(const config::Case& c, bool cfl_allowed) {
  start_ = c.get<double>("time.start", 0.0);
  if (cfl_allowed && c.has("time.dt") == c.has("time.cfl"))
    c.fail("time", "give exactly one of time.dt (fixed step) and time.cfl (target Courant number)");
  if (!cfl_allowed || c.has("time.dt")) {
    dt_ = c.require<double>("time.dt");
    if (!(dt_ > 0)) c.fail("time.dt", fmt::format("must be > 0, got {}", dt_));
  } else {
    fixed_ = false;
    cfl_ = c.require<double>("time.cfl");
    if (!(cfl_ > 0)) c.fail("time.cfl", fmt::format("must be > 0, got {}", cfl_));
    dt_max_ = c.require<double>("time.dt_max");
    if (!(dt_max_ > 0)) c.fail("time.dt_max", fmt::format("must be > 0, got {}", dt_max_));
  }
  if (c.has("time.steps") == c.has("time.end"))
    c.fail("time", "give exactly one of time.steps and time.end");
  if (cfl_allowed) {
    max_cfl_ = c.get<double>("time.max_cfl", 20.0);
    if (!(max_cfl_ > 0)) c.fail("time.max_cfl", fmt::format("must be > 0, got {}", max_cfl_));
    if (!fixed_ && !(cfl_ < max_cfl_))
      c.fail("time.cfl",
             fmt::format("must be below time.max_cfl = {:g}, got {:g}", max_cfl_, cfl_));
    steady_tolerance_ = c.get<double>("time.steady_tolerance", 0.0);
    if (!(steady_tolerance_ >= 0 && steady_tolerance_ < 1))
      c.fail(
          "time.steady_tolerance",
          fmt::format("must be >= 0 and < 1 (0: no steady-state stop), got {}", steady_tolerance_));
  }
  if (c.has("time.steps")) {
    const long long steps = c.require<long long>("time.steps");
    if (steps < 1 || steps > kMaxSteps)
      c.fail("time.steps", fmt::format("must be between 1 and {}, got {}", kMaxSteps, steps));
    steps_ = static_cast<int>(steps);
  } else {
    to_end_ = true;
    end_ = c.require<double>("time.end");
    if (!(end_ > start_)) c.fail("time.end", fmt::format("must be > time.start = {}", start_));
    // The fewest steps the run can take: at dt, or at dt_max under CFL control.
    // At least one: a step longer than the whole run takes one step that ends on time.end.
    const double least =
        std::max(1.0, std::ceil((end_ - start_) / (fixed_ ? dt_ : dt_max_) - 1e-9));
    if (!(least <= kMaxSteps))
      c.fail(fixed_ ? "time.dt" : "time.dt_max",
             fmt::format("{:.3g} steps to time.end = {} (at most {} are run): a larger step or an "
                         "earlier end",
                         least, end_, kMaxSteps));
    if (fixed_) {  // land exactly on the end time
      steps_ = static_cast<int>(least);
      dt_ = (end_ - start_) / steps_;
    }
  }
}

int TimeControl::total_steps(int step, double t, double last_dt) const {
  if (fixed_ || steps_ > 0) return steps_;
  const double left = end_ - t;
  if (left <= 1e-12 * std::max(1.0, std::abs(end_))) return step;
  const double dt = last_dt > 0 ? last_dt : dt_max_;
  const double more = std::min(std::ceil(left / dt - 1e-9), static_cast<double>(kMaxSteps));
  return step + std::max(1, static_cast<int>(more));
}

double TimeControl::next(int step, double t, double rate, double last_dt) const {
  double dt = dt_;
  if (!fixed_) {
    dt = rate > 0 ? std::min(dt_max_, cfl_ / rate) : dt_max_;
    if (last_dt > 0) dt = std::min(dt, 1.2 * last_dt);
    if (dt < 1e-6 * dt_max_)
      throw SolveError(fmt::format(
          "step {}: the Courant-limited time step {:.3g} fell below 1e-6 time.dt_max: the "
          "velocity is growing without bound (unstable run: lower time.cfl; docs/methods.md, "
          "\"Time step\")",
          step + 1, dt));
  }
  if (to_end_ && t + dt > end_ - 1e-9 * dt) dt = end_ - t;
  return dt;
}

}  // namespace scfd::physics
