// The mesh factors and the viscous operator of ns-classical (src/physics/ns_setup.cpp) on the
// committed Gmsh meshes and on generated ones:
//  - K = M C W R M (M = diag(L/A), W = diag(l/A*)) is symmetric, <x, K y> = <K x, y> to
//    round-off, and positive semi-definite: the implicit momentum matrix M + nu dt K is SPD;
//  - the circumcentric dual areas of the nodes of a Delaunay triangle mesh tile the domain:
//    sum_n A*_n = area (no fallback used);
//  - the wall part of the circulation closes the dual cells: for a constant velocity imposed on
//    every patch, Gamma = R M U + B vanishes at every node / edge whose dual edges all have the
//    true circumcentre distance (the others use the fallback length, where closure cannot hold);
//  - for the shear flow u = (y, 0) the discrete vorticity Gamma / A* is -1 to within 10% at
//    every node of a Delaunay triangle mesh, walls included, and 4% in the RMS over the nodes
//    (first order: u·n is taken at the face midpoint, not at the middle of the dual edge);
//  - the pressure reconstruction of probes, lines and wall forces (ns_post.hpp, pressure_at)
//    is exact for a linear pressure, at boundary face centres too (where it extrapolates).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "backend/cpu/operators.hpp"
#include "config/case.hpp"
#include "halo/halo.hpp"
#include "mesh_io/generate.hpp"
#include "mesh_io/gmsh.hpp"
#include "physics/ns_post.hpp"
#include "physics/ns_setup.hpp"
#include "topology/build.hpp"

