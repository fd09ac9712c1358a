// ns-classical set-up from the case file and the mesh (see ns_setup.hpp and docs/methods.md).
//
// Geometry of the circumcentric (Voronoi) dual, Perot's staggered discrete calculus:
//  - L_f, the dual edge of face f (circumcentre to circumcentre), is mesh.face_dist. Where it is
//    not clearly positive (L_f <= 1% of the smaller cell height d V_c / A_f: right angles of
//    structured meshes give exactly 0, non-Delaunay pairs negative) the distance between the two
//    cell centroids projected on the normal is used instead (always positive), and the count is
//    reported once.
//  - A*_k, the dual area of curl entity k: in 2D the signed Voronoi area of node n (the cotangent
//    formula, sum over its triangles of (|na|^2 cot b + |nb|^2 cot a) / 8); in 3D the dual face of
//    edge e, A*_e = l_e w_e with w_e the P1 stiffness weight (the cotangent identity of the
//    circumcentric dual). Where A*_k falls below a quarter of the median-dual measure, that
//    measure is used (fallback, counted). W_k = l_k / A*_k (l = 1 in 2D), and W_k = 0 on nodes or
//    edges lying only on symmetry patches (zero vorticity there).
//  - Wall part of a circulation: the dual cell of a boundary node (2D) or the dual face of a
//    boundary edge (3D) is closed by segments on the boundary, from the node / edge midpoint x_k
//    to the circumcentre x_f of each boundary face f around it. Traversed consistently with
//    R = C^T (the dual edge of f runs along s(f,k) n_f), the segment is s(f,k) (x_k - x_f), and
//    the known wall velocity gives the circulation u·s(f,k)(x_k - x_f), u taken at the segment's
//    midpoint. Outlets take zero tangential velocity, so they add nothing.
#include "physics/ns_setup.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <string_view>

#include "config/suggest.hpp"
#include "core/error.hpp"
#include "physics/boundary_tables.hpp"

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
  const std::string key = "boundary." + m.patches[static_cast<std::size_t>(patch)].name;
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
    for (const auto& u : bc.u)
      s.bc_depends_on_position = s.bc_depends_on_position || !u.is_constant();
    s.bc_depends_on_position = s.bc_depends_on_position || !bc.pressure.is_constant();
  }
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

void read_probes(const config::Case& c, const topology::Mesh& m, Setup& s) {
  if (!c.has("probes")) return;
  // The pressure costs ns-exact one Poisson solve per step (it is recovered on request).
  s.probe_pressure =
      c.get<bool>("probes.pressure", c.get<std::string>("physics.model", "") != "ns-exact");
  std::vector<double> xyz[3];
  for (int d = 0; d < m.dim; ++d)
    xyz[d] = c.require<std::vector<double>>(std::string("probes.") + kAxis[d]);
  for (int d = 1; d < m.dim; ++d)
    if (xyz[d].size() != xyz[0].size())
      c.fail(std::string("probes.") + kAxis[d],
             fmt::format("has {} values, probes.x has {}", xyz[d].size(), xyz[0].size()));
  for (std::size_t i = 0; i < xyz[0].size(); ++i)
    s.probes.push_back({xyz[0][i], xyz[1][i], m.dim == 3 ? xyz[2][i] : 0.0});
}

void read_lines(const config::Case& c, const topology::Mesh& m, Setup& s) {
  for (const std::string& name : c.table_keys("output.lines")) {
    const std::string key = "output.lines." + name;
    // The name becomes a file name (lines/NAME.csv).
    if (name.empty() || !std::all_of(name.begin(), name.end(), [](char ch) {
          return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-';
        }))
      c.fail(key,
             "a line name may use only letters, digits, '_' and '-' (it names the file "
             "lines/NAME.csv)");
    SampleLine line{name, {}, {}, 2};
    Vec3* ends[2] = {&line.from, &line.to};
    const char* end_names[2] = {".from", ".to"};
    for (int e = 0; e < 2; ++e) {
      const auto xyz = c.require<std::vector<double>>(key + end_names[e]);
      if (static_cast<int>(xyz.size()) != m.dim)
        c.fail(key + end_names[e], fmt::format("needs {} coordinates (the mesh is {}D), got {}",
                                               m.dim, m.dim, xyz.size()));
      for (int d = 0; d < m.dim; ++d) (*ends[e])[d] = xyz[static_cast<std::size_t>(d)];
    }
    const long long points = c.get<long long>(key + ".points", 101);
    if (points < 2 || points > 100000)
      c.fail(key + ".points", fmt::format("must be between 2 and 100000, got {}", points));
    line.points = static_cast<int>(points);
    s.lines.push_back(line);
  }
}

