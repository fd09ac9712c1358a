// Geometry of build_mesh: total and median-dual volumes equal the domain's; circumcentres are
// equidistant from the nodes; median-dual edge normals close around every interior node and
// satisfy sum_e S_e ⊗ (x_q - x_p) = |Omega| I (the dual's divergence theorem for the field x);
// edge_stiffness equals an independently assembled dense P1 stiffness matrix (K_ij = -w_e,
// K_ii = sum of the node's w_e); quality 1 for equilateral/regular elements.
// Reference for the identities: Barth, AIAA 91-0721 (median dual = P1 Galerkin).
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/threads.hpp"
#include "mesh_io/generate.hpp"
#include "topology/build.hpp"
#include "topology/fixtures.hpp"
#include "topology/invariants.hpp"
#include "topology/quality.hpp"

namespace scfd::topology::testing {
namespace {

std::vector<RawMesh> sample_meshes() {
  std::vector<RawMesh> out = {mesh_io::generate_square(7, 5),
                              mesh_io::generate_square(7, 5, 0.25),
                              mesh_io::generate_cube(3, 4, 3),
                              mesh_io::generate_cube(4, 3, 3, 0.25),
                              grid_square(9, 8),
                              grid_cube(4, 4, 5)};
  distort(out[4]);
  distort(out[5]);
  return out;
}

// The bits of a vector of reals or Vec3s.
std::vector<std::uint64_t> bits(const std::vector<double>& v) {
  std::vector<std::uint64_t> out;
  for (const double x : v) out.push_back(std::bit_cast<std::uint64_t>(x));
  return out;
}
std::vector<std::uint64_t> bits(const std::vector<Vec3>& v) {
  std::vector<std::uint64_t> out;
  for (const Vec3& x : v)
    for (int k = 0; k < 3; ++k) out.push_back(std::bit_cast<std::uint64_t>(x[k]));
  return out;
}

// The geometry loops run on the host threads, the dual's sums gathered per node in ascending
// cell order; the faces' and edges' matching (slot_sort.hpp) and the transposes (node_cells,
// node_edges, curl_faces) are cut by buckets and columns, each walking the slots in order: the
// same numbering and the same bits on 1 and on 3 threads (as in one serial pass). The meshes are
// large enough for 3 chunks of nodes (a loop's chunks hold at least 4,096 items).
TEST(TopologyGeometry, SameBitsOnAnyThreadCount) {
  for (const RawMesh& raw :
       {mesh_io::generate_square(130, 110, 0.25), mesh_io::generate_cube(24, 23, 22, 0.25)}) {
    set_host_threads(1);
    const Mesh one = build_mesh(raw);
    set_host_threads(3);
    const Mesh three = build_mesh(raw);
    set_host_threads(1);
    EXPECT_EQ(bits(one.cell_volume), bits(three.cell_volume));
    EXPECT_EQ(bits(one.cell_centroid), bits(three.cell_centroid));
    EXPECT_EQ(bits(one.cell_circumcentre), bits(three.cell_circumcentre));
    EXPECT_EQ(bits(one.face_area), bits(three.face_area));
    EXPECT_EQ(bits(one.face_normal), bits(three.face_normal));
    EXPECT_EQ(bits(one.face_centre), bits(three.face_centre));
    EXPECT_EQ(bits(one.face_dist), bits(three.face_dist));
    EXPECT_EQ(bits(one.node_dual_volume), bits(three.node_dual_volume));
    EXPECT_EQ(bits(one.edge_dual_normal), bits(three.edge_dual_normal));
    EXPECT_EQ(bits(one.edge_stiffness), bits(three.edge_stiffness));
    EXPECT_EQ(one.face_nodes, three.face_nodes);
    EXPECT_EQ(one.face_cells, three.face_cells);
    EXPECT_EQ(one.cell_faces, three.cell_faces);
    EXPECT_EQ(one.cell_face_sign, three.cell_face_sign);
    EXPECT_EQ(one.edge_nodes, three.edge_nodes);
    EXPECT_EQ(one.face_curl, three.face_curl);
    EXPECT_EQ(one.face_curl_sign, three.face_curl_sign);
    for (const auto& [a, b] : {std::pair{&one.node_cells, &three.node_cells},
                               std::pair{&one.node_edges, &three.node_edges},
                               std::pair{&one.curl_faces, &three.curl_faces}}) {
      EXPECT_EQ(a->offset, b->offset);
      EXPECT_EQ(a->item, b->item);
      EXPECT_EQ(a->sign, b->sign);
    }
  }
}

TEST(TopologyGeometry, VolumesAndDualVolumes) {
  for (const RawMesh& raw : sample_meshes()) {
    const Mesh m = build_mesh(raw);
    EXPECT_NEAR(total_volume(m), 1.0, 1e-13);
    double dual = 0;
    for (double v : m.node_dual_volume) dual += v;
    EXPECT_NEAR(dual, 1.0, 1e-13);
  }
}

TEST(TopologyGeometry, CentroidsAndCircumcentres) {
  for (const RawMesh& raw : sample_meshes()) {
    const Mesh m = build_mesh(raw);
    const int w = m.cell_width();
    for (index c = 0; c < m.n_cells; ++c) {
      std::array<Vec3, 4> x;
      Vec3 g{};
      for (int k = 0; k < w; ++k) {
        x[k] = m.node_x[m.cell_nodes[std::size_t(c) * w + k]];
        g += x[k] / double(w);
      }
      EXPECT_NEAR(m.cell_volume[c], simplex_volume(m.dim, x.data()), 1e-15);
      EXPECT_LT(norm(m.cell_centroid[c] - g), 1e-15);
      const double r0 = norm(m.cell_circumcentre[c] - x[0]);
      for (int k = 1; k < w; ++k) EXPECT_NEAR(norm(m.cell_circumcentre[c] - x[k]), r0, 1e-12 * r0);
    }
  }
}

TEST(TopologyGeometry, FaceDistanceOnRightTriangles) {
  // Right triangles: circumcentres at the hypotenuse midpoints, so diagonal faces have distance
  // 0 and the others h/2 + h/2 (or h/2 at the boundary).
  const Mesh m = build_mesh(mesh_io::generate_square(4, 4));
  for (index f = 0; f < m.n_faces; ++f) {
    const Vec3 n = m.face_normal[f];
    const bool diagonal = std::abs(n.x) > 0.1 && std::abs(n.y) > 0.1;
    const double expect = diagonal ? 0.0 : (m.is_boundary_face(f) ? 0.125 : 0.25);
    EXPECT_NEAR(m.face_dist[f], expect, 1e-14) << "face " << f;
  }
}

TEST(TopologyGeometry, DualNormalsCloseAndIntegrateX) {
  for (const RawMesh& raw : sample_meshes()) {
    const Mesh m = build_mesh(raw);
    std::vector<char> on_boundary(std::size_t(m.n_nodes), 0);
    for (const Patch& p : m.patches)
      for (index n : p.nodes) on_boundary[n] = 1;
    for (index n = 0; n < m.n_nodes; ++n) {
      if (on_boundary[n]) continue;
      Vec3 sum{};
      const auto edges = m.node_edges.row(n);
      const auto sign = m.node_edges.row_sign(n);
      for (std::size_t i = 0; i < edges.size(); ++i)
        sum += double(sign[i]) * m.edge_dual_normal[edges[i]];
      EXPECT_LT(norm(sum), 1e-14) << "node " << n;
    }
    double t[3][3] = {};
    for (index e = 0; e < m.n_edges; ++e) {
      const Vec3 d = m.node_x[m.edge_nodes[2 * e + 1]] - m.node_x[m.edge_nodes[2 * e]];
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) t[i][j] += m.edge_dual_normal[e][i] * d[j];
    }
    for (int i = 0; i < m.dim; ++i)
      for (int j = 0; j < m.dim; ++j) EXPECT_NEAR(t[i][j], i == j ? 1.0 : 0.0, 1e-13);
  }
}

// Gradients of the P1 basis of a simplex from the inverse of [1 x y (z)] (Gauss-Jordan).
std::array<Vec3, 4> p1_gradients(int dim, const std::array<Vec3, 4>& x) {
  const int w = dim + 1;
  double a[4][8] = {};
  for (int r = 0; r < w; ++r) {
    a[r][0] = 1;
    for (int j = 0; j < dim; ++j) a[r][1 + j] = x[r][j];
    a[r][w + r] = 1;
  }
  for (int col = 0; col < w; ++col) {
    int piv = col;
    for (int r = col + 1; r < w; ++r)
      if (std::abs(a[r][col]) > std::abs(a[piv][col])) piv = r;
    for (int j = 0; j < 2 * w; ++j) std::swap(a[col][j], a[piv][j]);
    const double p = a[col][col];
    for (int j = 0; j < 2 * w; ++j) a[col][j] /= p;
    for (int r = 0; r < w; ++r) {
      if (r == col) continue;
      const double f = a[r][col];
      for (int j = 0; j < 2 * w; ++j) a[r][j] -= f * a[col][j];
    }
  }
  // inverse(M)[j][k] = a[j][w + k]; phi_k = sum_j inverse[j][k] * (1, x, y, z)_j.
  std::array<Vec3, 4> g{};
  for (int k = 0; k < w; ++k)
    for (int j = 0; j < dim; ++j) g[k][j] = a[1 + j][w + k];
  return g;
}

void expect_stiffness_matches_p1(const Mesh& m) {
  const auto n = std::size_t(m.n_nodes);
  std::vector<double> k(n * n, 0.0);
  const int w = m.cell_width();
  for (index c = 0; c < m.n_cells; ++c) {
    std::array<Vec3, 4> x;
    std::array<index, 4> id{};
    for (int i = 0; i < w; ++i) {
      id[i] = m.cell_nodes[std::size_t(c) * w + i];
      x[i] = m.node_x[id[i]];
    }
    const double v = std::abs(simplex_volume(m.dim, x.data()));
    const std::array<Vec3, 4> g = p1_gradients(m.dim, x);
    for (int i = 0; i < w; ++i)
      for (int j = 0; j < w; ++j) k[std::size_t(id[i]) * n + id[j]] += v * dot(g[i], g[j]);
  }
  std::vector<double> ours(n * n, 0.0);
  for (index e = 0; e < m.n_edges; ++e) {
    const auto a = std::size_t(m.edge_nodes[2 * e]), b = std::size_t(m.edge_nodes[2 * e + 1]);
    const double we = m.edge_stiffness[e];
    ours[a * n + b] -= we;
    ours[b * n + a] -= we;
    ours[a * n + a] += we;
    ours[b * n + b] += we;
  }
  double scale = 0;
  for (double x : k) scale = std::max(scale, std::abs(x));
  for (std::size_t i = 0; i < n * n; ++i) EXPECT_NEAR(ours[i], k[i], 1e-12 * scale) << i;
}

TEST(TopologyGeometry, EdgeStiffnessIsDenseP1) {
  RawMesh distorted = grid_cube(3, 3, 2);
  distort(distorted);
  for (const RawMesh& raw :
       {mesh_io::generate_square(5, 4, 0.3), mesh_io::generate_cube(3, 2, 3, 0.3), distorted}) {
    expect_stiffness_matches_p1(build_mesh(raw));
  }
}

TEST(TopologyGeometry, StiffnessAnnihilatesLinearFields) {
  const Mesh m = build_mesh(mesh_io::generate_cube(4, 4, 4, 0.3));
  std::vector<double> t(std::size_t(m.n_nodes)), kt(std::size_t(m.n_nodes), 0.0);
  for (index n = 0; n < m.n_nodes; ++n)
    t[n] = 1 + 2 * m.node_x[n].x - 3 * m.node_x[n].y + m.node_x[n].z;
  for (index e = 0; e < m.n_edges; ++e) {
    const index a = m.edge_nodes[2 * e], b = m.edge_nodes[2 * e + 1];
    const double flux = m.edge_stiffness[e] * (t[a] - t[b]);
    kt[a] += flux;
    kt[b] -= flux;
  }
  std::vector<char> on_boundary(std::size_t(m.n_nodes), 0);
  for (const Patch& p : m.patches)
    for (index n : p.nodes) on_boundary[n] = 1;
  for (index n = 0; n < m.n_nodes; ++n)
    if (!on_boundary[n]) {
      EXPECT_NEAR(kt[n], 0.0, 1e-12) << "node " << n;
    }
}

TEST(TopologyGeometry, QualityOfKnownElements) {
  const double s3 = std::sqrt(3.0);
  const Mesh tri = build_mesh(make_raw(2, {{0, 0, 0}, {1, 0, 0}, {0.5, s3 / 2, 0}}, {0, 1, 2}));
  EXPECT_NEAR(cell_quality(tri)[0], 1.0, 1e-14);
  const Mesh right = build_mesh(make_raw(2, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {0, 1, 2}));
  EXPECT_NEAR(cell_quality(right)[0], 2 * (2 - std::sqrt(2.0)) / 2 / (std::sqrt(2.0) / 2), 1e-14);
  const Mesh tet =
      build_mesh(make_raw(3, {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}}, {0, 1, 2, 3}));
  EXPECT_NEAR(cell_quality(tet)[0], 1.0, 1e-14);
  const Mesh sliver =
      build_mesh(make_raw(3, {{0, 0, 0}, {1, 0, 0}, {1, 1, 0.01}, {0, 1, 0}}, {0, 1, 2, 3}));
  EXPECT_LT(cell_quality(sliver)[0], 0.1);
  for (double q : cell_quality(build_mesh(mesh_io::generate_cube(3, 3, 3, 0.4)))) {
    EXPECT_GT(q, 0);
    EXPECT_LE(q, 1 + 1e-12);
  }
}

}  // namespace
}  // namespace scfd::topology::testing