namespace scfd {
namespace {

using physics::ns::Geometry;
using topology::Mesh;

Mesh load(const std::string& name) {
  if (name == "generated_square")
    return topology::build_mesh(mesh_io::generate_square(12, 10, 0.25, 3));
  if (name == "generated_cube")
    return topology::build_mesh(mesh_io::generate_cube(4, 4, 4, 0.25, 3));
  return topology::build_mesh(mesh_io::read_gmsh(std::string(SCFD_SOURCE_DIR) + "/meshes/" + name));
}

// A case giving every patch of the mesh a prescribed velocity (ux, uy, uz formulas).
config::Case velocity_case(const Mesh& m, const std::string& ux, const std::string& uy) {
  std::string text = "[fluid]\nviscosity = 1\n";
  for (const auto& p : m.patches)
    text += "[boundary." + p.name + "]\ntype = \"velocity\"\nvelocity_x = \"" + ux +
            "\"\nvelocity_y = \"" + uy + "\"\n" + (m.dim == 3 ? "velocity_z = \"0.25\"\n" : "");
  return config::Case::from_string(text, "test.toml");
}

struct Fixture {
  Mesh m;
  halo::Halo halo;
  physics::ns::Setup setup;
  Geometry g;
  Fixture(const std::string& name, const std::string& ux, const std::string& uy)
      : m(load(name)), halo(halo::Halo::build(m, MPI_COMM_WORLD)) {
    const config::Case c = velocity_case(m, ux, uy);
    setup = physics::ns::read_setup(c, m);
    g = physics::ns::build_geometry(m, setup, halo);
  }
  // y = M C W (R M x + extra)
  std::vector<real> viscous(const std::vector<real>& x, const std::vector<real>* extra = nullptr,
                            std::vector<real>* gamma_out = nullptr) const {
    std::vector<real> t(m.n_faces), gamma(m.n_curl()), y(m.n_faces);
    for (index f = 0; f < m.n_faces; ++f) t[f] = g.mass[f] * x[f];
    backend::cpu::rotation(m, t, gamma);
    if (extra != nullptr)
      for (index k = 0; k < m.n_curl(); ++k) gamma[k] += (*extra)[k];
    if (gamma_out != nullptr) *gamma_out = gamma;
    for (index k = 0; k < m.n_curl(); ++k) gamma[k] *= g.dual_weight[k];
    backend::cpu::curl(m, gamma, y);
    for (index f = 0; f < m.n_faces; ++f) y[f] *= g.mass[f];
    return y;
  }
};

std::vector<real> random(std::size_t n, unsigned seed) {
  std::vector<real> v(n);
  unsigned s = seed;
  for (real& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<real>(s >> 8) / static_cast<real>(1u << 24) - 0.5;
  }
  return v;
}

real inner(const std::vector<real>& a, const std::vector<real>& b) {
  real s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

class NsOperator : public ::testing::TestWithParam<std::string> {};
// Closure needs circumcentric dual cells: Delaunay meshes only (the jittered generated meshes
// use the fallback length on most faces).
class NsDelaunay : public ::testing::TestWithParam<std::string> {};

TEST_P(NsOperator, ViscousOperatorIsSymmetricPositive) {
  const Fixture fx(GetParam(), "0", "0");
  const auto x = random(fx.m.n_faces, 1), y = random(fx.m.n_faces, 2);
  const auto kx = fx.viscous(x), ky = fx.viscous(y);
  real scale = 0;
  for (index f = 0; f < fx.m.n_faces; ++f) scale += std::abs(x[f] * ky[f]) + std::abs(y[f] * kx[f]);
  EXPECT_LE(std::abs(inner(x, ky) - inner(kx, y)), 1e-13 * scale);
  EXPECT_GE(inner(x, kx), 0.0);
  for (real w : fx.g.dual_weight) EXPECT_GE(w, 0.0);
  for (real m : fx.g.mass) EXPECT_GT(m, 0.0);
}

TEST_P(NsDelaunay, WallCirculationClosesTheDualCells) {
  Fixture fx(GetParam(), "0.7", "-1.3");
  const Mesh& m = fx.m;
  const physics::ns::BoundaryData b = physics::ns::boundary_data(m, fx.setup, 0.0, fx.halo);
  std::vector<real> u(m.n_faces);
  for (index f = 0; f < m.n_faces; ++f) u[f] = physics::ns::face_flux(m, f, fx.setup.bcs[0].u, 0);
  std::vector<real> gamma;
  fx.viscous(u, &b.circulation, &gamma);
  int checked = 0;
  real worst = 0;
  for (index k = 0; k < m.n_curl(); ++k) {
    bool exact = true;
    for (index f : m.curl_faces.row(k)) exact = exact && fx.g.length[f] == m.face_dist[f];
    if (!exact) continue;
    ++checked;
    worst = std::max(worst, std::abs(gamma[k]));
  }
  EXPECT_GT(checked, m.n_curl() * 8 / 10) << "most dual cells use true circumcentre distances";
  EXPECT_LE(worst, 1e-13) << checked << " of " << m.n_curl() << " checked";
}

TEST(NsOperator2D, DualAreasTileTheSquare) {
  const Fixture fx("cavity-1.msh", "0", "0");
  EXPECT_EQ(fx.g.fallback_duals, 0);
  real area = 0;
  for (real w : fx.g.dual_weight) area += 1 / w;
  EXPECT_NEAR(area, 1.0, 1e-12);
}

TEST(NsOperator2D, ShearFlowVorticity) {
  Fixture fx("cavity-1.msh", "y", "0");
  const Mesh& m = fx.m;
  const physics::ns::BoundaryData b = physics::ns::boundary_data(m, fx.setup, 0.0, fx.halo);
  std::vector<real> u(m.n_faces);
  for (index f = 0; f < m.n_faces; ++f) u[f] = physics::ns::face_flux(m, f, fx.setup.bcs[0].u, 0);
  std::vector<real> gamma;
  fx.viscous(u, &b.circulation, &gamma);
  real worst = 0, sum2 = 0;
  for (index n = 0; n < m.n_nodes; ++n) {
    const real e = gamma[n] * fx.g.dual_weight[n] + 1;
    worst = std::max(worst, std::abs(e));
    sum2 += e * e;
  }
  const real rms = std::sqrt(sum2 / m.n_nodes);
  std::printf("shear flow: vorticity error max %.3e, rms %.3e\n", worst, rms);
  EXPECT_LT(worst, 0.1);
  EXPECT_LT(rms, 0.04);  // measured 0.023 on cavity-1 (max 0.084)
}

TEST_P(NsOperator, PressureReconstructionIsExactForLinearPressure) {
  const Mesh m = load(GetParam());
  const Vec3 grad{0.7, -1.3, 0.4};
  const auto linear = [&](Vec3 x) { return 2.0 + dot(grad, x); };
  std::vector<real> p(static_cast<std::size_t>(m.n_cells));
  for (index c = 0; c < m.n_cells; ++c) p[c] = linear(m.cell_circumcentre[c]);
  const auto lookup = [&](index c) { return p[c]; };
  real worst = 0;
  for (index f = m.n_interior_faces; f < m.n_faces; ++f) {  // wall extrapolation
    const Vec3 x = m.face_centre[f];
    worst = std::max(
        worst, std::abs(physics::ns::pressure_at(m, m.face_cells[2 * f], x, lookup) - linear(x)));
  }
  for (index c = 0; c < m.n_cells; c += 7) {  // inside the cell
    const Vec3 x = m.cell_centroid[c];
    worst = std::max(worst, std::abs(physics::ns::pressure_at(m, c, x, lookup) - linear(x)));
  }
  EXPECT_LT(worst, 1e-10);
}

const auto kName = [](const auto& p) {
  std::string s = p.param;
  for (char& ch : s)
    if (ch == '-' || ch == '.') ch = '_';
  return s;
};

INSTANTIATE_TEST_SUITE_P(Delaunay, NsDelaunay,
                         ::testing::Values("cavity-1.msh", "channel-1.msh", "cavity3d-1.msh"),
                         kName);
INSTANTIATE_TEST_SUITE_P(Meshes, NsOperator,
                         ::testing::Values("cavity-1.msh", "channel-1.msh", "cavity3d-1.msh",
                                           "generated_square", "generated_cube"),
                         kName);

}  // namespace
}  // namespace scfd
