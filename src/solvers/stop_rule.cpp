// The stopping rule shared by the iterative solvers (see solve_result.hpp).
#include <algorithm>
#include <cmath>

#include "core/collectives.hpp"
#include "solvers/solve_result.hpp"

namespace scfd::solvers {

StopRule stop_rule(const backend::Backend& be, const backend::Field& b, index owned,
                   const SolveOptions& options) {
  const real b_norm = std::sqrt(global_sum(be.dot(b, b, owned)));
  return {std::max(options.relative_tolerance * b_norm, options.absolute_tolerance),
          b_norm > 0 ? b_norm : real(1), b_norm == 0};
}

}  // namespace scfd::solvers
