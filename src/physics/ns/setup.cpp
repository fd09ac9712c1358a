// Navier–Stokes set-up from the case file and the mesh (see ns/setup.hpp and docs/methods.md).
//
// Wall part of the vorticity. 2D: the dual cell of a boundary node is closed by segments on the
//    boundary, from the node x_k to the midpoint x_f of each boundary face f around it. Traversed
//    consistently with R = C^T (the dual edge of f runs along s(f,k) n_f), the segment is
//    s(f,k) (x_k - x_f), and the known wall velocity gives the circulation u·s(f,k)(x_k - x_f),
//    u taken at the segment's midpoint. 3D: beta = E B^-1 b of the multipoint edge star, b the
//    integrals of (n x u_b) against the vertex-edge basis functions on the wall and velocity faces
//    (ns/hodge.hpp). Outlets take zero tangential velocity, so they add nothing.
#include "physics/ns/setup.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <string_view>

#include "config/suggest.hpp"
#include "core/collectives.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "core/threads.hpp"
#include "physics/boundary_tables.hpp"
#include "physics/formula_check.hpp"
#include "physics/model.hpp"
#include "physics/solver_settings.hpp"

namespace scfd::physics::ns {
namespace {

constexpr const char* kAxis[3] = {"x", "y", "z"};

void read_velocity(const config::Case& c, const std::string& prefix, int dim,
                   config::Expression (&u)[3]) {
  for (int d = 0; d < dim; ++d) u[d] = c.function(prefix + kAxis[d], 0.0);
}

BoundaryCondition read_bc(const config::Case& c, const topology::Mesh& m, int patch) {
  static constexpr std::array<std::string_view, 5> kinds = {"wall", "moving-wall", "velocity",
                                                            "outlet", "symmetry"};
  const std::string key = boundary_key(m, patch);
  BoundaryCondition bc;
  bc.patch = patch;
  const std::string type = c.choice(key + ".type", kinds);
  if (type == "wall") {
    bc.kind = BcKind::wall;
  } else if (type == "moving-wall") {
    bc.kind = BcKind::wall;
    read_velocity(c, key + ".velocity_", m.dim, bc.u);
  } else if (type == "velocity") {
    bc.kind = BcKind::velocity;
    read_velocity(c, key + ".velocity_", m.dim, bc.u);
  } else if (type == "outlet") {
    bc.kind = BcKind::outlet;
    bc.pressure = c.function(key + ".pressure", 0.0);
  } else {
    bc.kind = BcKind::symmetry;
  }
  return bc;
}

void read_boundaries(const config::Case& c, const topology::Mesh& m, Setup& s) {
  check_boundary_tables(c, m, "wall | moving-wall | velocity | outlet | symmetry");
  for (std::size_t p = 0; p < m.patches.size(); ++p) {
    s.bcs.push_back(read_bc(c, m, static_cast<int>(p)));
    const BoundaryCondition& bc = s.bcs.back();
    s.has_outlet = s.has_outlet || bc.kind == BcKind::outlet;
    for (const auto& u : bc.u) s.bc_depends_on_time = s.bc_depends_on_time || u.uses_time();
    s.bc_depends_on_time = s.bc_depends_on_time || bc.pressure.uses_time();
  }
}

void read_solver(const config::Case& c, Setup& s) {
  // fp32 fields hold about 7 digits: a relative residual much below 1e-6 is out of their reach
  // (the singular pressure system of a cavity then drifts along the constants until the
  // iteration cap), so the defaults follow the precision (solver.precision, checked by the run).
  const bool fp32 = c.get<std::string>("solver.precision", "fp64") == "fp32";
  for (auto [key, options] : {std::pair{"solver.momentum_tolerance", &s.momentum},
                              std::pair{"solver.pressure_tolerance", &s.pressure}}) {
    options->relative_tolerance = read_tolerance(c, key, fp32 ? kFp32Tolerance : 1e-9);
    if (!(options->relative_tolerance > 0)) c.fail(key, "must be > 0");
    if (fp32 && options->relative_tolerance < 1e-6)
      log::warn("{}: {} is below what fp32 fields reach (about 1e-6): the solves may not converge",
                key, options->relative_tolerance);
  }
  // OpenFOAM's relTol for the momentum solve (0: off); the pressure keeps its tolerance (the
  // projection's divergence is as small as its residual).
  s.momentum.initial_tolerance = c.get<double>("solver.momentum_reduction", 0.0);
  if (!(s.momentum.initial_tolerance >= 0 && s.momentum.initial_tolerance < 1))
    c.fail("solver.momentum_reduction",
           fmt::format("must be >= 0 and < 1, got {}", s.momentum.initial_tolerance));
  s.momentum.max_iterations = s.pressure.max_iterations = read_max_iterations(c);
  s.momentum.check_every = s.pressure.check_every = read_check_every(c);
  s.pressure_preconditioner = read_preconditioner(c, "amg");
  static constexpr std::array<std::string_view, 2> stream = {"amg", "jacobi"};
  s.stream_preconditioner = c.choice("solver.stream_preconditioner", stream, "amg");
  static constexpr std::array<std::string_view, 2> stream_solvers = {"gmres", "bicgstab"};
  s.stream_solver = c.choice("solver.stream_solver", stream_solvers, "gmres");
  static constexpr std::array<std::string_view, 2> momentum = {"cells", "jacobi"};
  s.momentum_preconditioner = c.choice("solver.momentum_preconditioner", momentum, "cells");
  const long long vectors = c.get<long long>("solver.pressure_projection", 8);
  if (vectors != 0 && (vectors < 3 || vectors > 64))
    c.fail("solver.pressure_projection",
           fmt::format("must be 0 (off) or between 3 and 64 vectors, got {}", vectors));
  s.pressure_projection = static_cast<int>(vectors);
  const long long streams = c.get<long long>("solver.stream_projection", 6);
  if (streams != 0 && (streams < 3 || streams > 16))
    c.fail("solver.stream_projection",
           fmt::format("must be 0 (off) or between 3 and 16 solutions, got {}", streams));
  s.stream_projection = static_cast<int>(streams);
}

void read_fluid(const config::Case& c, Setup& s) {
  s.density = c.get<double>("fluid.density", 1.0);
  if (!(s.density > 0)) c.fail("fluid.density", fmt::format("must be > 0, got {}", s.density));
  if (c.has("fluid.viscosity") == c.has("fluid.reynolds"))
    c.fail("fluid", "give exactly one of fluid.viscosity (kinematic, m^2/s) and fluid.reynolds");
  if (c.has("fluid.viscosity")) {
    s.viscosity = c.require<double>("fluid.viscosity");
    if (!(s.viscosity > 0))
      c.fail("fluid.viscosity", fmt::format("must be > 0, got {}", s.viscosity));
  } else {
    const double re = c.require<double>("fluid.reynolds");
    if (!(re > 0)) c.fail("fluid.reynolds", fmt::format("must be > 0, got {}", re));
    const double u = c.get<double>("fluid.velocity", 1.0), l = c.get<double>("fluid.length", 1.0);
    if (!(u > 0 && l > 0))
      c.fail("fluid.reynolds", "fluid.velocity and fluid.length must be > 0 (nu = U L / Re)");
    s.viscosity = u * l / re;
  }
  static constexpr std::array<std::string_view, 2> schemes = {"central", "upwind"};
  s.upwind = c.choice("convection.scheme", schemes, "central") == "upwind" ? 1.0 : 0.0;
}

}  // namespace

Setup read_setup(const config::Case& c, const topology::Mesh& m) {
  Setup s;
  read_fluid(c, s);
  read_boundaries(c, m, s);
  read_velocity(c, "initial.velocity_", m.dim, s.initial);
  s.has_exact = c.has("verification");
  if (s.has_exact) read_velocity(c, "verification.velocity_", m.dim, s.exact);
  read_solver(c, s);
  return s;
}

void check_formulas(const config::Case& c, const topology::Mesh& m, const Setup& s, double t) {
  // The nodes and face centres, gathered once a formula needs them (a constant was checked when
  // the case was read: at 8.2M tets the 18M points cost more than the checks of constants).
  std::vector<Vec3> everywhere;
  const auto points_for = [&](const config::Expression& e) -> std::span<const Vec3> {
    if (e.is_constant()) return {};
    if (everywhere.empty()) everywhere = mesh_points(m);
    return everywhere;
  };
  for (int d = 0; d < m.dim; ++d) {
    check_formula(c, std::string("initial.velocity_") + kAxis[d], s.initial[d],
                  points_for(s.initial[d]), t);
    if (s.has_exact)
      check_formula(c, std::string("verification.velocity_") + kAxis[d], s.exact[d],
                    points_for(s.exact[d]), t);
  }
  for (const BoundaryCondition& bc : s.bcs) {
    const std::string key = boundary_key(m, bc.patch);
    const std::vector<Vec3> points = patch_points(m, bc.patch);
    if (bc.kind == BcKind::outlet) check_formula(c, key + ".pressure", bc.pressure, points, t);
    if (bc.kind == BcKind::wall || bc.kind == BcKind::velocity)
      for (int d = 0; d < m.dim; ++d)
        check_formula(c, key + ".velocity_" + kAxis[d], bc.u[d], points, t);
  }
}

namespace {

// 3D: beta = star.wall b on the owned edges, b the wall samples of every wall face of the star.
void wall_vorticity(const topology::Mesh& m, const Setup& s, double t, const EdgeStar& star,
                    std::vector<real>& beta) {
  std::vector<real> b(6 * star.wall_faces.size());
  for (std::size_t j = 0; j < star.wall_faces.size(); ++j) {
    const index f = star.wall_faces[j];
    const BoundaryCondition& bc = s.bcs[static_cast<std::size_t>(m.face_patch[f])];
    const auto samples = wall_samples(m, f, [&](const Vec3& x) {
      return Vec3{bc.u[0](x.x, x.y, x.z, t), bc.u[1](x.x, x.y, x.z, t), bc.u[2](x.x, x.y, x.z, t)};
    });
    std::copy(samples.begin(), samples.end(), b.begin() + 6 * static_cast<std::ptrdiff_t>(j));
  }
  host_apply(star.wall, b, beta);
}

}  // namespace

real face_flux(const topology::Mesh& m, index f, const config::Expression (&u)[3], double t) {
  const Vec3 n = m.face_normal[f];
  const auto un = [&](Vec3 x) {
    real s = 0;
    for (int d = 0; d < m.dim; ++d) s += u[d](x.x, x.y, x.z, t) * n[d];
    return s;
  };
  const Vec3 x0 = m.node_x[m.face_nodes[m.dim * f]], x1 = m.node_x[m.face_nodes[m.dim * f + 1]];
  if (m.dim == 2) return m.face_area[f] * (un(x0) + 4 * un(0.5 * (x0 + x1)) + un(x1)) / 6;
  const Vec3 x2 = m.node_x[m.face_nodes[3 * f + 2]];
  // The 7-point rule of degree 5 on a triangle (Dunavant 1985): the centroid and two orbits of
  // three points (barycentric (b, a, a) and permutations). Its error on smooth boundary formulas
  // is small enough that an exactly divergence-free velocity balances to about 1e-9 of the
  // boundary flux on coarse meshes (the edge-midpoint rule left 6e-6 on a 4^3 cube, above the
  // 1e-6 of the balance check).
  static const real r15 = std::sqrt(15.0);
  static const real a1 = (6 - r15) / 21, b1 = (9 + 2 * r15) / 21, a2 = (6 + r15) / 21,
                    b2 = (9 - 2 * r15) / 21, w1 = (155 - r15) / 1200, w2 = (155 + r15) / 1200;
  const auto orbit = [&](real a, real b) {
    return un(b * x0 + a * x1 + a * x2) + un(a * x0 + b * x1 + a * x2) +
           un(a * x0 + a * x1 + b * x2);
  };
  return m.face_area[f] *
         (real(9) / 40 * un((x0 + x1 + x2) / 3) + w1 * orbit(a1, b1) + w2 * orbit(a2, b2));
}

BoundaryData boundary_data(const topology::Mesh& m, const Setup& s, double t, halo::Halo& halo,
                           const EdgeStar* star) {
  BoundaryData b;
  b.flux.assign(static_cast<std::size_t>(m.n_faces), 0);
  b.velocity.assign(3 * static_cast<std::size_t>(m.n_boundary_faces()), 0);
  b.pressure.assign(static_cast<std::size_t>(m.n_boundary_faces()), 0);
  b.circulation.assign(static_cast<std::size_t>(m.n_curl()), 0);
  const int cw = m.curl_width();
  // Each face's own values on the host threads; the sums over the faces, and in 2D the
  // circulation its faces add up at a node, in face order after.
  parallel_for(m.n_faces, [&](index first, index end) {
    for (index f = first; f < end; ++f) {
      const int p = m.face_patch[f];
      if (p < 0) continue;
      const BoundaryCondition& bc = s.bcs[static_cast<std::size_t>(p)];
      const bool owned = f < m.n_owned_faces;
      if (bc.kind == BcKind::velocity) b.flux[f] = face_flux(m, f, bc.u, t);
      const Vec3 xf = m.face_centre[f];
      if (owned && bc.kind == BcKind::outlet)
        b.pressure[f - m.n_interior_faces] = bc.pressure(xf.x, xf.y, xf.z, t);
      if (owned && (bc.kind == BcKind::wall || bc.kind == BcKind::velocity))
        for (int d = 0; d < m.dim; ++d)
          b.velocity[3 * static_cast<std::size_t>(f - m.n_interior_faces) + d] =
              bc.u[d](xf.x, xf.y, xf.z, t);
    }
  });
  for (index f = 0; f < m.n_owned_faces; ++f) {
    const int p = m.face_patch[f];
    if (p < 0 || s.bcs[static_cast<std::size_t>(p)].kind == BcKind::outlet) continue;
    b.net_inflow -= b.flux[f];
    b.flux_scale += std::abs(b.flux[f]);
  }
  for (index f = 0; f < m.n_faces && m.dim == 2; ++f) {
    const int p = m.face_patch[f];
    if (p < 0) continue;
    const BoundaryCondition& bc = s.bcs[static_cast<std::size_t>(p)];
    if (bc.kind != BcKind::wall && bc.kind != BcKind::velocity) continue;
    const Vec3 xc = m.face_centre[f];
    for (int j = 0; j < cw; ++j) {
      const index k = m.face_curl[cw * f + j];
      if (k >= m.n_owned_curl()) continue;
      const Vec3 xk = m.node_x[k];
      const Vec3 seg = m.face_curl_sign[cw * f + j] * (xk - xc);
      const Vec3 mid = 0.5 * (xk + xc);
      for (int d = 0; d < m.dim; ++d) b.circulation[k] += bc.u[d](mid.x, mid.y, mid.z, t) * seg[d];
    }
  }
  if (m.dim == 3 && star != nullptr) wall_vorticity(m, s, t, *star, b.circulation);
  halo.plan(m.dim == 2 ? halo::Entity::node : halo::Entity::edge)
      .exchange(std::span<real>(b.circulation));
  // The formulas were checked at the nodes and face centres when the case was read; this catches
  // the other points they are evaluated at, and later times.
  bool finite = true;
  for (const std::vector<real>* v : {&b.flux, &b.velocity, &b.pressure, &b.circulation})
    for (real x : *v) finite = finite && std::isfinite(x);
  if (global_min(finite ? 1 : 0) == 0)
    throw SolveError(
        fmt::format("the boundary data at t = {:.6g} is not finite: check the formulas "
                    "of the [boundary.*] tables",
                    t));
  return b;
}

}  // namespace scfd::physics::ns
