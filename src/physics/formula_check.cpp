// Formulas checked on the mesh (see formula_check.hpp).
#include "physics/formula_check.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/collectives.hpp"
#include "core/error.hpp"

namespace scfd::physics {

void check_formula(const config::Case& c, const std::string& key, const config::Expression& e,
                   std::span<const Vec3> points, double t) {
  std::string error;
  if (!e.is_constant())  // a constant was checked when the case was read
    for (const Vec3& x : points) {
      const double v = e(x.x, x.y, x.z, t);
      if (std::isfinite(v)) continue;
      try {
        c.fail(key, fmt::format("the formula '{}' is {} at ({:.6g}, {:.6g}, {:.6g}), t = {:.6g}: "
                                "a field must be finite on the whole mesh",
                                e.text(), config::nonfinite_name(v), x.x, x.y, x.z, t));
      } catch (const InputError& failure) {
        error = failure.what();
      }
      break;
    }
  agree_on_input_error(error);
}

std::vector<Vec3> patch_points(const topology::Mesh& m, int patch) {
  const topology::Patch& p = m.patches[static_cast<std::size_t>(patch)];
  std::vector<Vec3> points;
  for (index n : p.nodes) points.push_back(m.node_x[n]);
  for (index f : p.faces) points.push_back(m.face_centre[f]);
  return points;
}

std::vector<Vec3> mesh_points(const topology::Mesh& m) {
  std::vector<Vec3> points(m.node_x.begin(), m.node_x.end());
  points.insert(points.end(), m.face_centre.begin(), m.face_centre.end());
  return points;
}

}  // namespace scfd::physics
