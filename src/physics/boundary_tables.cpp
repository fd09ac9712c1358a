#include "physics/boundary_tables.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "config/suggest.hpp"
#include "core/error.hpp"

namespace scfd::physics {

std::vector<std::string> patch_names(const topology::Mesh& m) {
  std::vector<std::string> names;
  for (const auto& p : m.patches) names.push_back(p.name);
  return names;
}

void check_boundary_tables(const config::Case& c, const topology::Mesh& m,
                           const std::string& types) {
  const std::vector<std::string> names = patch_names(m);
  const std::vector<std::string> given =
      c.has("boundary") ? c.table_keys("boundary") : std::vector<std::string>{};
  for (const std::string& g : given)
    if (std::find(names.begin(), names.end(), g) == names.end())
      c.fail("boundary." + g, fmt::format("the mesh {} has no patch '{}' (patches: {}){}", m.source,
                                          g, config::join(names), config::did_you_mean(g, names)));
  for (const std::string& name : names)
    if (std::find(given.begin(), given.end(), name) == given.end())
      throw input_error(
          "{}: patch '{}' of the mesh has no boundary condition: add [boundary.{}] with type = {}",
          c.path(), name, name, types);
}

}  // namespace scfd::physics