void read_forces(const config::Case& c, const topology::Mesh& m, Setup& s) {
  if (!c.has("forces")) return;
  const std::string name = c.require<std::string>("forces.patch");
  const std::vector<std::string> names = patch_names(m);
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end())
    c.fail("forces.patch", fmt::format("the mesh has no patch '{}' (patches: {}){}", name,
                                       config::join(names), config::did_you_mean(name, names)));
  if (m.dim != 2) c.fail("forces.patch", "forces are computed on 2D meshes only for now");
  s.force_patch = static_cast<int>(it - names.begin());
  s.force_velocity = c.get<double>("forces.reference_velocity", 1.0);
  s.force_length = c.get<double>("forces.reference_length", 1.0);
  if (!(s.force_velocity > 0 && s.force_length > 0))
    c.fail("forces.reference_velocity", "reference velocity and length must be > 0");
}

}  // namespace

Setup read_setup(const config::Case& c, const topology::Mesh& m) {
  Setup s;
  read_fluid(c, s);
  read_boundaries(c, m, s);
  read_velocity(c, "initial.velocity_", m.dim, s.initial);
  s.has_exact = c.has("verification");
  if (s.has_exact) read_velocity(c, "verification.velocity_", m.dim, s.exact);
  read_probes(c, m, s);
  read_forces(c, m, s);
  read_lines(c, m, s);
  return s;
}

namespace {

// Dual edge length with the fallback of the header comment.
real dual_length(const topology::Mesh& m, index f, bool& fallback) {
  const index c1 = m.face_cells[2 * f], c2 = m.face_cells[2 * f + 1];
  real height = m.dim * m.cell_volume[c1] / m.face_area[f];
  if (c2 != kNone) height = std::min(height, m.dim * m.cell_volume[c2] / m.face_area[f]);
  fallback = !(m.face_dist[f] > 0.01 * height);
  if (!fallback) return m.face_dist[f];
  const Vec3 far = c2 == kNone ? m.face_centre[f] : m.cell_centroid[c2];
  return dot(far - m.cell_centroid[c1], m.face_normal[f]);
}

// Signed Voronoi area of the owned nodes (2D), by the cotangent formula.
std::vector<real> voronoi_areas(const topology::Mesh& m) {
  std::vector<real> area(static_cast<std::size_t>(m.n_nodes), 0);
  for (index c = 0; c < m.n_cells; ++c) {
    for (int k = 0; k < 3; ++k) {
      const index n = m.cell_nodes[3 * c + k];
      if (n >= m.n_owned_nodes) continue;
      const Vec3 xn = m.node_x[n], xa = m.node_x[m.cell_nodes[3 * c + (k + 1) % 3]],
                 xb = m.node_x[m.cell_nodes[3 * c + (k + 2) % 3]];
      const auto cot = [](Vec3 p, Vec3 q) { return dot(p, q) / std::abs(cross(p, q).z); };
      const real na2 = dot(xa - xn, xa - xn), nb2 = dot(xb - xn, xb - xn);
      area[n] += (na2 * cot(xn - xb, xa - xb) + nb2 * cot(xn - xa, xb - xa)) / 8;
    }
  }
  return area;
}

// Circumcentre of face f (the midpoint in 2D).
Vec3 face_circumcentre(const topology::Mesh& m, index f) {
  if (m.dim == 2) return m.face_centre[f];
  const Vec3 x0 = m.node_x[m.face_nodes[3 * f]];
  const Vec3 a = m.node_x[m.face_nodes[3 * f + 1]] - x0, b = m.node_x[m.face_nodes[3 * f + 2]] - x0;
  const Vec3 axb = cross(a, b);
  return x0 + cross(dot(a, a) * b - dot(b, b) * a, axb) / (2 * dot(axb, axb));
}

// Position of curl entity k: the node (2D) or the edge midpoint (3D).
Vec3 curl_point(const topology::Mesh& m, index k) {
  if (m.dim == 2) return m.node_x[k];
  return 0.5 * (m.node_x[m.edge_nodes[2 * k]] + m.node_x[m.edge_nodes[2 * k + 1]]);
}

void dual_weights(const topology::Mesh& m, const Setup& s, Geometry& g, halo::Halo& halo) {
  const bool two_d = m.dim == 2;
  const std::vector<real> voronoi = two_d ? voronoi_areas(m) : std::vector<real>{};
  // Curl entities on symmetry patches, and those also on another kind of patch.
  std::vector<char> on_symmetry(static_cast<std::size_t>(m.n_curl()), 0);
  for (const BoundaryCondition& bc : s.bcs) {
    const topology::Patch& p = m.patches[static_cast<std::size_t>(bc.patch)];
    const char mark = bc.kind == BcKind::symmetry ? 1 : 2;
    for (index k : two_d ? p.nodes : p.edges) on_symmetry[k] = std::max(on_symmetry[k], mark);
  }
  g.dual_weight.assign(static_cast<std::size_t>(m.n_curl()), 0);
  for (index k = 0; k < m.n_owned_curl(); ++k) {
    real area, median;
    if (two_d) {
      area = voronoi[k];
      median = m.node_dual_volume[k];
    } else {
      const real len = norm(m.node_x[m.edge_nodes[2 * k + 1]] - m.node_x[m.edge_nodes[2 * k]]);
      area = len * m.edge_stiffness[k];
      median = norm(m.edge_dual_normal[k]);
    }
    if (!(area > 0.25 * median)) {
      area = median;
      ++g.fallback_duals;
    }
    const real l =
        two_d ? 1 : norm(m.node_x[m.edge_nodes[2 * k + 1]] - m.node_x[m.edge_nodes[2 * k]]);
    g.dual_weight[k] = on_symmetry[k] == 1 ? 0 : l / area;
  }
  halo.plan(two_d ? halo::Entity::node : halo::Entity::edge)
      .exchange(std::span<real>(g.dual_weight));
}

}  // namespace

