// Mesh factors of the staggered scheme (see ns_geometry.hpp and docs/methods.md).
//
// The circumcentric (Voronoi) dual of Perot's staggered discrete calculus:
//  - L_f, the dual edge of face f (circumcentre to circumcentre), is mesh.face_dist. In 2D, where
//    it is not clearly positive (L_f <= 1% of the smaller cell height d V_c / A_f: right angles
//    of structured meshes give exactly 0, non-Delaunay pairs negative) the distance between the
//    two cell centroids projected on the normal is used instead (always positive). In 3D it is
//    bounded below by 0.3 times that centroid distance (topology::bounded_dual_length): tiny
//    and negative circumcentric lengths are common on Gmsh and TetGen tetrahedra and make modes
//    that the Crank-Nicolson step does not damp (docs/methods.md, "3D on tetrahedral meshes"). The
//    faces where either rule applies are counted and reported once.
//  - A*_k, the dual area of curl entity k: in 2D the signed Voronoi area of node n (the cotangent
//    formula, sum over its triangles of (|na|^2 cot b + |nb|^2 cot a) / 8); in 3D the dual face of
//    edge e, A*_e = l_e w_e with w_e the P1 stiffness weight (the cotangent identity of the
//    circumcentric dual). Where A*_k falls below a quarter of the median-dual measure, that
//    measure is used (fallback, counted). W_k = l_k / A*_k (l = 1 in 2D), and W_k = 0 on nodes or
//    edges lying only on symmetry patches (zero vorticity there).
#include "physics/ns_geometry.hpp"

#include <algorithm>
#include <cmath>

#include "topology/quality.hpp"

namespace scfd::physics::ns {
namespace {

// Dual edge length with the fallback of the header comment.
real dual_length(const topology::Mesh& m, index f, bool& fallback) {
  if (m.dim == 3) {
    const real length = topology::bounded_dual_length(m, f);
    fallback = length != m.face_dist[f];
    return length;
  }
  const index c1 = m.face_cells[2 * f], c2 = m.face_cells[2 * f + 1];
  real height = m.dim * m.cell_volume[c1] / m.face_area[f];
  if (c2 != kNone) height = std::min(height, m.dim * m.cell_volume[c2] / m.face_area[f]);
  fallback = !(m.face_dist[f] > 0.01 * height);
  return fallback ? topology::centroid_distance(m, f) : m.face_dist[f];
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
  g.courant_weight.resize(static_cast<std::size_t>(m.n_cells));
  for (index c = 0; c < m.n_cells; ++c) g.courant_weight[c] = 1 / (2 * m.cell_volume[c]);
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

}  // namespace scfd::physics::ns
