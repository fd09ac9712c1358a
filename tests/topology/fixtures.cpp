// Test meshes for the topology tests (see fixtures.hpp). Independent of the library: boundary
// faces are found by sorting the cells' face tuples, Kuhn subdivision splits each hexahedron
// into the 6 tetrahedra along its main diagonal (conforming across hexahedra).
// Reference: H. W. Kuhn, "Some combinatorial lemmas in topology", IBM J. Res. Dev. 4 (1960).
#include "topology/fixtures.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <random>

namespace scfd::topology::testing {
namespace {

// Face node tuples of a cell (any orientation), sorted.
std::vector<std::array<index, 3>> cell_face_tuples(int dim, const index* c) {
  std::vector<std::array<index, 3>> out;
  for (int skip = 0; skip <= dim; ++skip) {
    std::array<index, 3> t{-1, -1, -1};
    int n = 0;
    for (int k = 0; k <= dim; ++k)
      if (k != skip) t[n++] = c[k];
    if (t[0] > t[1]) std::swap(t[0], t[1]);
    if (dim == 3 && t[1] > t[2]) std::swap(t[1], t[2]);
    if (t[0] > t[1]) std::swap(t[0], t[1]);
    out.push_back(t);
  }
  return out;
}

int side_group(int dim, const RawMesh& raw, const std::array<index, 3>& t) {
  // Tags 1..6 for the box sides, 9 for any other boundary.
  for (int axis = 0; axis < dim; ++axis) {
    for (int end = 0; end < 2; ++end) {
      bool all = true;
      for (int i = 0; i < dim; ++i) all = all && raw.nodes[t[i]][axis] == double(end);
      if (all) return 1 + 2 * axis + end;
    }
  }
  return 9;
}

// The groups of the tags in use (a declared group without faces is an input error).
void add_groups(RawMesh& raw) {
  const char* names[] = {"left", "right", "bottom", "top", "front", "back"};
  const auto used = [&](int tag) {
    return std::find(raw.bface_group.begin(), raw.bface_group.end(), tag) != raw.bface_group.end();
  };
  for (int t = 1; t <= 2 * raw.dim; ++t)
    if (used(t)) raw.groups.push_back({raw.dim - 1, t, names[t - 1]});
  if (used(9)) raw.groups.push_back({raw.dim - 1, 9, "wall"});
  raw.groups.push_back({raw.dim, kRegionTag, "fluid"});
}

}  // namespace

double simplex_volume(int dim, const Vec3* x) {
  const Vec3 a = x[1] - x[0], b = x[2] - x[0];
  if (dim == 2) return 0.5 * (a.x * b.y - a.y * b.x);
  const Vec3 c = x[3] - x[0];
  return (a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x) +
          a.z * (b.x * c.y - b.y * c.x)) /
         6.0;
}

RawMesh make_raw(int dim, const std::vector<Vec3>& nodes, const std::vector<index>& cells,
                 bool orient) {
  RawMesh raw;
  raw.source = "test.msh";
  raw.dim = dim;
  const int w = dim + 1;
  std::vector<index> renum(nodes.size(), -1);
  for (index n : cells) renum[n] = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (renum[i] < 0) continue;
    renum[i] = static_cast<index>(raw.nodes.size());
    raw.node_tags.push_back(kNodeTag0 + static_cast<std::int64_t>(raw.nodes.size()));
    raw.nodes.push_back(nodes[i]);
  }
  for (index n : cells) raw.cells.push_back(renum[n]);
  const std::size_t nc = cells.size() / w;
  for (std::size_t c = 0; c < nc; ++c) {
    raw.cell_tags.push_back(kCellTag0 + static_cast<std::int64_t>(c));
    raw.cell_group.push_back(kRegionTag);
    std::array<Vec3, 4> x;
    for (int k = 0; k < w; ++k) x[k] = raw.nodes[raw.cells[c * w + k]];
    if (orient && simplex_volume(dim, x.data()) < 0)
      std::swap(raw.cells[c * w], raw.cells[c * w + 1]);
  }
  std::vector<std::array<index, 3>> faces;
  for (std::size_t c = 0; c < nc; ++c)
    for (const auto& t : cell_face_tuples(dim, &raw.cells[c * w])) faces.push_back(t);
  std::sort(faces.begin(), faces.end());
  for (std::size_t i = 0; i < faces.size();) {
    std::size_t j = i;
    while (j < faces.size() && faces[j] == faces[i]) ++j;
    if (j - i == 1) {
      for (int k = 0; k < dim; ++k) raw.bfaces.push_back(faces[i][k]);
      raw.bface_tags.push_back(kBfaceTag0 + static_cast<std::int64_t>(raw.bface_group.size()));
      raw.bface_group.push_back(side_group(dim, raw, faces[i]));
    }
    i = j;
  }
  add_groups(raw);
  return raw;
}

