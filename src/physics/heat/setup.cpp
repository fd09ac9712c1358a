// Heat model set-up from the case file (see heat/setup.hpp).
#include "physics/heat/setup.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "config/suggest.hpp"
#include "core/error.hpp"
#include "physics/boundary_tables.hpp"

namespace scfd::physics::heat {
namespace {

void read_material(const config::Case& c, const topology::Mesh& m, Setup& s) {
  const double k = c.get<double>("material.conductivity", 1.0);
  const double rho = c.get<double>("material.density", 1.0);
  const double cp = c.get<double>("material.specific_heat", 1.0);
  std::vector<double> region_k(m.regions.size(), k), region_rc(m.regions.size(), rho * cp);
  if (c.has("material.regions")) {
    for (const std::string& name : c.table_keys("material.regions")) {
      auto it = std::find_if(m.regions.begin(), m.regions.end(),
                             [&](const topology::Region& r) { return r.name == name; });
      if (it == m.regions.end()) {
        std::vector<std::string> names;
        for (const auto& r : m.regions) names.push_back(r.name);
        c.fail("material.regions." + config::key_segment(name),
               fmt::format("the mesh has no region '{}' (regions: {}{})", printable(name),
                           printable(config::join(names)),
                           printable(config::did_you_mean(name, names))));
      }
      const std::string key = "material.regions." + config::key_segment(name) + ".";
      const auto r = static_cast<std::size_t>(it - m.regions.begin());
      region_k[r] = c.get<double>(key + "conductivity", k);
      region_rc[r] = c.get<double>(key + "density", rho) * c.get<double>(key + "specific_heat", cp);
    }
  }
  for (std::size_t r = 0; r < m.regions.size(); ++r) {
    const std::string where =
        m.regions.size() > 1 ? " (region " + printable(m.regions[r].name) + ")" : "";
    if (!(region_k[r] > 0)) c.fail("material.conductivity", "must be > 0" + where);
    if (!(region_rc[r] > 0))
      c.fail("material.density", "density * specific_heat must be > 0" + where);
  }
  s.conductivity.resize(static_cast<std::size_t>(m.n_cells));
  s.heat_capacity.resize(static_cast<std::size_t>(m.n_cells));
  for (index cell = 0; cell < m.n_cells; ++cell) {
    const auto r = static_cast<std::size_t>(m.cell_region[cell]);
    s.conductivity[cell] = region_k[r];
    s.heat_capacity[cell] = region_rc[r];
  }
  s.source = c.function("material.source", 0.0);
}

// Lumped boundary area: each face gives A_f / dim to each of its nodes (exact for P1 integrals
// of a constant flux).
void lump_areas(const topology::Mesh& m, BoundaryCondition& bc) {
  const topology::Patch& p = m.patches[static_cast<std::size_t>(bc.patch)];
  bc.nodes = p.nodes;
  bc.area.assign(bc.nodes.size(), 0);
  for (index f : p.faces) {
    for (int k = 0; k < m.dim; ++k) {
      const index n = m.face_nodes[static_cast<std::size_t>(m.dim) * static_cast<std::size_t>(f) +
                                   static_cast<std::size_t>(k)];
      const auto it = std::lower_bound(bc.nodes.begin(), bc.nodes.end(), n);
      bc.area[static_cast<std::size_t>(it - bc.nodes.begin())] += m.face_area[f] / m.dim;
    }
  }
}

BoundaryCondition read_bc(const config::Case& c, const topology::Mesh& m, int patch) {
  static constexpr std::array<std::string_view, 4> kinds = {"temperature", "heat-flux", "insulated",
                                                            "convection"};
  const std::string key = boundary_key(m, patch);
  BoundaryCondition bc;
  bc.patch = patch;
  const std::string type = c.choice(key + ".type", kinds);
  if (type == "temperature") {
    bc.kind = BcKind::temperature;
    bc.value = c.function(key + ".value");
  } else if (type == "heat-flux") {
    bc.kind = BcKind::heat_flux;
    bc.value = c.function(key + ".value");
  } else if (type == "insulated") {
    bc.kind = BcKind::heat_flux;
    bc.value = config::Expression::constant(0.0);
  } else {
    bc.kind = BcKind::convection;
    bc.h = c.require<double>(key + ".h");
    if (!(bc.h > 0)) c.fail(key + ".h", fmt::format("must be > 0, got {}", bc.h));
    bc.value = c.function(key + ".ambient");
  }
  lump_areas(m, bc);
  return bc;
}

void read_boundaries(const config::Case& c, const topology::Mesh& m, Setup& s) {
  check_boundary_tables(c, m, "temperature | heat-flux | insulated | convection");
  for (std::size_t p = 0; p < m.patches.size(); ++p) {
    s.bcs.push_back(read_bc(c, m, static_cast<int>(p)));
  }
  // Dirichlet wins over flux conditions on shared nodes; among temperature patches the first
  // patch (mesh order) wins.
  s.dirichlet_bc.assign(static_cast<std::size_t>(m.n_nodes), -1);
  for (std::size_t b = 0; b < s.bcs.size(); ++b) {
    if (s.bcs[b].kind != BcKind::temperature) continue;
    for (index n : s.bcs[b].nodes)
      if (s.dirichlet_bc[n] < 0) s.dirichlet_bc[n] = static_cast<int>(b);
  }
}

}  // namespace

Setup read_setup(const config::Case& c, const topology::Mesh& m) {
  Setup s;
  read_material(c, m, s);
  read_boundaries(c, m, s);
  s.has_exact = c.has("verification.temperature");
  if (s.has_exact) s.exact = c.function("verification.temperature");
  return s;
}

}  // namespace scfd::physics::heat
