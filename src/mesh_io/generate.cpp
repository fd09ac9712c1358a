// Structured simplicial meshes of the unit square and the unit cube, built in memory.
//
// Square: each grid quad (a, b, c, d) counter-clockwise is split along the diagonal a-c into
// (a, b, c) and (a, c, d). Cube: each grid cube is split into the 6 Kuhn (Freudenthal) tetrahedra
// that share the main diagonal from corner (0,0,0) to (1,1,1); tetrahedron p runs along the
// monotone path 0 -> e_p0 -> e_p0 + e_p1 -> (1,1,1) for a permutation p of the axes. The split is
// translation invariant, so neighbouring cubes cut their shared face along the same diagonal and
// the mesh is conforming (H. Freudenthal, Ann. of Math. 43 (1942); H. Kuhn, 1960).
// Orientation: every cell has positive signed area/volume; boundary elements follow the induced
// orientation of their cell (2D: counter-clockwise around the domain; 3D: normals point out).
//
// Jitter. Moving every interior node independently by up to 0.3 h per coordinate does invert
// cells (measured: about 6e-4 of Kuhn tetrahedra and 3e-5 of triangles), so nodes are moved one
// at a time in node order; a draw is kept only if every cell around the node keeps at least
// kMinMeasureFraction of its undistorted measure, otherwise up to kMaxDraws fresh draws are tried
// and the node stays put if none fits. Every state along the way is valid, so no cell inverts
// for any jitter; the result depends only on (n, jitter, seed).
#include "mesh_io/generate.hpp"

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <vector>

#include "core/error.hpp"

namespace scfd::mesh_io {
namespace {

constexpr int kRegionTag = 10;
constexpr double kMinMeasureFraction = 0.05;
constexpr int kMaxDraws = 16;
constexpr double kMaxJitter = 0.5;

// One patch per side of the box: axis it is normal to, side (0: coordinate 0, 1: coordinate 1).
struct Patch {
  const char* name;
  int tag;
  int axis;
  int side;
};
constexpr std::array<Patch, 6> kPatches = {{{"left", 1, 0, 0},
                                            {"right", 2, 0, 1},
                                            {"bottom", 3, 1, 0},
                                            {"top", 4, 1, 1},
                                            {"front", 5, 2, 0},
                                            {"back", 6, 2, 1}}};

// The 6 Kuhn tetrahedra of a cube, as corner numbers bx + 2 by + 4 bz. Paths of odd permutations
// have their middle two nodes swapped so that every tetrahedron is positively oriented.
constexpr std::array<std::array<int, 4>, 6> kKuhnTets = {{{0, 1, 3, 7},    // x y z (even)
                                                          {0, 5, 1, 7},    // x z y (odd)
                                                          {0, 3, 2, 7},    // y x z (odd)
                                                          {0, 2, 6, 7},    // y z x (even)
                                                          {0, 4, 5, 7},    // z x y (even)
                                                          {0, 6, 4, 7}}};  // z y x (odd)

// Node numbering of an (n[0]+1) x (n[1]+1) [x (n[2]+1)] grid of nodes, x fastest.
struct Grid {
  int dim = 2;
  std::array<int, 3> n = {1, 1, 0};  // cells per axis; n[2] = 0 in 2D

  index node(int i, int j, int k) const { return i + (n[0] + 1) * (j + (n[1] + 1) * k); }
  index node(const std::array<int, 3>& ijk) const { return node(ijk[0], ijk[1], ijk[2]); }
  std::int64_t n_nodes() const {
    return std::int64_t{n[0] + 1} * (n[1] + 1) * (dim == 3 ? n[2] + 1 : 1);
  }
  std::int64_t n_cells() const {
    return dim == 2 ? 2 * std::int64_t{n[0]} * n[1] : 6 * std::int64_t{n[0]} * n[1] * n[2];
  }
  // Nominal area (2D) or volume (3D) of one undistorted cell.
  double cell_measure() const { return 1.0 / static_cast<double>(n_cells()); }
};

// splitmix64 (S. Vigna): a tiny, well-mixed generator, identical on every platform.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [-1, 1), from the top 53 bits.
  double symmetric() { return static_cast<double>(next() >> 11) * 0x1.0p-52 - 1.0; }

