// Mesh factors of the staggered scheme (see ns/geometry.hpp and docs/methods.md).
//
// 2D, the circumcentric (Voronoi) dual of Perot's staggered discrete calculus:
//  - L_f, the dual edge of face f (circumcentre to circumcentre), is mesh.face_dist. Where it is
//    not clearly positive (L_f <= 1% of the smaller cell height d V_c / A_f: right angles of
//    structured meshes give exactly 0, non-Delaunay pairs negative) the distance between the two
//    cell centroids projected on the normal is used instead (always positive), counted and
//    reported once.
//  - A*_n, the signed Voronoi area of node n (the cotangent formula, sum over its triangles of
//    (|na|^2 cot b + |nb|^2 cot a) / 8); where it falls below a quarter of the median-dual area,
//    that area is used (fallback, counted). W_n = 1 / A*_n, and 0 on nodes lying only on symmetry
//    patches (zero vorticity there). The face star is M = diag(L_f / A_f).
// 3D, the barycentric dual (ns/hodge.hpp): the face star M_RT and the edge star W_mp; no
//  circumcentre, no bound, no fallback. The pressure projection's diagonal A~ is a scaled lumping
//  of M_RT (below). L_f is the centroid distance along the normal, unused by the 3D operators.
#include "physics/ns/geometry.hpp"

#include <algorithm>
#include <cmath>
#include <future>
#include <utility>

#include "core/threads.hpp"
#include "core/timer.hpp"
#include "topology/quality.hpp"