RawMesh grid_square(int nx, int ny, const std::function<bool(int, int)>& keep) {
  std::vector<Vec3> nodes;
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) nodes.push_back({double(i) / nx, double(j) / ny, 0});
  auto id = [&](int i, int j) { return static_cast<index>(j * (nx + 1) + i); };
  std::vector<index> cells;
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      if (keep && !keep(i, j)) continue;
      const index a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1), d = id(i, j + 1);
      if ((i + j) % 2 == 0) {
        cells.insert(cells.end(), {a, b, c, a, c, d});
      } else {
        cells.insert(cells.end(), {a, b, d, b, c, d});
      }
    }
  }
  return make_raw(2, nodes, cells);
}

RawMesh grid_cube(int nx, int ny, int nz, const std::function<bool(int, int, int)>& keep) {
  std::vector<Vec3> nodes;
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)
        nodes.push_back({double(i) / nx, double(j) / ny, double(k) / nz});
  auto id = [&](int i, int j, int k) {
    return static_cast<index>((k * (ny + 1) + j) * (nx + 1) + i);
  };
  const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  std::vector<index> cells;
  cells.reserve(static_cast<std::size_t>(nx) * ny * nz * 24);
  for (int k = 0; k < nz; ++k) {
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        if (keep && !keep(i, j, k)) continue;
        for (const auto& p : perms) {
          int c[3] = {i, j, k};
          cells.push_back(id(c[0], c[1], c[2]));
          for (int s = 0; s < 3; ++s) {
            ++c[p[s]];
            cells.push_back(id(c[0], c[1], c[2]));
          }
        }
      }
    }
  }
  return make_raw(3, nodes, cells);
}

void jitter(RawMesh& raw, double amount, double h, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (Vec3& p : raw.nodes) {
    bool inside = true;
    for (int i = 0; i < raw.dim; ++i) inside = inside && p[i] > 0 && p[i] < 1;
    for (int i = 0; i < raw.dim; ++i) {
      const double r = u(rng);
      if (inside) p[i] += amount * h * r;
    }
  }
}

void distort(RawMesh& raw) {
  const double pi = std::acos(-1.0);
  for (Vec3& p : raw.nodes) {
    const Vec3 q = p;
    p.x = q.x * q.x * q.x;
    p.y = q.y + 0.25 * std::sin(pi * q.y) * std::sin(pi * q.x);
    if (raw.dim == 3) p.z = q.z + 0.25 * std::sin(pi * q.z) * std::sin(pi * q.y);
  }
}

RawMesh shuffled(const RawMesh& raw, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto perm = [&](std::size_t n) {
    std::vector<index> p(n);
    std::iota(p.begin(), p.end(), 0);
    std::shuffle(p.begin(), p.end(), rng);
    return p;
  };
  const int w = raw.dim + 1, d = raw.dim;
  RawMesh out = raw;
  const std::vector<index> np = perm(raw.nodes.size()), cp = perm(raw.cell_tags.size()),
                           bp = perm(raw.bface_tags.size());
  std::vector<index> node_new(np.size());
  for (std::size_t i = 0; i < np.size(); ++i) {
    node_new[np[i]] = static_cast<index>(i);
    out.nodes[i] = raw.nodes[np[i]];
    out.node_tags[i] = raw.node_tags[np[i]];
  }
  for (std::size_t c = 0; c < cp.size(); ++c) {
    for (int k = 0; k < w; ++k) out.cells[c * w + k] = node_new[raw.cells[cp[c] * w + k]];
    out.cell_tags[c] = raw.cell_tags[cp[c]];
    out.cell_group[c] = raw.cell_group[cp[c]];
  }
  for (std::size_t b = 0; b < bp.size(); ++b) {
    for (int k = 0; k < d; ++k) out.bfaces[b * d + k] = node_new[raw.bfaces[bp[b] * d + k]];
    out.bface_tags[b] = raw.bface_tags[bp[b]];
    out.bface_group[b] = raw.bface_group[bp[b]];
  }
  return out;
}

}  // namespace scfd::topology::testing