 private:
  std::uint64_t state_;
};

// Signed area (2D, counter-clockwise positive) or volume (3D) of cell c.
double signed_measure(const RawMesh& m, index c) {
  const index* v = &m.cells[static_cast<std::size_t>(c) * (m.dim + 1)];
  const Vec3 a = m.nodes[v[0]];
  const Vec3 e1 = m.nodes[v[1]] - a;
  const Vec3 e2 = m.nodes[v[2]] - a;
  if (m.dim == 2) return 0.5 * (e1.x * e2.y - e1.y * e2.x);
  return dot(cross(e1, e2), m.nodes[v[3]] - a) / 6.0;
}

void make_nodes(const Grid& g, RawMesh& m) {
  const auto nn = static_cast<std::size_t>(g.n_nodes());
  m.nodes.resize(nn);
  m.node_tags.resize(nn);
  const int nk = g.dim == 3 ? g.n[2] : 0;
  for (int k = 0; k <= nk; ++k) {
    const double z = nk == 0 ? 0.0 : static_cast<double>(k) / nk;
    for (int j = 0; j <= g.n[1]; ++j) {
      const double y = static_cast<double>(j) / g.n[1];
      for (int i = 0; i <= g.n[0]; ++i) {
        const index id = g.node(i, j, k);
        m.nodes[id] = {static_cast<double>(i) / g.n[0], y, z};
        m.node_tags[id] = id + 1;
      }
    }
  }
}

void make_triangles(const Grid& g, RawMesh& m) {
  m.cells.reserve(static_cast<std::size_t>(g.n_cells()) * 3);
  for (int j = 0; j < g.n[1]; ++j) {
    for (int i = 0; i < g.n[0]; ++i) {
      const index a = g.node(i, j, 0), b = g.node(i + 1, j, 0);
      const index c = g.node(i + 1, j + 1, 0), d = g.node(i, j + 1, 0);
      m.cells.insert(m.cells.end(), {a, b, c, a, c, d});
    }
  }
}

void make_tetrahedra(const Grid& g, RawMesh& m) {
  m.cells.resize(static_cast<std::size_t>(g.n_cells()) * 4);
  // Node offsets of the 8 cube corners; the same for every cube.
  std::array<index, 8> corner{};
  for (int b = 0; b < 8; ++b) corner[b] = g.node(b & 1, (b >> 1) & 1, (b >> 2) & 1);
  index* out = m.cells.data();
  for (int k = 0; k < g.n[2]; ++k) {
    for (int j = 0; j < g.n[1]; ++j) {
      for (int i = 0; i < g.n[0]; ++i) {
        const index base = g.node(i, j, k);
        for (const auto& tet : kKuhnTets) {
          for (int v = 0; v < 4; ++v) *out++ = base + corner[tet[v]];
        }
      }
    }
  }
}

// Boundary elements of one patch. In the patch's plane the tangent axes u < v (v only in 3D)
// are those other than p.axis; segments/quads are taken along them, split like the cells, and
// flipped where e_u x e_v (3D) or the right-hand normal of e_u (2D) points inwards.
void make_patch(const Grid& g, const Patch& p, RawMesh& m) {
  int u = -1, v = -1;
  for (int a = 0; a < g.dim; ++a) {
    if (a == p.axis) continue;
    (u < 0 ? u : v) = a;
  }
  // e_u x e_v is +x, -y, +z for normal axis x, y, z; the 2D right-hand normals follow suit.
  const bool flip = (p.axis == 1) == (p.side == 1);
  std::array<int, 3> ijk{};
  ijk[p.axis] = p.side * g.n[p.axis];
  const int nv = v < 0 ? 1 : g.n[v];
  for (int b = 0; b < nv; ++b) {
    for (int a = 0; a < g.n[u]; ++a) {
      auto at = [&](int da, int db) {
        ijk[u] = a + da;
        if (v >= 0) ijk[v] = b + db;
        return g.node(ijk);
      };
      if (g.dim == 2) {
        const index n0 = at(0, 0), n1 = at(1, 0);
        m.bfaces.insert(m.bfaces.end(), {flip ? n1 : n0, flip ? n0 : n1});
        m.bface_group.push_back(p.tag);
        continue;
      }
      const index n00 = at(0, 0), n10 = at(1, 0), n11 = at(1, 1), n01 = at(0, 1);
      if (flip) {
        m.bfaces.insert(m.bfaces.end(), {n00, n11, n10, n00, n01, n11});
      } else {
        m.bfaces.insert(m.bfaces.end(), {n00, n10, n11, n00, n11, n01});
      }
      m.bface_group.insert(m.bface_group.end(), {p.tag, p.tag});
    }
  }
}

// Element numbers as Gmsh gives them: unique over the file, boundary elements first.
void make_elements(const Grid& g, RawMesh& m) {
  const int n_patches = 2 * g.dim;
  for (int p = 0; p < n_patches; ++p) make_patch(g, kPatches[p], m);
  const auto nb = static_cast<std::int64_t>(m.bface_group.size());
  m.bface_tags.resize(static_cast<std::size_t>(nb));
  for (std::int64_t e = 0; e < nb; ++e) m.bface_tags[e] = e + 1;
  const auto nc = static_cast<std::size_t>(g.n_cells());
  m.cell_tags.resize(nc);
  for (std::size_t c = 0; c < nc; ++c) m.cell_tags[c] = nb + static_cast<std::int64_t>(c) + 1;
  m.cell_group.assign(nc, kRegionTag);
  for (int p = 0; p < n_patches; ++p) {
    m.groups.push_back({g.dim - 1, kPatches[p].tag, kPatches[p].name});
  }
  m.groups.push_back({g.dim, kRegionTag, "domain"});
}

// Node -> cells incidence in compressed rows (offsets has n_nodes + 1 entries).
struct NodeCells {
  std::vector<index> offsets;
  std::vector<index> cells;
};

NodeCells node_cells(const RawMesh& m) {
  const int nv = m.dim + 1;
  NodeCells nc;
  nc.offsets.assign(static_cast<std::size_t>(m.n_nodes()) + 1, 0);
  for (const index v : m.cells) ++nc.offsets[static_cast<std::size_t>(v) + 1];
  for (std::size_t i = 1; i < nc.offsets.size(); ++i) nc.offsets[i] += nc.offsets[i - 1];
  nc.cells.resize(m.cells.size());
  std::vector<index> fill(nc.offsets.begin(), nc.offsets.end() - 1);
  for (std::size_t i = 0; i < m.cells.size(); ++i) {
    nc.cells[fill[m.cells[i]]++] = static_cast<index>(i / nv);
  }
  return nc;
}

bool on_boundary(const Grid& g, index node) {
  const int nx = g.n[0] + 1, ny = g.n[1] + 1;
  const int i = node % nx, j = (node / nx) % ny, k = node / (nx * ny);
  const bool in_xy = i > 0 && i < g.n[0] && j > 0 && j < g.n[1];
  return g.dim == 2 ? !in_xy : !(in_xy && k > 0 && k < g.n[2]);
}

void jitter_interior_nodes(const Grid& g, double jitter, std::uint64_t seed, RawMesh& m) {
  const NodeCells nc = node_cells(m);
  const double min_measure = kMinMeasureFraction * g.cell_measure();
  std::array<double, 3> amplitude{};
  for (int a = 0; a < g.dim; ++a) amplitude[a] = jitter / g.n[a];
  SplitMix64 rng(seed);
  for (index node = 0; node < m.n_nodes(); ++node) {
    if (on_boundary(g, node)) continue;
    const Vec3 home = m.nodes[node];
    bool kept = false;
    for (int draw = 0; draw < kMaxDraws && !kept; ++draw) {
      Vec3 moved = home;
      for (int a = 0; a < g.dim; ++a) moved[a] += amplitude[a] * rng.symmetric();
      m.nodes[node] = moved;
      kept = true;
      for (index r = nc.offsets[node]; r < nc.offsets[node + 1] && kept; ++r) {
        kept = signed_measure(m, nc.cells[r]) >= min_measure;
      }
    }
    if (!kept) m.nodes[node] = home;
  }
}

void check_positive(const RawMesh& m) {
  for (index c = 0; c < m.n_cells(); ++c) {
    const double s = signed_measure(m, c);
    SCFD_CHECK(s > 0, "{}: cell {} has signed measure {}", m.source, c, s);
  }
}

RawMesh generate(const Grid& g, double jitter, std::uint64_t seed, std::string source) {
  for (int a = 0; a < g.dim; ++a) SCFD_CHECK(g.n[a] >= 1, "{}: need >= 1 cell per axis", source);
  SCFD_CHECK(g.n_nodes() < INT32_MAX && g.n_cells() * (g.dim + 1) < INT32_MAX,
             "{}: too large for 32-bit indices", source);
  SCFD_CHECK(jitter >= 0 && jitter <= kMaxJitter, "{}: jitter must be in [0, {}]", source,
             kMaxJitter);
  RawMesh m;
  m.source = std::move(source);
  m.dim = g.dim;
  make_nodes(g, m);
  if (g.dim == 2) {
    make_triangles(g, m);
  } else {
    make_tetrahedra(g, m);
  }
  make_elements(g, m);
  if (jitter > 0) jitter_interior_nodes(g, jitter, seed, m);
  check_positive(m);
  return m;
}

}  // namespace

RawMesh generate_square(int nx, int ny, double jitter, std::uint64_t seed) {
  std::string source =
      fmt::format("generated:square({},{},jitter={},seed={})", nx, ny, jitter, seed);
  return generate(Grid{2, {nx, ny, 0}}, jitter, seed, std::move(source));
}

RawMesh generate_cube(int nx, int ny, int nz, double jitter, std::uint64_t seed) {
  std::string source =
      fmt::format("generated:cube({},{},{},jitter={},seed={})", nx, ny, nz, jitter, seed);
  return generate(Grid{3, {nx, ny, nz}}, jitter, seed, std::move(source));
}

}  // namespace scfd::mesh_io
