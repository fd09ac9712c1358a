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

std::string boundary_key(const topology::Mesh& m, int patch) {
  return "boundary." + config::key_segment(m.patches[static_cast<std::size_t>(patch)].name);
}

namespace {

// A name as a message quotes it: 'lid', 'side walls', "it's" (the key's quotes where it has some).
std::string quoted(const std::string& name) {
  const std::string key = config::key_segment(name);
  return printable(key == name ? "'" + name + "'" : key, 60);
}

// The names as a message lists them: each one printable, quoted where a key would be.
std::string listed(const std::vector<std::string>& names) {
  std::vector<std::string> shown;
  for (const std::string& n : names) shown.push_back(printable(config::key_segment(n), 40));
  return config::join(shown);
}

}  // namespace

void check_boundary_tables(const config::Case& c, const topology::Mesh& m,
                           const std::string& types) {
  const std::vector<std::string> names = patch_names(m);
  const std::vector<std::string> given =
      c.has("boundary") ? c.table_keys("boundary") : std::vector<std::string>{};
  for (const std::string& g : given)
    if (std::find(names.begin(), names.end(), g) == names.end())
      c.fail("boundary." + config::key_segment(g),
             fmt::format("the mesh {} has no patch {} (patches: {}){}", m.source, quoted(g),
                         listed(names), printable(config::did_you_mean(g, names))));
  for (std::size_t p = 0; p < names.size(); ++p)
    if (std::find(given.begin(), given.end(), names[p]) == given.end())
      throw input_error(
          "{}: patch {} of the mesh has no boundary condition: add [{}] with type = {}", c.path(),
          quoted(names[p]), printable(boundary_key(m, static_cast<int>(p))), types);
}

}  // namespace scfd::physics
