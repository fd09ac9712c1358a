// The forces plugin ([forces]) on an exact state: plane Poiseuille flow u = (4y(1 - y), 0, 0),
// p = 8 nu (1 - x), nu = 0.1, in the unit square (2D) and the unit cube (3D, the same flow,
// z-independent: the extruded 2D geometry). The force of the fluid on the wall y = 0 is exactly
// F = (4 nu, -4 nu, 0) = (0.4, -0.4, 0) per unit depth, in 2D and 3D alike. The state is built
// as the models hold it (face fluxes, the cell velocities of Backend::interpolate, the pressure
// at Mesh::cell_centre, the vorticity per node), so the test measures the force evaluation
// alone, apart from the error of a solver's discrete solution:
//  - the volume method (support: the plane y = 0) converges at order >= 1.8 on
//    meshes/square-1..3 and cube-1..3, and its 3D force per unit depth equals the 2D force to
//    that error;
//  - the 2D surface method is exact here (its wall vorticity is given exactly: a check of its
//    signs and weights); the 3D one, with the wall cell's linear velocity, converges at first
//    order (0.93 measured).
// The solved flows are checked in scripts/validate.sh (DFG 2D-1 and 3D-1Z, docs/methods.md).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "common/run_command.hpp"
#include "config/case.hpp"
#include "mesh_io/gmsh.hpp"
#include "physics/flow_access.hpp"
#include "physics/plugins/plugin_list.hpp"
#include "topology/build.hpp"

namespace scfd {
namespace {

constexpr real kNu = 0.1;

Vec3 velocity(Vec3 x) {
  return {4 * x.y * (1 - x.y), 0, 0};
}
real exact_pressure(Vec3 x) {
  return 8 * kNu * (1 - x.x);
}

class ExactFlow final : public physics::FlowAccess {
 public:
  explicit ExactFlow(const std::string& mesh)
      : m_(topology::build_mesh(
            mesh_io::read_gmsh(std::string(SCFD_SOURCE_DIR) + "/meshes/" + mesh))),
        be_(backend::make_backend("cpu")),
        fluxes_(be_->make_field(m_.n_faces)),
        cell_velocity_(be_->make_field(3 * m_.n_cells)),
        pressure_(be_->make_field(m_.n_cells)),
        vorticity_(be_->make_field(m_.n_curl())) {
    // Fluxes with a rule exact for the quadratic u: Simpson on edges, edge midpoints on triangles.
    std::vector<real> u(static_cast<std::size_t>(m_.n_faces));
    for (index f = 0; f < m_.n_faces; ++f) {
      const int d = m_.dim;
      Vec3 mean{};
      if (d == 2) {
        const Vec3 a = m_.node_x[m_.face_nodes[2 * f]], b = m_.node_x[m_.face_nodes[2 * f + 1]];
        mean = (velocity(a) + 4 * velocity(0.5 * (a + b)) + velocity(b)) / 6;
      } else {
        for (int i = 0; i < 3; ++i)
          mean += velocity(0.5 * (m_.node_x[m_.face_nodes[3 * f + i]] +
                                  m_.node_x[m_.face_nodes[3 * f + (i + 1) % 3]])) /
                  3;
      }
      u[f] = m_.face_area[f] * dot(mean, m_.face_normal[f]);
    }
    be_->upload(u, *fluxes_);
    be_->interpolate(m_, *fluxes_, *cell_velocity_);
    std::vector<real> p(static_cast<std::size_t>(m_.n_cells));
    for (index c = 0; c < m_.n_cells; ++c) p[c] = exact_pressure(m_.cell_centre(c));
    be_->upload(p, *pressure_);
    // 2D: the exact vorticity -du/dy per node.
    std::vector<real> omega(static_cast<std::size_t>(m_.n_curl()));
    if (m_.dim == 2)
      for (index n = 0; n < m_.n_nodes; ++n) omega[n] = 8 * m_.node_x[n].y - 4;
    be_->upload(omega, *vorticity_);
  }

