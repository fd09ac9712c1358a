// MeshBuilder and the Gmsh element-type table: node lookup by file tag (a dense table when the
// tags are nearly contiguous, a sorted list otherwise), and the final RawMesh: any tetrahedron
// makes the mesh 3D (cells = tetrahedra, boundary elements = triangles), else triangles make it
// 2D (boundary elements = lines); boundary elements in no physical group are dropped.
#include "mesh_io/gmsh_builder.hpp"

#include <algorithm>
#include <array>

namespace scfd::mesh_io::detail {

namespace {

using K = ElementKind;

// Gmsh element types 1..31 (gmsh/src/common/GmshDefines.h numbering, MSH format reference).
constexpr std::array<ElementType, 32> kTypes{{
    {0, K::kOther, ""},
    {2, K::kLine, "2-node line"},
    {3, K::kTriangle, "3-node triangle"},
    {4, K::kNotSimplex, "4-node quadrangle"},
    {4, K::kTetrahedron, "4-node tetrahedron"},
    {8, K::kNotSimplex, "8-node hexahedron"},
    {6, K::kNotSimplex, "6-node prism"},
    {5, K::kNotSimplex, "5-node pyramid"},
    {3, K::kHighOrder, "3-node second-order line"},
    {6, K::kHighOrder, "6-node second-order triangle"},
    {9, K::kHighOrder, "9-node second-order quadrangle"},
    {10, K::kHighOrder, "10-node second-order tetrahedron"},
    {27, K::kHighOrder, "27-node second-order hexahedron"},
    {18, K::kHighOrder, "18-node second-order prism"},
    {14, K::kHighOrder, "14-node second-order pyramid"},
    {1, K::kPoint, "1-node point"},
    {8, K::kHighOrder, "8-node second-order quadrangle"},
    {20, K::kHighOrder, "20-node second-order hexahedron"},
    {15, K::kHighOrder, "15-node second-order prism"},
    {13, K::kHighOrder, "13-node second-order pyramid"},
    {9, K::kHighOrder, "9-node third-order triangle"},
    {10, K::kHighOrder, "10-node third-order triangle"},
    {12, K::kHighOrder, "12-node fourth-order triangle"},
    {15, K::kHighOrder, "15-node fourth-order triangle"},
    {15, K::kHighOrder, "15-node fifth-order triangle"},
    {21, K::kHighOrder, "21-node fifth-order triangle"},
    {4, K::kHighOrder, "4-node third-order line"},
    {5, K::kHighOrder, "5-node fourth-order line"},
    {6, K::kHighOrder, "6-node fifth-order line"},
    {20, K::kHighOrder, "20-node third-order tetrahedron"},
    {35, K::kHighOrder, "35-node fourth-order tetrahedron"},
    {56, K::kHighOrder, "56-node fifth-order tetrahedron"},
}};

}  // namespace

ElementType element_type(std::int64_t type) {
  if (type < 1 || type >= static_cast<std::int64_t>(kTypes.size())) return {};
  return kTypes[static_cast<std::size_t>(type)];
}

void reject_element(const Cursor& c, std::size_t at, std::int64_t number, std::int64_t type) {
  const ElementType t = element_type(type);
  if (t.kind == K::kNotSimplex)
    c.fail_at(at, fmt::format("element {} has type {} ({}): only triangles (2D) and tetrahedra "
                              "(3D) are supported; mesh without recombination",
                              number, type, t.name));
  if (t.kind == K::kHighOrder)
    c.fail_at(at, fmt::format("element {} has type {} ({}): only first-order elements are "
                              "supported; re-mesh with `gmsh -order 1`",
                              number, type, t.name));
  c.fail_at(at, fmt::format("element {} has type {}, which is not supported: only triangles "
                            "(type 2, 2D) and tetrahedra (type 4, 3D) are",
                            number, type));
}

void MeshBuilder::index_nodes(const Cursor& c, std::size_t at) {
  indexed_ = true;
  const std::size_t n = node_tags.size();
  if (n == 0) return;
  const auto [lo, hi] = std::minmax_element(node_tags.begin(), node_tags.end());
  min_tag_ = *lo;
  const std::uint64_t span = static_cast<std::uint64_t>(*hi) - static_cast<std::uint64_t>(*lo);
  auto duplicate = [&](std::int64_t tag) {
    c.fail_at(at, fmt::format("node tag {} is defined twice in $Nodes", tag));
  };
  if (span < 2 * static_cast<std::uint64_t>(n) + 1024) {
    dense_ = true;
    dense_map_.assign(span + 1, kNone);
    for (std::size_t i = 0; i < n; ++i) {
      index& slot = dense_map_[static_cast<std::size_t>(node_tags[i] - min_tag_)];
      if (slot != kNone) duplicate(node_tags[i]);
      slot = static_cast<index>(i);
    }
    return;
  }
  sparse_map_.resize(n);
  for (std::size_t i = 0; i < n; ++i) sparse_map_[i] = {node_tags[i], static_cast<index>(i)};
  std::sort(sparse_map_.begin(), sparse_map_.end());
  for (std::size_t i = 1; i < n; ++i)
    if (sparse_map_[i].first == sparse_map_[i - 1].first) duplicate(sparse_map_[i].first);
}

index MeshBuilder::sparse_index(std::int64_t tag) const {
  auto it = std::lower_bound(sparse_map_.begin(), sparse_map_.end(), std::pair{tag, index{0}},
                             [](const auto& a, const auto& b) { return a.first < b.first; });
  return (it != sparse_map_.end() && it->first == tag) ? it->second : kNone;
}

void MeshBuilder::unknown_node(const Cursor& c, std::int64_t number, std::int64_t tag) const {
  c.failf("element {} references node {}, which is not in $Nodes", number, tag);
}

RawMesh MeshBuilder::finish(const std::string& path) {
  RawMesh m;
  m.source = path;
  ElementList* cells = nullptr;
  ElementList* bfaces = nullptr;
  if (!tets_.numbers.empty()) {
    m.dim = 3, cells = &tets_, bfaces = &triangles_;
  } else if (!triangles_.numbers.empty()) {
    m.dim = 2, cells = &triangles_, bfaces = &lines_;
  } else {
    throw input_error(
        "{}: no triangles or tetrahedra in the file ({} point and {} line elements): "
        "expected a 2D triangle or 3D tetrahedral mesh (gmsh -2 or -3)",
        path, n_points_, lines_.numbers.size());
  }
  m.nodes = std::move(nodes);
  m.node_tags = std::move(node_tags);
  m.cells = std::move(cells->nodes);
  m.cell_tags = std::move(cells->numbers);
  m.cell_group = std::move(cells->groups);

  // Boundary elements: keep those in a physical group, in file order.
  const std::size_t nb = bfaces->numbers.size();
  const std::size_t per = static_cast<std::size_t>(m.dim);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < nb; ++i) {
    if (bfaces->groups[i] == 0) continue;
    std::copy_n(bfaces->nodes.begin() + static_cast<std::ptrdiff_t>(i * per), per,
                bfaces->nodes.begin() + static_cast<std::ptrdiff_t>(kept * per));
    bfaces->numbers[kept] = bfaces->numbers[i];
    bfaces->groups[kept] = bfaces->groups[i];
    ++kept;
  }
  bfaces->nodes.resize(kept * per);
  bfaces->numbers.resize(kept);
  bfaces->groups.resize(kept);
  m.bfaces = std::move(bfaces->nodes);
  m.bface_tags = std::move(bfaces->numbers);
  m.bface_group = std::move(bfaces->groups);
  if (kept < nb)
    notes.push_back(fmt::format("dropped {} boundary {} in no physical group", nb - kept,
                                m.dim == 3 ? "triangles" : "lines"));
  add_notes(m);
  list_groups(m);
  return m;
}

