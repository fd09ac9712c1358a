// Step 3 of build_mesh: faces. Matches the local faces of all cells with each other and with the
// boundary elements, checks the result, numbers the faces and orients them.
//
// Matching: slot_sort.hpp. A face with two cells is interior, with one cell it is a boundary
// face and must be covered by exactly one boundary element; anything else is an input error.
// Numbering: walking the cells in order and their local faces k = 0..d, a face gets the next
// number of its kind when first seen (interior faces 0..n_int-1, boundary faces after), so the
// first visitor is the lower-numbered cell c1. The face nodes are c1's local face k in the order
// of build_steps.hpp (normal out of c1, i.e. from c1 to c2); in 3D rotated to start at its
// lowest node (a rotation keeps the circulation, hence the normal).
// Reference: mesh.hpp for the conventions; matching as in Lohner, "Applied CFD Techniques" (2008).
#include <algorithm>
#include <array>
#include <map>

#include "core/error.hpp"
#include "topology/build_steps.hpp"
#include "topology/slot_sort.hpp"

namespace scfd::topology::detail {
namespace {

using mesh_io::RawMesh;

struct FaceSlots {
  const Mesh& m;
  const std::vector<index>& bfaces;
  std::uint32_t n_cell_slots;

  // The nodes of slot s in its local (outward) order.
  std::array<index, 3> nodes(std::uint32_t s) const {
    const int d = m.dim;
    std::array<index, 3> n{kNone, kNone, kNone};
    if (s < n_cell_slots) {
      const std::size_t c = s / (d + 1), k = s % (d + 1);
      for (int i = 0; i < d; ++i)
        n[i] = m.cell_nodes[c * (d + 1) + (d == 3 ? kTetFace[k][i] : kTriFace[k][i])];
    } else {
      for (int i = 0; i < d; ++i) n[i] = bfaces[std::size_t(s - n_cell_slots) * d + i];
    }
    return n;
  }
  std::string describe_nodes(std::uint32_t s) const {
    const std::array<index, 3> n = nodes(s);
    std::string out = fmt::format("{} {}", m.node_tag[n[0]], m.node_tag[n[1]]);
    if (m.dim == 3) out += fmt::format(" {}", m.node_tag[n[2]]);
    return out;
  }
  index cell_of(std::uint32_t s) const { return static_cast<index>(s / (m.dim + 1)); }
};

// Checks one group of equal slots [first, last) and records partners / boundary elements.
void match_group(const RawMesh& raw, const FaceSlots& fs, const SlotKey* first, const SlotKey* last,
                 std::vector<index>& partner, std::vector<index>& bface_of) {
  const Mesh& m = fs.m;
  const auto n = static_cast<int>(last - first);
  int n_cell = 0;
  while (n_cell < n && first[n_cell].slot < fs.n_cell_slots) ++n_cell;
  const int n_b = n - n_cell;
  if (n_cell > 2) {
    std::string cells;
    for (int i = 0; i < n_cell; ++i)
      cells += fmt::format("{}{}", i ? ", " : "", m.cell_tag[fs.cell_of(first[i].slot)]);
    throw input_error("{}: face (nodes {}) is shared by {} elements ({}); at most two may share it",
                      raw.source, fs.describe_nodes(first[0].slot), n_cell, cells);
  }
  if (n_b > 0) {
    const index b = static_cast<index>(first[n_cell].slot - fs.n_cell_slots);
    if (n_b > 1)
      throw input_error("{}: boundary elements {} and {} cover the same face (nodes {})",
                        raw.source, raw.bface_tags[b],
                        raw.bface_tags[first[n_cell + 1].slot - fs.n_cell_slots],
                        fs.describe_nodes(first[n_cell].slot));
    if (n_cell == 0)
      throw input_error("{}: boundary element {} (nodes {}) is not a face of any element",
                        raw.source, raw.bface_tags[b], fs.describe_nodes(first[n_cell].slot));
    if (n_cell == 2)
      throw input_error(
          "{}: boundary element {} (nodes {}) is not on the boundary: it lies between elements "
          "{} and {}",
          raw.source, raw.bface_tags[b], fs.describe_nodes(first[n_cell].slot),
          m.cell_tag[fs.cell_of(first[0].slot)], m.cell_tag[fs.cell_of(first[1].slot)]);
    bface_of[first[0].slot] = b;
    return;
  }
  if (n_cell == 1)
    throw input_error(
        "{}: boundary face (nodes {}) is in no physical group (it is a side of "
        "element {}); tag every boundary face",
        raw.source, fs.describe_nodes(first[0].slot), m.cell_tag[fs.cell_of(first[0].slot)]);
  partner[first[0].slot] = static_cast<index>(first[1].slot);
  partner[first[1].slot] = static_cast<index>(first[0].slot);
}

// Patches: the file's groups of dimension dim-1 in file order, then undeclared tags.
std::vector<int> make_patches(const RawMesh& raw, Mesh& m) {
  std::map<int, int> of_tag;
  for (const mesh_io::PhysicalGroup& g : raw.groups) {
    if (g.dim != m.dim - 1 || of_tag.count(g.tag)) continue;
    of_tag[g.tag] = static_cast<int>(m.patches.size());
    m.patches.push_back(Patch{g.name, g.tag, {}, {}, {}});
  }
  std::vector<int> patch_of_bface(raw.bface_group.size());
  for (std::size_t b = 0; b < patch_of_bface.size(); ++b) {
    const int tag = raw.bface_group[b];
    auto it = of_tag.find(tag);
    if (it == of_tag.end()) {
      it = of_tag.emplace(tag, static_cast<int>(m.patches.size())).first;
      m.patches.push_back(Patch{fmt::format("group{}", tag), tag, {}, {}, {}});
    }
    patch_of_bface[b] = it->second;
  }
  return patch_of_bface;
}

// Numbers the faces by first appearance (interior first) and fills the face arrays.
void number_faces(const FaceSlots& fs, const std::vector<index>& partner,
                  const std::vector<index>& bface_of, const std::vector<int>& patch_of_bface,
                  index n_interior, Mesh& m) {
  const int d = m.dim, w = d + 1;
  m.cell_faces.assign(fs.n_cell_slots, kNone);
  m.cell_face_sign.assign(fs.n_cell_slots, 1);
  m.face_nodes.resize(static_cast<std::size_t>(m.n_faces) * d);
  m.face_cells.resize(static_cast<std::size_t>(m.n_faces) * 2);
  m.face_patch.resize(static_cast<std::size_t>(m.n_faces));
  index next_interior = 0, next_boundary = n_interior;
  for (std::uint32_t s = 0; s < fs.n_cell_slots; ++s) {
    if (m.cell_faces[s] != kNone) {
      m.cell_face_sign[s] = -1;
      continue;
    }
    const index p = partner[s];
    const index f = p != kNone ? next_interior++ : next_boundary++;
    m.cell_faces[s] = f;
    if (p != kNone) m.cell_faces[p] = f;
    m.face_cells[2 * std::size_t(f)] = static_cast<index>(s / w);
    m.face_cells[2 * std::size_t(f) + 1] = p != kNone ? static_cast<index>(p / w) : kNone;
    m.face_patch[f] = p != kNone ? -1 : patch_of_bface[bface_of[s]];
    const std::array<index, 3> n = fs.nodes(s);
    // 3D: start at the lowest node (a rotation keeps the circulation); 2D: keep the order.
    const int r =
        d == 3 ? static_cast<int>(std::min_element(n.begin(), n.begin() + 3) - n.begin()) : 0;
    for (int i = 0; i < d; ++i) m.face_nodes[std::size_t(f) * d + i] = n[(r + i) % d];
  }
}

}  // namespace

void build_faces(const RawMesh& raw, const std::vector<index>& bfaces, Mesh& m) {
  const int d = m.dim;
  const FaceSlots fs{m, bfaces, static_cast<std::uint32_t>(m.n_cells) * (d + 1)};
  const auto n_slots = fs.n_cell_slots + static_cast<std::uint32_t>(raw.n_bfaces());
  const SortedSlots sorted = sort_slots(
      n_slots, m.n_nodes, [&](std::uint32_t s, std::uint32_t& bucket, std::uint64_t& key) {
        std::array<index, 3> n = fs.nodes(s);
        if (n[0] > n[1]) std::swap(n[0], n[1]);
        if (d == 3) {
          if (n[1] > n[2]) std::swap(n[1], n[2]);
          if (n[0] > n[1]) std::swap(n[0], n[1]);
        }
        bucket = static_cast<std::uint32_t>(n[0]);
        key = pack_key(n[1], d == 3 ? n[2] : 0);
      });
  std::vector<index> partner(fs.n_cell_slots, kNone), bface_of(fs.n_cell_slots, kNone);
  index n_interior = 0, n_faces = 0;
  sorted.for_each_group([&](const SlotKey* first, const SlotKey* last) {
    match_group(raw, fs, first, last, partner, bface_of);
    ++n_faces;
    if (partner[first->slot] != kNone) ++n_interior;
  });
  m.n_faces = n_faces;
  m.n_interior_faces = n_interior;
  const std::vector<int> patch_of_bface = make_patches(raw, m);
  number_faces(fs, partner, bface_of, patch_of_bface, n_interior, m);
}

}  // namespace scfd::topology::detail
