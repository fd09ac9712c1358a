// Model registry: the word in the case file (physics.model) is the key; and the helpers of
// model.hpp.
#include <array>
#include <string_view>

#include "physics/heat.hpp"
#include "physics/model.hpp"
#include "physics/ns_classical.hpp"
#include "physics/ns_exact.hpp"

namespace scfd::physics {

void require_converged(const solvers::SolveResult& r, const std::string& what) {
  if (r.converged()) return;
  if (r.status == solvers::SolveStatus::interrupted) throw Interrupted(what + ": " + r.message);
  throw SolveError(what + ": " + r.message);
}

std::unique_ptr<Model> make_model(const config::Case& c, const topology::Mesh& mesh,
                                  const backend::Backend& backend, halo::Halo& halo) {
  static constexpr std::array<std::string_view, 3> models = {"heat", "ns-classical", "ns-exact"};
  const std::string model = c.choice("physics.model", models);
  if (model == "ns-classical") return make_ns_classical_model(c, mesh, backend, halo);
  if (model == "ns-exact") return make_ns_exact_model(c, mesh, backend, halo);
  return make_heat_model(c, mesh, backend, halo);
}

}  // namespace scfd::physics
