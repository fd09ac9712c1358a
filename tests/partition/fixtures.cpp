// Shared meshes and checks of the partition tests (fixtures.hpp).
#include "partition/fixtures.hpp"

#include <algorithm>
#include <map>
#include <memory>

#include "mesh_io/generate.hpp"
#include "mesh_io/gmsh.hpp"
#include "partition/partition.hpp"
#include "topology/build.hpp"

namespace scfd::partition::testing {
namespace {

const std::map<std::string, std::string>& gmsh_files() {
  static const std::map<std::string, std::string> files = {
      {"gmsh_square", "square-2.msh"},
      {"gmsh_cube", "cube-2.msh"},
      {"gmsh_channel2d", "channel2d-cylinder-1.msh"},
      {"gmsh_channel3d", "channel3d-cylinder-1.msh"},
      {"gmsh_part", "part-1.msh"}};
  return files;
}

Mesh make_mesh(const std::string& name) {
  if (name == "square_jitter")
    return topology::build_mesh(mesh_io::generate_square(13, 11, 0.3, 5));
  if (name == "cube_jitter") return topology::build_mesh(mesh_io::generate_cube(5, 5, 4, 0.3, 5));
  const std::string file = std::string(SCFD_SOURCE_DIR) + "/meshes/" + gmsh_files().at(name);
  return topology::build_mesh(mesh_io::read_gmsh(file));
}

}  // namespace

std::vector<std::string> mesh_names() {
  std::vector<std::string> names = {"square_jitter", "cube_jitter"};
  for (const auto& [name, file] : gmsh_files()) names.push_back(name);
  return names;
}

const Mesh& test_mesh(const std::string& name) {
  static std::map<std::string, std::unique_ptr<Mesh>> cache;
  auto& slot = cache[name];
  if (!slot) slot = std::make_unique<Mesh>(make_mesh(name));
  return *slot;
}

const std::vector<int>& test_parts(const std::string& name, int np) {
  static std::map<std::pair<std::string, int>, std::vector<int>> cache;
  auto [it, inserted] = cache.try_emplace({name, np});
  if (inserted) it->second = partition_cells(test_mesh(name), np);
  return it->second;
}

Mesh tiny_mesh(int n_cells) {
  mesh_io::RawMesh raw;
  raw.source = "tiny.msh";
  raw.dim = 2;
  raw.nodes = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  raw.node_tags = {1, 2, 3, 4};
  raw.cells = {0, 1, 2, 0, 2, 3};
  raw.cells.resize(static_cast<std::size_t>(n_cells) * 3);
  raw.cell_tags = {1, 2};
  raw.cell_tags.resize(static_cast<std::size_t>(n_cells));
  raw.cell_group.assign(static_cast<std::size_t>(n_cells), 10);
  if (n_cells == 1) raw.nodes.pop_back(), raw.node_tags.pop_back();
  raw.bfaces = n_cells == 1 ? std::vector<index>{0, 1, 1, 2, 2, 0}
                            : std::vector<index>{0, 1, 1, 2, 2, 3, 3, 0};
  raw.bface_tags.resize(raw.bfaces.size() / 2);
  for (std::size_t b = 0; b < raw.bface_tags.size(); ++b) raw.bface_tags[b] = 100 + b;
  raw.bface_group.assign(raw.bface_tags.size(), 1);
  raw.groups = {{1, 1, "wall"}, {2, 10, "domain"}};
  return topology::build_mesh(raw);
}

GlobalOwners owners_from_cells(const Mesh& g, const std::vector<int>& part) {
  GlobalOwners o;
  auto lowest = [&](auto cells) {
    int low = 1 << 30;
    for (index c : cells) low = std::min(low, part[static_cast<std::size_t>(c)]);
    return low;
  };
  for (index n = 0; n < g.n_nodes; ++n) o.node.push_back(lowest(g.node_cells.row(n)));
  for (index f = 0; f < g.n_faces; ++f) {
    std::vector<index> cells = {g.face_cells[2 * f]};
    if (g.face_cells[2 * f + 1] != kNone) cells.push_back(g.face_cells[2 * f + 1]);
    o.face.push_back(lowest(cells));
  }
  const int w = g.cell_width();
  for (index e = 0; e < g.n_edges; ++e) {
    const index a = g.edge_nodes[2 * e], b = g.edge_nodes[2 * e + 1];
    std::vector<index> cells;
    for (index c : g.node_cells.row(a)) {
      const index* n = g.cell_nodes.data() + static_cast<std::size_t>(c) * w;
      if (std::find(n, n + w, b) != n + w) cells.push_back(c);
    }
    o.edge.push_back(lowest(cells));
  }
  return o;
}

std::string mesh_parts_name(const ::testing::TestParamInfo<MeshParts>& info) {
  return std::get<0>(info.param) + "_np" + std::to_string(std::get<1>(info.param));
}

}  // namespace scfd::partition::testing
