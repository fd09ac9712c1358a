// Test meshes for the cpu operator tests: generated squares and cubes (structured, jittered by
// 0.25 and 0.45 of the spacing, and structured but stretched 100x and sheared), plus the
// committed Gmsh meshes under meshes/ when present. Built once per process and cached.
#include "test_meshes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <random>

#include "mesh_io/generate.hpp"
#include "mesh_io/gmsh.hpp"
#include "topology/build.hpp"

namespace scfd::test {
namespace {

// Stretch x by 100 and shear: an affine map with positive determinant keeps the orientation.
void stretch_and_shear(mesh_io::RawMesh& raw) {
  for (Vec3& x : raw.nodes) {
    const Vec3 p = x;
    x.x = 100 * p.x + 30 * p.y + (raw.dim == 3 ? 20 * p.z : 0);
    if (raw.dim == 3) x.z = p.z + 0.3 * p.y;
  }
}

// The committed level-1 mesh meshes/<name>-1.msh (meshes/README.md), or meshes/<name>.msh; empty
// if neither exists.
std::string gmsh_path(const std::string& file) {
  const std::filesystem::path root = std::filesystem::path(SCFD_SOURCE_DIR) / "meshes";
  for (const auto& p : {root / (file + "-1.msh"), root / (file + ".msh")})
    if (std::filesystem::exists(p)) return p.string();
  return {};
}

const std::map<std::string, std::string>& gmsh_files() {
  static const std::map<std::string, std::string> files = {
      {"gmsh_square", "square"},
      {"gmsh_cube", "cube"},
      {"gmsh_channel2d_cylinder", "channel2d-cylinder"},
      {"gmsh_channel3d_cylinder", "channel3d-cylinder"},
      {"gmsh_part", "part"}};
  return files;
}

std::unique_ptr<Mesh> make_mesh(const std::string& name) {
  if (auto it = gmsh_files().find(name); it != gmsh_files().end()) {
    const std::string path = gmsh_path(it->second);
    if (path.empty()) return nullptr;
    return std::make_unique<Mesh>(topology::build_mesh(mesh_io::read_gmsh(path)));
  }
  mesh_io::RawMesh raw;
  const bool square = name.starts_with("square");
  const bool sheared = name.ends_with("sheared");
  const double jitter = name.ends_with("irregular") ? 0.25 : name.ends_with("distorted") ? 0.45 : 0;
  if (square)
    raw = sheared ? mesh_io::generate_square(10, 8) : mesh_io::generate_square(12, 10, jitter, 7);
  else
    raw = sheared ? mesh_io::generate_cube(4, 3, 3) : mesh_io::generate_cube(4, 4, 4, jitter, 7);
  if (sheared) stretch_and_shear(raw);
  return std::make_unique<Mesh>(topology::build_mesh(raw));
}

}  // namespace

std::vector<std::string> mesh_names() {
  std::vector<std::string> names;
  for (const char* shape : {"square", "cube"})
    for (const char* kind : {"structured", "irregular", "distorted", "sheared"})
      names.push_back(std::string(shape) + "_" + kind);
  for (const auto& [name, file] : gmsh_files()) names.push_back(name);
  return names;
}

const Mesh* find_mesh(const std::string& name) {
  static std::map<std::string, std::unique_ptr<Mesh>> cache;
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(name, make_mesh(name)).first;
  return it->second.get();
}

std::vector<real> random_field(std::size_t n, std::uint64_t seed, real lo, real hi) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<real> dist(lo, hi);
  std::vector<real> v(n);
  for (real& x : v) x = dist(gen);
  return v;
}

std::vector<Vec3> random_vectors(std::size_t n, int dim, std::uint64_t seed) {
  const std::vector<real> r = random_field(3 * n, seed);
  std::vector<Vec3> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = {r[3 * i], r[3 * i + 1], dim == 3 ? r[3 * i + 2] : 0};
  return v;
}

real max_abs(std::span<const real> v) {
  real m = 0;
  for (real x : v) m = std::max(m, std::abs(x));
  return m;
}

real inner(std::span<const real> a, std::span<const real> b) {
  real s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

real mesh_size(const Mesh& m) {
  Vec3 lo = m.node_x.at(0), hi = lo;
  for (const Vec3& x : m.node_x)
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], x[k]);
      hi[k] = std::max(hi[k], x[k]);
    }
  return norm(hi - lo);
}

Vec3 face_circumcentre(const Mesh& m, index f) {
  const index* n = m.face_nodes.data() + static_cast<std::size_t>(f) * m.face_width();
  const Vec3 x0 = m.node_x[n[0]];
  if (m.dim == 2) return 0.5 * (x0 + m.node_x[n[1]]);
  const Vec3 a = m.node_x[n[1]] - x0, b = m.node_x[n[2]] - x0;
  const Vec3 axb = cross(a, b);
  return x0 + cross(dot(a, a) * b - dot(b, b) * a, axb) / (2 * dot(axb, axb));
}

std::vector<bool> interior_nodes(const Mesh& m) {
  std::vector<bool> interior(m.n_nodes, true);
  for (index f = m.n_interior_faces; f < m.n_faces; ++f)
    for (int k = 0; k < m.face_width(); ++k) interior[m.face_nodes[f * m.face_width() + k]] = false;
  return interior;
}

void report(const std::string& what, real relative_error) {
  std::printf("[ max rel err ] %-60s %.3e\n", what.c_str(), relative_error);
}

void MeshTest::SetUp() {
  mesh_ = find_mesh(GetParam());
  if (mesh_ == nullptr) GTEST_SKIP() << "mesh file for " << GetParam() << " is missing";
}

}  // namespace scfd::test
