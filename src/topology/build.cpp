// build_mesh: runs the steps of build_steps.hpp in order (checks, locality renumbering, faces,
// edges, curl lists, adjacency, patches, regions, geometry) to turn a RawMesh into a Mesh.
//
// Renumbering applies the permutations node_old / cell_old (new -> old):
//   x_new[i] = x_old[node_old[i]],  cell_nodes_new[c] = node_new[cells_old[cell_old[c]]],
// with node_new the inverse of node_old. Regions come from the cells' physical groups (group 0:
// region "default").
// Reference: mesh.hpp (conventions); docs/architecture.md §2 (what the operators gather over).
#include "topology/build.hpp"

#include <map>

#include "core/error.hpp"
#include "topology/build_steps.hpp"

namespace scfd::topology {
namespace {

using mesh_io::RawMesh;

// Node and cell arrays in the new numbering; returns the boundary elements' nodes renumbered.
std::vector<index> apply_numbering(const RawMesh& raw, const std::vector<index>& cells,
                                   const detail::Numbering& num, Mesh& m) {
  const int w = raw.dim + 1;
  std::vector<index> node_new(raw.nodes.size());
  m.node_x.resize(raw.nodes.size());
  m.node_tag.resize(raw.nodes.size());
  for (std::size_t i = 0; i < num.node_old.size(); ++i) {
    const index old = num.node_old[i];
    node_new[old] = static_cast<index>(i);
    m.node_x[i] = raw.nodes[old];
    m.node_tag[i] = raw.node_tags[old];
  }
  m.cell_nodes.resize(cells.size());
  m.cell_tag.resize(num.cell_old.size());
  for (std::size_t c = 0; c < num.cell_old.size(); ++c) {
    const std::size_t old = static_cast<std::size_t>(num.cell_old[c]);
    for (int k = 0; k < w; ++k) m.cell_nodes[c * w + k] = node_new[cells[old * w + k]];
    m.cell_tag[c] = raw.cell_tags[old];
  }
  std::vector<index> bfaces(raw.bfaces.size());
  for (std::size_t i = 0; i < bfaces.size(); ++i) bfaces[i] = node_new[raw.bfaces[i]];
  return bfaces;
}

// Regions: the file's groups of dimension dim in file order, then undeclared tags, then
// "default" for cells in no group.
void build_regions(const RawMesh& raw, const detail::Numbering& num, Mesh& m) {
  std::map<int, int> of_tag;
  for (const mesh_io::PhysicalGroup& g : raw.groups) {
    if (g.dim != raw.dim || g.tag == 0 || of_tag.count(g.tag)) continue;
    of_tag[g.tag] = static_cast<int>(m.regions.size());
    m.regions.push_back(Region{g.name, g.tag, 0});
  }
  m.cell_region.resize(num.cell_old.size());
  for (std::size_t c = 0; c < num.cell_old.size(); ++c) {
    const int tag = raw.cell_group[num.cell_old[c]];
    auto it = of_tag.find(tag);
    if (it == of_tag.end()) {
      it = of_tag.emplace(tag, static_cast<int>(m.regions.size())).first;
      m.regions.push_back(Region{tag == 0 ? "default" : fmt::format("group{}", tag), tag, 0});
    }
    m.cell_region[c] = it->second;
    ++m.regions[it->second].n_cells;
  }
}

// Boundary conditions and materials are given by group name: two groups of one name, or a group
// without faces (cells), would make a case silently apply to the wrong faces or to none.
template <typename Group>
void check_groups(const Mesh& m, const std::vector<Group>& groups, const char* kind,
                  const char* elements, index (*count)(const Group&)) {
  for (std::size_t i = 0; i < groups.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j)
      if (groups[j].name == groups[i].name)
        throw input_error(
            "{}: physical groups {} and {} are both named '{}': each {} needs its own name "
            "(the case file refers to it by name)",
            m.source, groups[j].tag, groups[i].tag, groups[i].name, kind);
    if (count(groups[i]) == 0)
      throw input_error(
          "{}: physical group '{}' (tag {}) contains no {}: a {} needs at least one (give it "
          "some or remove the group from the mesh)",
          m.source, groups[i].name, groups[i].tag, elements, kind);
  }
}

}  // namespace

Mesh build_mesh(const RawMesh& raw, const BuildOptions& options, std::vector<std::string>* notes) {
  const std::vector<index> cells = detail::checked_cells(raw, notes);
  const detail::Numbering num = detail::locality_order(raw, cells, options.renumber);
  Mesh m;
  m.source = raw.source;
  m.dim = raw.dim;
  m.n_nodes = raw.n_nodes();
  m.n_cells = raw.n_cells();
  const std::vector<index> bfaces = apply_numbering(raw, cells, num, m);
  build_regions(raw, num, m);
  detail::build_faces(raw, bfaces, m);
  check_groups<Region>(m, m.regions, "region", m.dim == 2 ? "triangles" : "tetrahedra",
                       [](const Region& r) { return r.n_cells; });

  const std::vector<index> cell_edges = detail::build_edges(m);
  detail::build_curl(cell_edges, m);
  detail::build_adjacency(m);
  detail::build_patch_lists(m);
  check_groups<Patch>(m, m.patches, "boundary patch",
                      m.dim == 2 ? "boundary lines" : "boundary triangles",
                      [](const Patch& p) { return static_cast<index>(p.faces.size()); });
  detail::compute_geometry(cell_edges, m);
  // A serial mesh owns every entity (partition::distribute makes the per-rank meshes).
  m.n_owned_nodes = m.n_nodes;
  m.n_owned_edges = m.n_edges;
  m.n_owned_faces = m.n_faces;
  m.n_owned_cells = m.n_cells;
  return m;
}

}  // namespace scfd::topology