namespace scfd::physics::ns {
namespace {

// 3D: A~ = kProjectionScale sum_c mu_c diag(M_c) (ns/hodge.hpp, projection_mass): below 2 M_RT,
// so the pressure increments of ns-classical cannot grow. 1 would make them contract
// monotonically; 1.5 keeps every mode contracting by at least half and brings A~ closer to M_RT:
// on cases/cavity3d the ns-exact - ns-classical difference (the splitting error) was 4.9e-4 with
// 1, 3.1e-4 with 1.5, for dt 0.01 (docs/methods.md, "3D on tetrahedral meshes").
constexpr real kProjectionScale = 1.5;

// Dual edge length with the fallback of the header comment.
real dual_length(const topology::Mesh& m, index f, bool& fallback) {
  if (m.dim == 3) {
    fallback = false;
    return topology::centroid_distance(m, f);
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

// Curl entities (nodes in 2D, edges in 3D) that lie only on symmetry patches: 1; also on
// another kind of patch: 2; else 0.
std::vector<char> symmetry_marks(const topology::Mesh& m, const Setup& s) {
  std::vector<char> on_symmetry(static_cast<std::size_t>(m.n_curl()), 0);
  for (const BoundaryCondition& bc : s.bcs) {
    const topology::Patch& p = m.patches[static_cast<std::size_t>(bc.patch)];
    const char mark = bc.kind == BcKind::symmetry ? 1 : 2;
    for (index k : m.dim == 2 ? p.nodes : p.edges) on_symmetry[k] = std::max(on_symmetry[k], mark);
  }
  return on_symmetry;
}

void stars_2d(const topology::Mesh& m, const Setup& s, std::vector<real> mass, Geometry& g,
              halo::Halo& halo) {
  const std::vector<real> voronoi = voronoi_areas(m);
  const std::vector<char> on_symmetry = symmetry_marks(m, s);
  std::vector<real> weight(static_cast<std::size_t>(m.n_curl()), 0);
  for (index k = 0; k < m.n_owned_curl(); ++k) {
    real area = voronoi[k];
    if (!(area > 0.25 * m.node_dual_volume[k])) {
      area = m.node_dual_volume[k];
      ++g.fallback_duals;
    }
    weight[k] = on_symmetry[k] == 1 ? 0 : 1 / area;
  }
  halo.nodes.exchange(std::span<real>(weight));
  g.face_star = diagonal_star(std::move(mass), m.n_owned_faces);
  g.edge_star = diagonal_star(std::move(weight), m.n_owned_curl());
}

// 3D: M_RT, W_mp and their diagonals with ghosts. Walls and velocity patches give the wall data;
// an edge on a symmetry patch and on none of those has no vorticity unknown (its tangential
// vorticity is 0), also where it meets an outlet.
void stars_3d(const topology::Mesh& m, const Setup& s, Geometry& g, halo::Halo& halo) {
  std::vector<char> dropped(static_cast<std::size_t>(m.n_edges), 0);
  std::vector<char> wall(static_cast<std::size_t>(m.n_faces), 0);
  for (const BoundaryCondition& bc : s.bcs)
    if (bc.kind == BcKind::symmetry)
      for (index e : m.patches[static_cast<std::size_t>(bc.patch)].edges) dropped[e] = 1;
  for (index f = 0; f < m.n_faces; ++f) {
    const int p = m.face_patch[f];
    if (p < 0) continue;
    const BcKind kind = s.bcs[static_cast<std::size_t>(p)].kind;
    wall[f] = kind == BcKind::wall || kind == BcKind::velocity ? 1 : 0;
    if (wall[f] != 0)
      for (int j = 0; j < 3; ++j) dropped[m.face_curl[3 * f + j]] = 0;
  }
  {
    const SetupPart part(Part::edge_star);
    g.edge_wall = multipoint_edge_star(m, dropped, wall);
  }
  {
    const SetupPart part(Part::face_mass);
    g.face_star = matrix_star(rt_face_mass(m, rotation_reads(m)), m.n_faces);
  }
  halo.faces.exchange(std::span<real>(g.face_star.diagonal));
  g.edge_star = matrix_star(std::move(g.edge_wall.w), m.n_edges);
  g.edge_wall.w = {};
  halo.edges.exchange(std::span<real>(g.edge_star.diagonal));
}

}  // namespace

std::vector<index> cell_reads(const topology::Mesh& m) {
  if (m.n_cells == m.n_owned_cells) return {};  // no ghost cells (one rank)
  std::vector<index> ghosts;                    // only the ghosts are kept
  const auto read = [&](index c) {
    if (c >= m.n_owned_cells) ghosts.push_back(c);
  };
  std::for_each(m.face_cells.begin(), m.face_cells.begin() + 2 * m.n_owned_faces, read);
  const int w = m.cell_width();
  for (std::size_t i = 0; i < static_cast<std::size_t>(w) * m.n_owned_cells; ++i) {
    const auto f = static_cast<std::size_t>(m.cell_faces[i]);
    read(m.face_cells[2 * f]);
    read(m.face_cells[2 * f + 1]);
  }
  return halo::ghosts_among(m.n_owned_cells, ghosts);
}

std::vector<index> face_reads(const topology::Mesh& m) {
  return halo::ghosts_among(
      m.n_owned_faces,
      std::span(m.cell_faces).first(static_cast<std::size_t>(m.cell_width()) * m.n_owned_cells));
}

std::vector<index> rotation_reads(const topology::Mesh& m) {
  const index owned = m.n_owned_curl();
  return halo::ghosts_among(
      m.n_owned_faces,
      std::span(m.curl_faces.item).first(static_cast<std::size_t>(m.curl_faces.offset[owned])));
}

std::vector<index> curl_reads(const topology::Mesh& m) {
  return halo::ghosts_among(
      m.n_owned_curl(),
      std::span(m.face_curl).first(static_cast<std::size_t>(m.curl_width()) * m.n_owned_faces));
}

Geometry build_geometry(const topology::Mesh& m, const Setup& s, halo::Halo& halo,
                        const std::function<void(const Geometry&)>& mobility_ready) {
  const SetupPart part(Part::geometry);
  // 3D: the pressure projection's diagonal needs the mesh alone, and its work is arithmetic (a
  // 4 x 4 eigenvalue per cell) where the stars' is mostly memory traffic: on a thread of its
  // own (with its own host threads) beside them. Should this thread throw, the future's
  // destructor waits for it.
  std::future<std::vector<real>> projection;
  if (m.dim == 3)
    projection = std::async(std::launch::async, [&m] {
      const SetupBeside beside;
      const SetupPart timed(Part::projection_mass);
      return projection_mass(m);
    });
  Geometry g;
  const auto nf = static_cast<std::size_t>(m.n_faces);
  g.length.assign(nf, 0);
  g.fixed.assign(nf, 0);
  g.cfl_weight.assign(nf, 0);
  // The loops on the host threads (core/threads.hpp), each item written by its own chunk.
  const std::vector<index> face_chunks = block_bounds(m.n_owned_faces);
  std::vector<index> fallbacks(face_chunks.size(), 0);
  for_chunks(face_chunks, [&](std::size_t chunk, index first, index end) {
    for (index f = first; f < end; ++f) {
      bool fallback = false;
      g.length[f] = dual_length(m, f, fallback);
      fallbacks[chunk] += fallback ? 1 : 0;
      const index c1 = m.face_cells[2 * f], c2 = m.face_cells[2 * f + 1];
      const real v =
          c2 == kNone ? m.cell_volume[c1] : std::min(m.cell_volume[c1], m.cell_volume[c2]);
      g.cfl_weight[f] = 1 / (m.dim * v);
    }
  });
  for (const index n : fallbacks) g.fallback_faces += n;
  halo.faces.exchange(std::span<real>(g.length));
  g.courant_weight.resize(static_cast<std::size_t>(m.n_cells));
  parallel_for(m.n_cells, [&](index first, index end) {
    for (index c = first; c < end; ++c) g.courant_weight[c] = 1 / (2 * m.cell_volume[c]);
  });
  std::vector<real> mass(m.dim == 2 ? nf : 0);  // the 2D face star
  g.mobility.resize(nf);
  parallel_for(m.n_faces, [&](index first, index end) {
    for (index f = first; f < end; ++f) {
      const int p = m.face_patch[f];
      if (p >= 0 && s.bcs[static_cast<std::size_t>(p)].kind != BcKind::outlet) g.fixed[f] = 1;
      if (m.dim == 2) mass[f] = g.length[f] / m.face_area[f];
      g.mobility[f] = (1 - g.fixed[f]) * m.face_area[f] / g.length[f];
    }
  });
  if (m.dim == 2) {
    stars_2d(m, s, std::move(mass), g, halo);
  } else {
    stars_3d(m, s, g, halo);
    std::vector<real> a = projection.get();
    halo.faces.exchange(std::span<real>(a));
    parallel_for(m.n_faces, [&](index first, index end) {
      for (index f = first; f < end; ++f)
        g.mobility[f] = (1 - g.fixed[f]) / (kProjectionScale * a[f]);
    });
  }
  if (mobility_ready) mobility_ready(g);
  const SetupPart viscous(Part::mass_curl);
  SparseMatrix mc = mass_curl(m, g.face_star.matrix);
  g.viscous_diag = viscous_diagonal(m, mc, g.edge_star);
  if (m.dim == 3) g.mass_curl = std::move(mc);
  g.pressure_diag.assign(static_cast<std::size_t>(m.n_cells), 0);
  parallel_for(m.n_owned_cells, [&](index first, index end) {
    for (index c = first; c < end; ++c)
      for (int k = 0; k < m.cell_width(); ++k)
        g.pressure_diag[c] += g.mobility[m.cell_faces[m.cell_width() * c + k]];
  });
  return g;
}

}  // namespace scfd::physics::ns
