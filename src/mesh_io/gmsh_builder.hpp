// MeshBuilder: what the Gmsh section readers fill in, turned into a RawMesh at the end. It holds
// the nodes and their tag-to-index map, the triangles, tetrahedra and lines read so far (the mesh
// dimension is only known once all elements are read), the physical names and the physical tags
// of 4.1 entities. Also the table of Gmsh element types: which are kept, ignored or rejected.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/types.hpp"
#include "mesh_io/gmsh_cursor.hpp"
#include "mesh_io/raw_mesh.hpp"

namespace scfd::mesh_io::detail {

enum class ElementKind { kPoint, kLine, kTriangle, kTetrahedron, kNotSimplex, kHighOrder, kOther };

struct ElementType {
  int nodes = 0;  // nodes per element (0 when unknown)
  ElementKind kind = ElementKind::kOther;
  const char* name = "";  // e.g. "4-node quadrangle"
};

// The Gmsh element type `type` (any value; unknown types give kind kOther).
ElementType element_type(std::int64_t type);
// Throws the InputError for an element whose type is not read (kNotSimplex, kHighOrder, kOther),
// at position `at` of the file.
[[noreturn]] void reject_element(const Cursor& c, std::size_t at, std::int64_t number,
                                 std::int64_t type);
inline bool is_read(ElementKind k) {
  return k <= ElementKind::kTetrahedron;
}

// Elements of one kind: node indices (nodes per element each), file numbers, physical tags.
struct ElementList {
  std::vector<index> nodes;
  std::vector<std::int64_t> numbers;
  std::vector<int> groups;
};

class MeshBuilder {
 public:
  std::vector<Vec3> nodes;
  std::vector<std::int64_t> node_tags;

  // Builds the tag -> index map once all nodes are read; a repeated tag is an error at `at`.
  void index_nodes(const Cursor& c, std::size_t at);
  bool nodes_indexed() const { return indexed_; }
  // 0-based index of the node with file tag `tag`, kNone if there is none.
  index node_index(std::int64_t tag) const {
    if (dense_) {
      const std::uint64_t k =
          static_cast<std::uint64_t>(tag) - static_cast<std::uint64_t>(min_tag_);
      return k < dense_map_.size() ? dense_map_[k] : kNone;
    }
    return sparse_index(tag);
  }
  // node_index, or an error naming element `number` when the tag is unknown.
  index element_node(const Cursor& c, std::int64_t number, std::int64_t tag) const {
    const index i = node_index(tag);
    if (i == kNone) [[unlikely]]
      unknown_node(c, number, tag);
    return i;
  }

  // Adds an element of kind kPoint..kTetrahedron with `n` node indices and physical tag `group`.
  void add(ElementKind kind, std::int64_t number, int group, const index* node_ids, int n) {
    if (kind == ElementKind::kPoint) {
      ++n_points_;
      return;
    }
    ElementList& l = list(kind);
    l.nodes.insert(l.nodes.end(), node_ids, node_ids + n);
    l.numbers.push_back(number);
    l.groups.push_back(group);
  }
  // MSH 2.2 writes an element once per physical group, the copies one after the other with new
  // numbers: true when this element repeats the previous one of its kind in another group (it is
  // then skipped, and the element counted once in n_multi_group).
  bool repeats_previous(ElementKind kind, int group, const index* node_ids, int n) {
    if (kind == ElementKind::kPoint) return false;
    const ElementList& l = list(kind);
    const std::size_t size = l.nodes.size();
    if (l.groups.empty() || l.groups.back() == group || size < static_cast<std::size_t>(n) ||
        !std::equal(node_ids, node_ids + n, l.nodes.end() - n))
      return false;
    if (l.numbers.back() != last_repeated_) ++n_multi_group;
    last_repeated_ = l.numbers.back();
    return true;
  }
  // Records that physical group (dim, tag) has elements (MSH 2.2: tags come from elements).
  void saw_group(int dim, int tag) {
    if (tag != 0 && (dim != last_group_.first || tag != last_group_.second)) {
      last_group_ = {dim, tag};
      seen_groups_.insert(last_group_);
    }
  }

  // $PhysicalNames: (dim, tag) -> name.
  std::map<std::pair<int, int>, std::string> names;
  // MSH 4.1 $Entities: (dim, tag) -> (first physical tag or 0, number of physical tags).
  std::map<std::pair<int, int>, std::pair<int, int>> entities;
  // Summary notes gathered while reading (skipped sections, ...), copied into the RawMesh.
  std::vector<std::string> notes;
  // Elements whose entity is in several physical groups, and whose entity is unknown (4.1).
  std::int64_t n_multi_group = 0;
  std::int64_t n_unknown_entity = 0;

  // Chooses the dimension, moves the elements into a RawMesh and lists the physical groups.
  RawMesh finish(const std::string& path);

 private:
  ElementList& list(ElementKind kind) {
    return kind == ElementKind::kLine ? lines_
                                      : (kind == ElementKind::kTriangle ? triangles_ : tets_);
  }
  index sparse_index(std::int64_t tag) const;
  [[noreturn]] void unknown_node(const Cursor& c, std::int64_t number, std::int64_t tag) const;
  void add_notes(RawMesh& m) const;
  void list_groups(RawMesh& m) const;

  bool indexed_ = false;
  bool dense_ = false;
  std::int64_t min_tag_ = 0;
  std::vector<index> dense_map_;                            // tag - min_tag -> index
  std::vector<std::pair<std::int64_t, index>> sparse_map_;  // sorted (tag, index)

  ElementList lines_, triangles_, tets_;
  std::int64_t n_points_ = 0;
  std::set<std::pair<int, int>> seen_groups_;
  std::pair<int, int> last_group_{-1, -1};
  std::int64_t last_repeated_ = -1;  // number of the element whose copies were last skipped
};

}  // namespace scfd::mesh_io::detail
