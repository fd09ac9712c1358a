// The [solver] keys that every model reads the same way: the iteration cap of each solve and the
// relative tolerances. InputError (one line naming the key) for values that cannot make a
// sensible run: a cap below 1 or above 10^7 iterations, a tolerance outside [0, 1).
// Internal to the physics module.
#pragma once

#include <string>
#include <string_view>

#include "config/case.hpp"
#include "solvers/solve_result.hpp"

namespace scfd::physics {

inline constexpr long long kMaxIterationsLimit = 10'000'000;

// solver.max_iterations (default 5000).
int read_max_iterations(const config::Case& c);

// solver.check_every: PCG iterations between convergence checks, 0 (automatic, the default) to
// 10^6 (solvers/pcg.hpp).
int read_check_every(const config::Case& c);

// solver.preconditioner: a word of solvers::preconditioner_table() (the PCG solves'
// preconditioner), default_value when the key is absent.
std::string read_preconditioner(const config::Case& c, std::string_view default_value);

// A relative (or absolute) tolerance key: 0 <= value < 1 (the caller asks for > 0 where 0 is not
// allowed).
double read_tolerance(const config::Case& c, const std::string& key, double default_value);

}  // namespace scfd::physics
