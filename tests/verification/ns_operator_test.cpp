// The mesh factors and the viscous operator of ns-classical (src/physics/ns/setup.cpp) on the
// committed Gmsh meshes and on generated ones:
//  - K = M C W R M (2D: M = diag(L/A), W = diag(1/A*); 3D: M_RT and W_mp, ns/hodge.hpp) is
//    symmetric, <x, K y> = <K x, y> to round-off, and positive semi-definite: the implicit
//    momentum matrix M + nu dt K is SPD;
//  - the circumcentric dual areas of the nodes of a Delaunay triangle mesh tile the domain:
//    sum_n A*_n = area (no fallback used);
//  - the wall part of the circulation closes the dual cells: for a constant velocity imposed on
//    every patch, Gamma = R M U + B vanishes at every node whose dual edges all have the true
//    circumcentre distance (the others use the fallback length, where closure cannot hold); in
//    3D the vorticity W_mp R M_RT U + beta vanishes on every edge;
//  - for the shear flow u = (y, 0) the discrete vorticity Gamma / A* is -1 to within 10% at
//    every node of a Delaunay triangle mesh, walls included, and 4% in the RMS over the nodes
//    (first order: u·n is taken at the face midpoint, not at the middle of the dual edge);
//  - the pressure reconstruction of probes, lines and wall forces (ns/post.hpp, pressure_at)
//    is exact for a linear pressure, at boundary face centres too (where it extrapolates);
//  - ns-exact's system R (M + nu dt K) C (StreamOperator, on the cpu backend) is symmetric and
//    positive; in 3D the edge gradients of node functions are its null space (C G = 0), so the
//    system is singular but consistent; its Jacobi diagonal is the operator's (3D: see the test);
//  - on non-Delaunay tetrahedra the central convection is energy-neutral (x^T C(a) x = 0 for
//    divergence-free a without boundary flux), upwind dissipative; Perot's cell reconstruction
//    of a linear field is first order (exact for a constant one); the 3D stars themselves are
//    checked in hodge3d_test.cpp;
//  - ns-exact's streamfunction boundary values (ns/stream.hpp) reproduce the prescribed boundary
//    fluxes, C s = flux on every boundary face; a second boundary (the cylinder) is a chain whose
//    constant is solved for; a closed loop with net flux and 3D inflow/outlets are input errors.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "backend/cpu/operators.hpp"
#include "config/case.hpp"
#include "core/error.hpp"
#include "halo/halo.hpp"
#include "mesh_io/generate.hpp"
#include "mesh_io/gmsh.hpp"
#include "physics/ns/flow.hpp"
#include "physics/ns/operators.hpp"
#include "physics/ns/post.hpp"
#include "physics/ns/setup.hpp"
#include "physics/ns/stream.hpp"
#include "physics/ns/stream_operator.hpp"
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
  // y = M x (2D: diag(L/A); 3D: M_RT; a serial mesh owns every face).
  std::vector<real> mass(const std::vector<real>& x) const {
    std::vector<real> y(x.size());
    physics::ns::host_apply(g.face_star.matrix, x, y);
    return y;
  }
  // 2D: y = M C W (R M x + extra); 3D: y = M C (W R M x + extra) with M_RT and W_mp. gamma_out:
  // the circulation R M x (+ extra in 2D).
  std::vector<real> viscous(const std::vector<real>& x, const std::vector<real>* extra = nullptr,
                            std::vector<real>* gamma_out = nullptr) const {
    std::vector<real> gamma(m.n_curl()), y(m.n_faces);
    backend::cpu::rotation(m, mass(x), gamma);
    if (extra != nullptr && m.dim == 2)
      for (index k = 0; k < m.n_curl(); ++k) gamma[k] += (*extra)[k];
    if (gamma_out != nullptr) *gamma_out = gamma;
    std::vector<real> w(gamma.size());
    physics::ns::host_apply(g.edge_star.matrix, gamma, w);
    gamma = w;
    if (extra != nullptr && m.dim == 3)
      for (index k = 0; k < m.n_curl(); ++k) gamma[k] += (*extra)[k];
    backend::cpu::curl(m, gamma, y);
    return mass(y);
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
// use the fallback length on most faces; on Gmsh tetrahedra the 3D bound of L_f changes about
// one face in eight, so a little over half of the dual cells are untouched).
class NsDelaunay : public ::testing::TestWithParam<std::string> {};

TEST_P(NsOperator, ViscousOperatorIsSymmetricPositive) {
  const Fixture fx(GetParam(), "0", "0");
  const auto x = random(fx.m.n_faces, 1), y = random(fx.m.n_faces, 2);
  const auto kx = fx.viscous(x), ky = fx.viscous(y);
  real scale = 0;
  for (index f = 0; f < fx.m.n_faces; ++f) scale += std::abs(x[f] * ky[f]) + std::abs(y[f] * kx[f]);
  EXPECT_LE(std::abs(inner(x, ky) - inner(kx, y)), 1e-13 * scale);
  EXPECT_GE(inner(x, kx), 0.0);
  for (real w : fx.g.edge_star.diagonal) EXPECT_GE(w, 0.0);
  for (real m : fx.g.face_star.diagonal) EXPECT_GT(m, 0.0);
}

TEST_P(NsDelaunay, WallCirculationClosesTheDualCells) {
  Fixture fx(GetParam(), "0.7", "-1.3");
  const Mesh& m = fx.m;
  const physics::ns::BoundaryData b =
      physics::ns::boundary_data(m, fx.setup, 0.0, fx.halo, &fx.g.edge_wall);
  std::vector<real> u(m.n_faces);
  for (index f = 0; f < m.n_faces; ++f) u[f] = physics::ns::face_flux(m, f, fx.setup.bcs[0].u, 0);
  std::vector<real> gamma;
  fx.viscous(u, &b.circulation, &gamma);
  if (m.dim == 3) {  // the multipoint star is consistent on every edge: omega = W Gamma + beta = 0
    std::vector<real> omega(gamma.size());
    physics::ns::host_apply(fx.g.edge_star.matrix, gamma, omega);
    real worst = 0, scale = 0;
    for (index k = 0; k < m.n_curl(); ++k) {
      worst = std::max(worst, std::abs(omega[k] + b.circulation[k]));
      scale = std::max(scale, std::abs(b.circulation[k]));
    }
    EXPECT_LE(worst, 1e-12 * scale);
    return;
  }
  int checked = 0;
  real worst = 0;
  for (index k = 0; k < m.n_curl(); ++k) {
    bool exact = true;
    for (index f : m.curl_faces.row(k)) exact = exact && fx.g.length[f] == m.face_dist[f];
    if (!exact) continue;
    ++checked;
    worst = std::max(worst, std::abs(gamma[k]));
  }
  EXPECT_GT(checked, m.n_curl() / 2) << "most dual cells use true circumcentre distances";
  EXPECT_LE(worst, 1e-13) << checked << " of " << m.n_curl() << " checked";
}

TEST(NsOperator2D, DualAreasTileTheSquare) {
  const Fixture fx("cavity-1.msh", "0", "0");
  EXPECT_EQ(fx.g.fallback_duals, 0);
  real area = 0;
  for (real w : fx.g.edge_star.diagonal) area += 1 / w;
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
    const real e = gamma[n] * fx.g.edge_star.diagonal[n] + 1;
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
  for (index c = 0; c < m.n_cells; ++c) p[c] = linear(m.cell_centre(c));
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

// The ns-exact system on the cpu backend, nu dt = 0.7, no entity eliminated.
struct StreamFixture : Fixture {
  std::unique_ptr<backend::Backend> be = backend::make_backend("cpu");
  std::unique_ptr<physics::ns::Coefficients> coef;
  std::unique_ptr<physics::ns::StreamOperator> op;
  explicit StreamFixture(const std::string& name) : Fixture(name, "0", "0") {
    coef = std::make_unique<physics::ns::Coefficients>(*be, m, g);
    op = std::make_unique<physics::ns::StreamOperator>(m, *be, halo, *coef, g.face_star.diagonal,
                                                       g.edge_star.diagonal, 0.0);
    op->nu_dt = 0.7;
  }
  // R (M + nu dt M C W R M) C x on the host (the definition).
  std::vector<real> reference(const std::vector<real>& x) const {
    std::vector<real> u(static_cast<std::size_t>(m.n_faces)), y(x.size());
    backend::cpu::curl(m, x, u);
    std::vector<real> k = viscous(u);
    const std::vector<real> mu = mass(u);
    for (index f = 0; f < m.n_faces; ++f) k[f] = mu[f] + 0.7 * k[f];
    backend::cpu::rotation(m, k, y);
    return y;
  }
  std::vector<real> full(const std::vector<real>& x) const {
    auto fx = be->make_field_from(x);
    auto fy = be->make_field(m.n_curl());
    op->full(*fx, *fy);
    std::vector<real> y(x.size());
    be->download(*fy, y);
    return y;
  }
};

TEST_P(NsOperator, StreamSystemIsSymmetricPositive) {
  const StreamFixture fx(GetParam());
  const auto n = static_cast<std::size_t>(fx.m.n_curl());
  const auto x = random(n, 3), y = random(n, 4);
  const auto kx = fx.full(x), ky = fx.full(y);
  // L + nu dt L W L (assembled L in 2D) is R A C.
  const auto ref = fx.reference(x);
  real big = 0;
  for (real v : ref) big = std::max(big, std::abs(v));
  for (std::size_t k = 0; k < n; ++k) EXPECT_NEAR(kx[k], ref[k], 1e-12 * big) << "entity " << k;
  real scale = 0;
  for (std::size_t k = 0; k < n; ++k) scale += std::abs(x[k] * ky[k]) + std::abs(y[k] * kx[k]);
  EXPECT_LE(std::abs(inner(x, ky) - inner(kx, y)), 1e-13 * scale);
  EXPECT_GT(inner(x, kx), 0.0);
}

TEST(NsOperator3D, EdgeGradientsAreTheStreamNullSpace) {
  for (const char* name : {"cavity3d-1.msh", "generated_cube"}) {
    const StreamFixture fx(name);
    const Mesh& m = fx.m;
    const auto phi = random(static_cast<std::size_t>(m.n_nodes), 5);
    std::vector<real> grad(static_cast<std::size_t>(m.n_edges));
    for (index e = 0; e < m.n_edges; ++e)
      grad[e] = phi[m.edge_nodes[2 * e + 1]] - phi[m.edge_nodes[2 * e]];
    const auto kg = fx.full(grad), kx = fx.full(random(grad.size(), 6));
    real worst = 0, scale = 0;
    for (std::size_t k = 0; k < grad.size(); ++k) {
      worst = std::max(worst, std::abs(kg[k]));
      scale = std::max(scale, std::abs(kx[k]));
    }
    EXPECT_LE(worst, 1e-13 * scale) << name;
  }
}

// The central convection C(a) x = J N_a(I x) neither creates nor destroys x^T x in the interior
// on tetrahedra that are far from Delaunay (cavity3d-1: 1.2% of its faces have a negative
// circumcentric dual length, 12% are bounded): for divergence-free fluxes a and x without
// boundary flux (curls of edge values that vanish on the boundary), x^T C(a) x = 0 to round-off.
// Upwinding only removes energy. So no instability of the 3D step comes from the spatial
// operator: it came from the time integrator (docs/methods.md, "3D on tetrahedral meshes").
TEST(NsOperator3D, ConvectionIsEnergyNeutralOnNonDelaunayTets) {
  StreamFixture fx("cavity3d-1.msh");
  const Mesh& m = fx.m;
  std::vector<char> on_boundary(static_cast<std::size_t>(m.n_edges), 0);
  for (const auto& p : m.patches)
    for (index e : p.edges) on_boundary[e] = 1;
  const auto divergence_free = [&](unsigned seed) {
    std::vector<real> s = random(static_cast<std::size_t>(m.n_edges), seed);
    for (index e = 0; e < m.n_edges; ++e)
      if (on_boundary[e]) s[e] = 0;
    std::vector<real> u(static_cast<std::size_t>(m.n_faces));
    backend::cpu::curl(m, s, u);
    return u;
  };
  const auto a = divergence_free(7), x = divergence_free(8);
  for (real upwind : {0.0, 1.0}) {
    const physics::ns::Convection convection(m, *fx.be, fx.halo, upwind);
    auto fa = fx.be->make_field_from(a), fx_ = fx.be->make_field_from(x);
    auto fy = fx.be->make_field(m.n_faces);
    convection.apply(*fa, *fx_, convection.zero_boundary(), *fy);
    std::vector<real> y(x.size());
    fx.be->download(*fy, y);
    real scale = 0;
    for (std::size_t f = 0; f < x.size(); ++f) scale += std::abs(x[f] * y[f]);
    if (upwind == 0) {
      EXPECT_LE(std::abs(inner(x, y)), 1e-13 * scale) << "central";
    } else {
      EXPECT_GT(inner(x, y), 0.0) << "upwind removes energy (y is +C x)";
    }
  }
}

// Perot's cell reconstruction I U of a linear velocity field on Gmsh tetrahedra is first order:
// the RMS error at the cell centroids falls about linearly with h over meshes/cube-1..3 (the
// test prints the figures), and a constant field is reconstructed exactly.
TEST(NsOperator3D, CellReconstructionOfLinearFieldsIsFirstOrder) {
  std::vector<double> h, err;
  for (const char* name : {"cube-1.msh", "cube-2.msh", "cube-3.msh"}) {
    const Mesh m = load(name);
    const auto be = backend::make_backend("cpu");
    const auto field = [](Vec3 p) { return Vec3{p.y + 0.5 * p.z, -p.x + 0.3, 0.7 * p.x - p.y}; };
    for (int constant = 1; constant >= 0; --constant) {
      std::vector<real> u(static_cast<std::size_t>(m.n_faces));
      for (index f = 0; f < m.n_faces; ++f)  // exact face flux of a linear field: at the centroid
        u[f] = m.face_area[f] *
               dot(constant ? Vec3{0.3, -0.2, 0.9} : field(m.face_centre[f]), m.face_normal[f]);
      auto fu = be->make_field_from(u);
      auto fc = be->make_field(3 * m.n_cells);
      be->interpolate(m, *fu, *fc);
      std::vector<real> uc(3 * static_cast<std::size_t>(m.n_cells));
      be->download(*fc, uc);
      real e2 = 0;
      for (index c = 0; c < m.n_cells; ++c) {
        const Vec3 want = constant ? Vec3{0.3, -0.2, 0.9} : field(m.cell_centroid[c]);
        const Vec3 got{uc[3 * c], uc[3 * c + 1], uc[3 * c + 2]};
        e2 += dot(got - want, got - want);
      }
      const real rms = std::sqrt(e2 / m.n_cells);
      if (constant) {
        EXPECT_LE(rms, 1e-12) << name << ": a constant field is reconstructed exactly";
      } else {
        h.push_back(std::cbrt(1.0 / m.n_cells));
        err.push_back(rms);
      }
    }
  }
  for (std::size_t k = 1; k < h.size(); ++k) {
    const double order = std::log(err[k - 1] / err[k]) / std::log(h[k - 1] / h[k]);
    std::printf("reconstruction of a linear field: h %.3f -> %.3f, RMS %.3e -> %.3e, order %.2f\n",
                h[k - 1], h[k], err[k - 1], err[k], order);
    EXPECT_GT(order, 0.7);
    EXPECT_LT(order, 1.5) << "not second order on these meshes";
  }
}

// The Jacobi diagonal the operator assembles on the host is its own, e_k . R A C e_k: exactly
// in 2D; in 3D that of S + nu dt S diag(W_mp) S, which takes the off-diagonal couplings of the
// vertex blocks out of S W_mp S (a rank sees the rows of W_mp of its owned edges only): there
// the mass part is exact and the whole within a factor 2.
TEST(NsOperator, StreamDiagonalMatchesTheOperator) {
  for (const char* name : {"cavity-1.msh", "cavity3d-1.msh"}) {
    const StreamFixture fx(name);
    const Mesh& m = fx.m;
    auto d = fx.be->make_field(m.n_curl());
    fx.op->diagonal(*d);
    std::vector<real> diag(static_cast<std::size_t>(m.n_curl()));
    fx.be->download(*d, diag);
    for (index k : {index{0}, index{7}, m.n_curl() / 2, m.n_owned_curl() - 1}) {
      std::vector<real> e(static_cast<std::size_t>(m.n_curl()), 0);
      e[k] = 1;
      const real want = fx.full(e)[k];
      if (m.dim == 2) {
        EXPECT_NEAR(diag[k], want, 1e-12 * want) << name << " entity " << k;
      } else {
        EXPECT_GT(diag[k], 0.5 * want) << name << " entity " << k;
        EXPECT_LT(diag[k], 2 * want) << name << " entity " << k;
      }
    }
  }
}

// The streamfunction boundary of the mesh for a case made of [fluid] and the [boundary.*] `text`.
// `flux` (if given) receives the prescribed face fluxes.
physics::ns::StreamBoundary stream_boundary(const Mesh& m, halo::Halo& halo,
                                            const std::string& text,
                                            std::vector<real>* flux = nullptr) {
  const config::Case c = config::Case::from_string("[fluid]\nviscosity = 1\n" + text, "t.toml");
  const physics::ns::Setup setup = physics::ns::read_setup(c, m);
  const physics::ns::BoundaryData b = physics::ns::boundary_data(m, setup, 0.0, halo);
  if (flux != nullptr) *flux = b.flux;
  return physics::ns::stream_boundary(m, setup, b.flux, "t.toml");
}

TEST(NsStream, BoundaryValuesReproduceTheBoundaryFluxes) {
  Fixture fx("cavity-1.msh", "0.7", "-1.3");
  const Mesh& m = fx.m;
  std::string text;
  for (const auto& p : m.patches)
    text += "[boundary." + p.name +
            "]\ntype = \"velocity\"\nvelocity_x = \"0.7 + y\"\nvelocity_y = \"-1.3 + x\"\n";
  std::vector<real> flux;
  const physics::ns::StreamBoundary sb = stream_boundary(m, fx.halo, text, &flux);
  EXPECT_TRUE(sb.chains.empty());
  int boundary_faces = 0;
  for (index f = 0; f < m.n_faces; ++f) {
    if (!m.is_boundary_face(f)) continue;
    ++boundary_faces;
    const index n0 = m.face_curl[2 * f], n1 = m.face_curl[2 * f + 1];
    EXPECT_EQ(sb.fixed[n0], 1);
    EXPECT_EQ(sb.fixed[n1], 1);
    const real cs =
        m.face_curl_sign[2 * f] * sb.value[n0] + m.face_curl_sign[2 * f + 1] * sb.value[n1];
    EXPECT_NE(flux[f], 0);
    EXPECT_NEAR(cs, flux[f], 1e-13) << "face " << f;
  }
  EXPECT_GT(boundary_faces, 0);
}

TEST(NsStream, CylinderIsASecondChain) {
  const Mesh m = topology::build_mesh(
      mesh_io::read_gmsh(std::string(SCFD_SOURCE_DIR) + "/meshes/channel2d-cylinder-1.msh"));
  halo::Halo halo = halo::Halo::build(m, MPI_COMM_WORLD);
  const physics::ns::StreamBoundary sb =
      stream_boundary(m, halo,
                      "[boundary.inlet]\ntype = \"velocity\"\nvelocity_x = \"y*(0.41-y)\"\n"
                      "[boundary.walls]\ntype = \"wall\"\n[boundary.cylinder]\ntype = \"wall\"\n"
                      "[boundary.outlet]\ntype = \"outlet\"\n");
  ASSERT_EQ(sb.chains.size(), 1u);
  EXPECT_EQ(sb.chain_patches[0], "cylinder");
  // The top wall carries the whole inflow: s there is the inlet flux int_0^0.41 y (0.41 - y) dy.
  const real q = 0.41 * 0.41 * 0.41 / 6;
  for (index n = 0; n < m.n_nodes; ++n) {
    if (std::abs(m.node_x[n].y - 0.41) > 1e-12 || sb.fixed[n] == 0) continue;
    EXPECT_NEAR(std::abs(sb.value[n]), q, 1e-6) << "node " << n;  // Simpson: exact for the parabola
  }
}

TEST(NsStream, UnbalancedLoopsAndSurfacesAreInputErrors) {
  {
    const Mesh m = load("cavity-1.msh");
    halo::Halo halo = halo::Halo::build(m, MPI_COMM_WORLD);
    std::string text;
    for (const auto& p : m.patches)
      text += "[boundary." + p.name + "]\ntype = \"velocity\"\nvelocity_x = \"x\"\n";
    EXPECT_THROW(stream_boundary(m, halo, text), InputError);
  }
  // The cube's lid blows in with no outlet: the closed surface carries a net flux.
  const Mesh m = load("cavity3d-1.msh");
  halo::Halo halo = halo::Halo::build(m, MPI_COMM_WORLD);
  EXPECT_THROW(stream_boundary(m, halo,
                               "[boundary.lid]\ntype = \"velocity\"\nvelocity_y = \"-1\"\n"
                               "[boundary.walls]\ntype = \"wall\"\n"),
               InputError);
}

// C s reproduces the flux of every face whose flux is data, with `generators` free values.
void expect_surface_fluxes(const std::string& mesh, const std::string& text,
                           std::size_t generators) {
  const Mesh m = load(mesh);
  halo::Halo halo = halo::Halo::build(m, MPI_COMM_WORLD);
  std::vector<real> flux;
  const physics::ns::StreamBoundary sb = stream_boundary(m, halo, text, &flux);
  EXPECT_EQ(sb.chains.size(), generators) << mesh;
  const auto cs = [&](const std::vector<real>& s, index f) {
    real v = 0;
    for (int j = 0; j < 3; ++j) v += m.face_curl_sign[3 * f + j] * s[m.face_curl[3 * f + j]];
    return v;
  };
  const config::Case c = config::Case::from_string("[fluid]\nviscosity = 1\n" + text, "t.toml");
  const physics::ns::Setup setup = physics::ns::read_setup(c, m);
  real scale = 0;
  for (real x : flux) scale = std::max(scale, std::abs(x));
  int data_faces = 0;
  for (index f = 0; f < m.n_faces; ++f) {
    if (!m.is_boundary_face(f)) continue;
    if (setup.bcs[static_cast<std::size_t>(m.face_patch[f])].kind == physics::ns::BcKind::outlet) {
      continue;
    }
    ++data_faces;
    for (int j = 0; j < 3; ++j) EXPECT_EQ(sb.fixed[m.face_curl[3 * f + j]], 1);
    EXPECT_NEAR(cs(sb.value, f), flux[f], 1e-12 * scale) << "face " << f;
    for (const auto& h : sb.chains) EXPECT_NEAR(cs(h, f), 0, 1e-12) << "face " << f;
  }
  EXPECT_GT(data_faces, 0);
}

TEST(NsStream, SurfaceValuesReproduceTheFluxes3d) {
  // Inflow, walls and an outlet: F is a disk, no generator.
  expect_surface_fluxes("cube-1.msh",
                        "[boundary.left]\ntype = \"velocity\"\n"
                        "velocity_x = \"36*y*(1-y)*z*(1-z)\"\nvelocity_y = \"0.1*z\"\n"
                        "[boundary.right]\ntype = \"outlet\"\n"
                        "[boundary.bottom]\ntype = \"wall\"\n[boundary.top]\ntype = \"wall\"\n"
                        "[boundary.front]\ntype = \"wall\"\n[boundary.back]\ntype = \"wall\"\n",
                        0);
  // Two outlets: F is a tube (an annulus), one generator (the flux through it).
  expect_surface_fluxes("cube-1.msh",
                        "[boundary.left]\ntype = \"outlet\"\n[boundary.right]\ntype = \"outlet\"\n"
                        "[boundary.bottom]\ntype = \"wall\"\n[boundary.top]\ntype = \"wall\"\n"
                        "[boundary.front]\ntype = \"wall\"\n[boundary.back]\ntype = \"wall\"\n",
                        1);
  // A closed wall surface with a lid: no generator.
  expect_surface_fluxes("cavity3d-1.msh",
                        "[boundary.lid]\ntype = \"moving-wall\"\nvelocity_x = 1\n"
                        "[boundary.walls]\ntype = \"wall\"\n",
                        0);
}

INSTANTIATE_TEST_SUITE_P(Delaunay, NsDelaunay,
                         ::testing::Values("cavity-1.msh", "channel-1.msh", "cavity3d-1.msh"),
                         kName);
INSTANTIATE_TEST_SUITE_P(Meshes, NsOperator,
                         ::testing::Values("cavity-1.msh", "channel-1.msh", "cavity3d-1.msh",
                                           "generated_square", "generated_cube"),
                         kName);

// The solve's initial guess (ns/flow.hpp SolutionHistory) is the quadratic through the last three
// steps' solutions at their times: exact for x(t) = a + b t + c t^2 over unequal steps (as the
// Courant number sets them), the equal-step weights 3, -3, 1 bit for bit, the linear guess with
// two steps known, and an unknown ratio (the first step's) taken as an equal step.
TEST(SolutionHistory, ExtrapolatesAQuadraticOverUnequalSteps) {
  const auto be = backend::make_backend("cpu");
  const auto x_at = [](double t) { return std::vector<real>{1 + 2 * t - 3 * t * t, 5 * t * t}; };
  const auto guess_after = [&](const std::vector<double>& times, double next) {
    physics::ns::SolutionHistory h(*be, 2, 0);
    auto x = be->make_field(2), guess = be->make_field(2);
    std::vector<real> out(2);
    for (std::size_t k = 0; k < times.size(); ++k) {
      be->upload(x_at(times[k]), *x);
      const double step = k + 1 < times.size() ? times[k + 1] - times[k] : next - times[k];
      const double prev = k > 0 ? times[k] - times[k - 1] : 0;
      h.next_guess(*x, step / prev, *guess);  // k = 0: dt / 0 is not finite, taken as 1
    }
    be->download(*guess, out);
    return out;
  };
  const std::vector<real> unequal = guess_after({0.0, 0.01, 0.0139, 0.0168}, 0.0193);
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(unequal[i], x_at(0.0193)[i], 1e-14) << i;
  // Equal steps: 3 x^n - 3 x^(n-1) + x^(n-2) exactly (as the cpu's scale and axpys round it).
  const std::vector<real> equal = guess_after({0.0, 0.25, 0.5, 0.75}, 1.0);
  std::vector<real> expected(2);
  for (int i = 0; i < 2; ++i) {
    real g = 3 * x_at(0.75)[i];
    g += -3 * x_at(0.5)[i];
    g += 1 * x_at(0.25)[i];
    expected[i] = g;
  }
  EXPECT_EQ(equal, expected);
  // Two known: the line through them (x^n + r (x^n - x^(n-1))), here exact for x linear in t.
  const std::vector<real> two = guess_after({0.0, 0.1, 0.3}, 0.35);
  const std::vector<real> line = {x_at(0.3)[0] + 0.25 * (x_at(0.3)[0] - x_at(0.1)[0]),
                                  x_at(0.3)[1] + 0.25 * (x_at(0.3)[1] - x_at(0.1)[1])};
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(two[i], line[i], 1e-15) << i;
}

}  // namespace
}  // namespace scfd
