// Model registry: the word in the case file (physics.model) is the key.
#include <array>
#include <string_view>

#include "physics/heat.hpp"
#include "physics/model.hpp"

namespace scfd::physics {

std::unique_ptr<Model> make_model(const config::Case& c, const topology::Mesh& mesh,
                                  const backend::Backend& backend, halo::Halo& halo) {
  static constexpr std::array<std::string_view, 1> models = {"heat"};
  const std::string model = c.choice("physics.model", models);
  return make_heat_model(c, mesh, backend, halo);
}

}  // namespace scfd::physics
