// The shared [solver] keys (see solver_settings.hpp).
#include "physics/solver_settings.hpp"

#include <fmt/format.h>

#include "solvers/preconditioner.hpp"

namespace scfd::physics {

int read_max_iterations(const config::Case& c) {
  const long long n = c.get<long long>("solver.max_iterations", 5000);
  if (n < 1 || n > kMaxIterationsLimit)
    c.fail("solver.max_iterations",
           fmt::format("must be between 1 and {}, got {}", kMaxIterationsLimit, n));
  return static_cast<int>(n);
}

int read_check_every(const config::Case& c) {
  const long long n = c.get<long long>("solver.check_every", 0);
  if (n < 0 || n > 1'000'000)
    c.fail("solver.check_every",
           fmt::format("must be 0 (automatic) or between 1 and 1000000, got {}", n));
  return static_cast<int>(n);
}

std::string read_preconditioner(const config::Case& c, std::string_view default_value) {
  return c.choice("solver.preconditioner", solvers::preconditioner_names(), default_value);
}

double read_tolerance(const config::Case& c, const std::string& key, double default_value) {
  const double tol = c.get<double>(key, default_value);
  if (!(tol >= 0 && tol < 1))
    c.fail(key, fmt::format("must be >= 0 and < 1 (a relative residual), got {}", tol));
  return tol;
}

}  // namespace scfd::physics