  const topology::Mesh& mesh() const override { return m_; }
  const backend::Backend& backend() const override { return *be_; }
  int step() const override { return 1; }
  double time() const override { return 1; }
  double density() const override { return 1; }
  double viscosity() const override { return kNu; }
  bool pressure_costs_a_solve() const override { return false; }
  // Every patch but the symmetry planes z = 0, 1 prescribes the velocity (the plugin counts the
  // viscous traction of faces where the velocity is given).
  std::optional<Vec3> boundary_velocity(index n) const override {
    const Vec3 x = m_.node_x[n];
    if (x.y < 1e-9 || x.y > 1 - 1e-9 || x.x < 1e-9 || x.x > 1 - 1e-9) return velocity(x);
    return std::nullopt;
  }
  const backend::Field& fluxes() const override { return *fluxes_; }
  const backend::Field& previous_fluxes() const override { return *fluxes_; }  // steady
  double last_dt() const override { return 1; }
  const backend::Field& cell_velocity() override { return *cell_velocity_; }
  const backend::Field& pressure() override { return *pressure_; }
  const backend::Field& vorticity() override { return *vorticity_; }

 private:
  topology::Mesh m_;
  std::unique_ptr<backend::Backend> be_;
  std::unique_ptr<backend::Field> fluxes_, cell_velocity_, pressure_, vorticity_;
};

// The force on the patch "bottom" by `method`, (force_x, force_y).
std::pair<double, double> bottom_force(ExactFlow& flow, const std::string& method) {
  const std::string normal = flow.mesh().dim == 2 ? "[0, 1]" : "[0, 1, 0]";
  const config::Case c =
      config::Case::from_string("[forces]\npatch = \"bottom\"\nmethod = \"" + method + "\"\n" +
                                    (method == "volume" ? "normal = " + normal + "\n" : ""),
                                "forces.toml");
  const auto dir = test::fresh_directory("forces");
  auto plugin = physics::make_forces(c, flow, dir);
  double fx = 0, fy = 0;
  for (const auto& [name, value] : plugin->figures()) {
    if (name == "force_x") fx = value;
    if (name == "force_y") fy = value;
  }
  std::filesystem::remove_all(dir);
  return {fx, fy};
}

// Errors |F - F_exact| on three meshes and the observed order over them (h halves per level).
struct Convergence {
  std::vector<double> fx, fy, error;
  double order() const { return std::log2(error.front() / error.back()) / (error.size() - 1); }
};

Convergence converge(const std::vector<std::string>& meshes, const std::string& method) {
  Convergence out;
  for (const auto& mesh : meshes) {
    ExactFlow flow(mesh);
    const auto [fx, fy] = bottom_force(flow, method);
    out.fx.push_back(fx);
    out.fy.push_back(fy);
    out.error.push_back(std::hypot(fx - 4 * kNu, fy + 4 * kNu));
    std::printf("%s %s: F = (%.6f, %.6f), error %.3e\n", mesh.c_str(), method.c_str(), fx, fy,
                out.error.back());
  }
  std::printf("observed order %.2f\n", out.order());
  return out;
}

const std::vector<std::string> kSquares{"square-1.msh", "square-2.msh", "square-3.msh"};
const std::vector<std::string> kCubes{"cube-1.msh", "cube-2.msh", "cube-3.msh"};

TEST(Forces, VolumeForceConvergesAtSecondOrderIn2D) {
  const Convergence c = converge(kSquares, "volume");
  EXPECT_GE(c.order(), 1.8);
  EXPECT_LT(c.error.back(), 2e-3);
}

// With the exact wall vorticity and a linear pressure the surface sum is exact: this checks
// its signs and weights.
TEST(Forces, SurfaceForceIsExactForExactWallValuesIn2D) {
  const Convergence c = converge(kSquares, "surface");
  for (double e : c.error) EXPECT_LT(e, 1e-12);
}

// 3D: the wall cell's linear velocity (wall values + the fluxes of its other faces).
TEST(Forces, SurfaceForceConvergesIn3D) {
  const Convergence c = converge(kCubes, "surface");
  EXPECT_GE(c.order(), 0.9);
}

TEST(Forces, VolumeForceIn3DEqualsThe2DForceOfTheExtrudedFlow) {
  const Convergence c3 = converge(kCubes, "volume");
  const Convergence c2 = converge(kSquares, "volume");
  EXPECT_GE(c3.order(), 1.8);
  EXPECT_NEAR(c3.fx.back(), c2.fx.back(), 1e-3);
  EXPECT_NEAR(c3.fy.back(), c2.fy.back(), 1e-3);
}

}  // namespace
}  // namespace scfd