void MeshBuilder::add_notes(RawMesh& m) const {
  const std::size_t n_lines = m.dim == 3 ? lines_.numbers.size() : 0;
  if (n_points_ > 0 && n_lines > 0)
    m.notes.push_back(
        fmt::format("ignored {} point elements and {} line elements", n_points_, n_lines));
  else if (n_points_ > 0)
    m.notes.push_back(fmt::format("ignored {} point elements", n_points_));
  else if (n_lines > 0)
    m.notes.push_back(fmt::format("ignored {} line elements", n_lines));
  if (n_multi_group > 0)
    m.notes.push_back(
        fmt::format("{} elements are in several physical groups; each was given "
                    "the first",
                    n_multi_group));
  if (n_unknown_entity > 0)
    m.notes.push_back(
        fmt::format("{} elements belong to entities missing from $Entities; they "
                    "were given no physical group",
                    n_unknown_entity));
  m.notes.insert(m.notes.end(), notes.begin(), notes.end());
}

void MeshBuilder::list_groups(RawMesh& m) const {
  std::set<std::pair<int, int>> all = seen_groups_;
  for (const auto& [key, name] : names) all.insert(key);
  for (const auto& [dim, tag] : all) {
    if (dim != m.dim && dim != m.dim - 1) continue;
    auto it = names.find({dim, tag});
    m.groups.push_back({dim, tag, it != names.end() ? it->second : fmt::format("group{}", tag)});
  }
}

}  // namespace scfd::mesh_io::detail