Geometry build_geometry(const topology::Mesh& m, const Setup& s, halo::Halo& halo) {
  Geometry g;
  const auto nf = static_cast<std::size_t>(m.n_faces);
  g.length.assign(nf, 0);
  g.fixed.assign(nf, 0);
  g.cfl_weight.assign(nf, 0);
  for (index f = 0; f < m.n_owned_faces; ++f) {
    bool fallback = false;
    g.length[f] = dual_length(m, f, fallback);
    g.fallback_faces += fallback ? 1 : 0;
    const index c1 = m.face_cells[2 * f], c2 = m.face_cells[2 * f + 1];
    const real v = c2 == kNone ? m.cell_volume[c1] : std::min(m.cell_volume[c1], m.cell_volume[c2]);
    g.cfl_weight[f] = 1 / (m.dim * v);
  }
  halo.faces.exchange(std::span<real>(g.length));
  g.mass.resize(nf);
  g.mobility.resize(nf);
  for (index f = 0; f < m.n_faces; ++f) {
    const int p = m.face_patch[f];
    if (p >= 0 && s.bcs[static_cast<std::size_t>(p)].kind != BcKind::outlet) g.fixed[f] = 1;
    g.mass[f] = g.length[f] / m.face_area[f];
    g.mobility[f] = (1 - g.fixed[f]) * m.face_area[f] / g.length[f];
  }
  dual_weights(m, s, g, halo);
  g.viscous_diag.assign(nf, 0);
  const int cw = m.curl_width();
  for (index f = 0; f < m.n_owned_faces; ++f)
    for (int j = 0; j < cw; ++j)
      g.viscous_diag[f] += g.mass[f] * g.mass[f] * g.dual_weight[m.face_curl[cw * f + j]];
  g.pressure_diag.assign(static_cast<std::size_t>(m.n_cells), 0);
  for (index c = 0; c < m.n_owned_cells; ++c)
    for (int k = 0; k < m.cell_width(); ++k)
      g.pressure_diag[c] += g.mobility[m.cell_faces[m.cell_width() * c + k]];
  return g;
}

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
  return m.face_area[f] * (un(0.5 * (x0 + x1)) + un(0.5 * (x1 + x2)) + un(0.5 * (x2 + x0))) / 3;
}

BoundaryData boundary_data(const topology::Mesh& m, const Setup& s, double t, halo::Halo& halo) {
  BoundaryData b;
  b.flux.assign(static_cast<std::size_t>(m.n_faces), 0);
  b.velocity.assign(3 * static_cast<std::size_t>(m.n_boundary_faces()), 0);
  b.pressure.assign(static_cast<std::size_t>(m.n_boundary_faces()), 0);
  b.circulation.assign(static_cast<std::size_t>(m.n_curl()), 0);
  const int cw = m.curl_width();
  for (index f = 0; f < m.n_faces; ++f) {
    const int p = m.face_patch[f];
    if (p < 0) continue;
    const BoundaryCondition& bc = s.bcs[static_cast<std::size_t>(p)];
    const bool owned = f < m.n_owned_faces;
    if (bc.kind == BcKind::velocity) b.flux[f] = face_flux(m, f, bc.u, t);
    if (owned && bc.kind != BcKind::outlet) {
      b.net_inflow -= b.flux[f];
      b.flux_scale += std::abs(b.flux[f]);
    }
    const Vec3 xf = m.face_centre[f];
    if (owned && bc.kind == BcKind::outlet)
      b.pressure[f - m.n_interior_faces] = bc.pressure(xf.x, xf.y, xf.z, t);
    if (bc.kind != BcKind::wall && bc.kind != BcKind::velocity) continue;
    if (owned)
      for (int d = 0; d < m.dim; ++d)
        b.velocity[3 * static_cast<std::size_t>(f - m.n_interior_faces) + d] =
            bc.u[d](xf.x, xf.y, xf.z, t);
    const Vec3 xc = face_circumcentre(m, f);
    for (int j = 0; j < cw; ++j) {
      const index k = m.face_curl[cw * f + j];
      if (k >= m.n_owned_curl()) continue;
      const Vec3 seg = m.face_curl_sign[cw * f + j] * (curl_point(m, k) - xc);
      const Vec3 mid = 0.5 * (curl_point(m, k) + xc);
      for (int d = 0; d < m.dim; ++d) b.circulation[k] += bc.u[d](mid.x, mid.y, mid.z, t) * seg[d];
    }
  }
  halo.plan(m.dim == 2 ? halo::Entity::node : halo::Entity::edge)
      .exchange(std::span<real>(b.circulation));
  return b;
}

}  // namespace scfd::physics::ns
