// The forces plugin ([forces]): the force of the fluid on one patch (2D, per unit depth) after
// every step, to OUTPUT/forces.csv, and at the end as the figures force_x, force_y,
// drag_coefficient and lift_coefficient (c = F / (1/2 density U^2 L) with the reference velocity
// and length of the section).
//
// The force is the sum over the patch's faces of A_f (p n_f - mu omega (z x n_f)), n_f the
// outward normal of the domain (into the body), p = density x the kinematic pressure
// extrapolated from the wall cell to the face centre (ns::pressure_at), omega the mean of the
// two node vorticities Gamma / A* (Gamma the discrete circulation with its wall part,
// FlowAccess::circulation; docs/methods.md, "Forces").
#include <fmt/format.h>

#include <algorithm>

#include "config/suggest.hpp"
#include "physics/boundary_tables.hpp"
#include "physics/ns_post.hpp"
#include "physics/plugins/csv_file.hpp"
#include "physics/plugins/plugin_list.hpp"
#include "solvers/collectives.hpp"

namespace scfd::physics {
namespace {

// This rank's share of the force on `patch`.
Vec3 patch_force(const topology::Mesh& m, int patch, std::span<const real> pressure,
                 std::span<const real> gamma, std::span<const real> dual_weight, real density,
                 real viscosity) {
  Vec3 force{};
  for (index f : m.patches[static_cast<std::size_t>(patch)].faces) {
    if (f >= m.n_owned_faces) continue;
    const Vec3 n = m.face_normal[f];
    const index n0 = m.face_nodes[2 * f], n1 = m.face_nodes[2 * f + 1];
    const real omega = 0.5 * (gamma[n0] * dual_weight[n0] + gamma[n1] * dual_weight[n1]);
    const real p = density * ns::pressure_at(m, m.face_cells[2 * f], m.face_centre[f],
                                             [&](index c) { return pressure[c]; });
    const Vec3 z_cross_n{-n.y, n.x, 0};
    force += m.face_area[f] * (p * n - (density * viscosity * omega) * z_cross_n);
  }
  return force;
}

class Forces final : public Plugin {
 public:
  Forces(FlowAccess& flow, int patch, double velocity, double length,
         const std::filesystem::path& file)
      : flow_(flow),
        patch_(patch),
        q_(0.5 * flow.density() * velocity * velocity * length),
        csv_(file, "step,time,force_x,force_y,drag_coefficient,lift_coefficient") {}

  void start() override { csv_.create(); }

  void after_step() override {
    const Vec3 f = force();
    csv_.append(fmt::format("{},{:.10g},{:.10g},{:.10g},{:.10g},{:.10g}\n", flow_.step(),
                            flow_.time(), f.x, f.y, f.x / q_, f.y / q_));
  }

  std::vector<std::pair<std::string, double>> figures() override {
    const Vec3 f = force();
    return {{"force_x", f.x},
            {"force_y", f.y},
            {"drag_coefficient", f.x / q_},
            {"lift_coefficient", f.y / q_}};
  }

 private:
  Vec3 force() {
    const backend::Backend& be = flow_.backend();
    std::vector<real> p(static_cast<std::size_t>(flow_.mesh().n_cells));
    be.download(flow_.pressure(), p);
    std::vector<real> gamma(static_cast<std::size_t>(flow_.mesh().n_curl()));
    be.download(flow_.circulation(), gamma);
    const Vec3 f = patch_force(flow_.mesh(), patch_, p, gamma, flow_.dual_weight(), flow_.density(),
                               flow_.viscosity());
    const auto [fx, fy] = solvers::global_sum(std::pair<real, real>{f.x, f.y});
    return {fx, fy, 0};
  }

  FlowAccess& flow_;
  int patch_;
  double q_;  // the dynamic pressure times the reference length
  CsvFile csv_;
};

}  // namespace

std::unique_ptr<Plugin> make_forces(const config::Case& c, FlowAccess& flow,
                                    const std::filesystem::path& output_dir) {
  const topology::Mesh& m = flow.mesh();
  const std::string name = c.require<std::string>("forces.patch");
  const std::vector<std::string> names = patch_names(m);
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end())
    c.fail("forces.patch", fmt::format("the mesh has no patch '{}' (patches: {}){}", name,
                                       config::join(names), config::did_you_mean(name, names)));
  if (m.dim != 2) c.fail("forces.patch", "forces are computed on 2D meshes only for now");
  const double velocity = c.get<double>("forces.reference_velocity", 1.0);
  const double length = c.get<double>("forces.reference_length", 1.0);
  if (!(velocity > 0 && length > 0))
    c.fail("forces.reference_velocity", "reference velocity and length must be > 0");
  return std::make_unique<Forces>(flow, static_cast<int>(it - names.begin()), velocity, length,
                                  output_dir / "forces.csv");
}

}  // namespace scfd::physics
