// MSH 4.1 sections $Entities, $Nodes and $Elements, ASCII and binary (Gmsh reference manual,
// "MSH file format", version 4.1). Nodes and elements come in blocks, one per geometric entity;
// an element's physical group is the first physical tag of its entity in $Entities. Binary
// files store counts and tags as size_t (data size 8) and entity headers as int.
#include <limits>

#include "mesh_io/gmsh_sections.hpp"

namespace scfd::mesh_io::detail {

namespace {

constexpr std::int64_t kMaxIndex = std::numeric_limits<index>::max();
constexpr std::int64_t kMaxInt = std::numeric_limits<int>::max();
constexpr std::int64_t kMaxInt64 = std::numeric_limits<std::int64_t>::max();

// A count of items of at least `min_bytes` each, in [0, cap]: ASCII or a binary size_t.
std::int64_t read_count(Cursor& c, std::string_view what, std::size_t min_bytes,
                        std::int64_t cap = kMaxInt64, bool first = false) {
  return c.binary() ? c.binary_count(what, min_bytes, cap)
                    : c.ascii_count(what, min_bytes, cap, first);
}

// A binary int in [lo, hi].
std::int32_t read_int32(Cursor& c, std::string_view what, std::int64_t lo, std::int64_t hi) {
  const std::size_t at = c.pos();
  const auto v = c.read<std::int32_t>(what);
  if (v < lo || v > hi) c.fail_at(at, fmt::format("{} is {}, expected {} to {}", what, v, lo, hi));
  return v;
}

// An int field of an entity or block header, ASCII or binary.
std::int64_t read_header_int(Cursor& c, std::string_view what, std::int64_t lo, std::int64_t hi,
                             bool first = false) {
  if (c.binary()) return read_int32(c, what, lo, hi);
  return c.int_in_range(what, lo, hi, first);
}

// Skips a list of `n` ints (bounding entities).
void skip_tag_list(Cursor& c, std::int64_t n, std::string_view what) {
  if (c.binary()) c.skip_bytes(4 * static_cast<std::uint64_t>(n), what);
  for (std::int64_t i = 0; !c.binary() && i < n; ++i) c.int_in_line(what);
}

// One entity of dimension `dim` of $Entities.
void read_entity(Cursor& c, MeshBuilder& b, int dim) {
  const std::int64_t tag = read_header_int(c, "entity tag", -kMaxInt, kMaxInt, true);
  const int n_coords = dim == 0 ? 3 : 6;
  if (c.binary()) c.skip_bytes(8 * static_cast<std::uint64_t>(n_coords), "an entity");
  for (int k = 0; !c.binary() && k < n_coords; ++k) c.real_in_line("entity bounding box");
  const std::int64_t n_phys = read_count(c, "number of physical tags", 2, kMaxInt);
  std::int64_t first = 0;
  for (std::int64_t i = 0; i < n_phys; ++i) {
    const std::size_t tag_at = c.pos();
    const std::int64_t p =
        c.binary() ? c.read<std::int32_t>("a physical tag") : c.int_in_line("physical tag");
    if (p < 1 || p > kMaxInt)
      c.fail_at(tag_at,
                fmt::format("entity {} has physical tag {}, expected a positive integer", tag, p));
    if (i == 0) first = p;
    b.saw_group(dim, static_cast<int>(p));
  }
  if (dim > 0) {
    const std::int64_t n_bound = read_count(c, "number of bounding entities", 2);
    skip_tag_list(c, n_bound, "bounding entity tag");
  }
  if (!c.binary() && !c.at_line_end())
    c.failf("entity {}: unexpected extra value {}", tag, c.describe_here());
  b.entities[{dim, static_cast<int>(tag)}] = {static_cast<int>(first), static_cast<int>(n_phys)};
}

// The node tags then the coordinates of one $Nodes block of `count` nodes.
void read_node_block(Cursor& c, MeshBuilder& b, std::int64_t count, int extra) {
  const auto n = static_cast<std::size_t>(count);
  if (c.binary()) {
    c.need_items(n, 8, "node tags");
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t at = c.pos();
      const auto tag = c.take<std::uint64_t>();
      if (tag < 1 || tag > static_cast<std::uint64_t>(kMaxInt64))
        c.fail_at(at, fmt::format("node tag is {}, expected a positive integer", tag));
      b.node_tags.push_back(static_cast<std::int64_t>(tag));
    }
    c.need_items(n, 8 * (3 + static_cast<std::uint64_t>(extra)), "node coordinates");
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      b.node_tags.push_back(c.int_in_range("node tag", 1, kMaxInt64, true));
      if (!c.at_line_end())
        c.failf("unexpected extra value {} after a node tag", c.describe_here());
    }
  }
  const std::size_t first = b.node_tags.size() - n;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t at = c.pos();
    Vec3 x;
    if (c.binary()) {
      x.x = c.take<double>(), x.y = c.take<double>(), x.z = c.take<double>();
      for (int k = 0; k < extra; ++k) c.take<double>();
      if (!std::isfinite(x.x) || !std::isfinite(x.y) || !std::isfinite(x.z))
        c.fail_at(at, fmt::format("node {} has a coordinate that is not a finite number",
                                  b.node_tags[first + i]));
    } else {
      c.skip_space();
      x.x = c.real_in_line("node x coordinate");
      x.y = c.real_in_line("node y coordinate");
      x.z = c.real_in_line("node z coordinate");
      for (int k = 0; k < extra; ++k) c.real_in_line("node parametric coordinate");
      if (!c.at_line_end())
        c.failf("node {}: unexpected extra value {} after its coordinates", b.node_tags[first + i],
                c.describe_here());
    }
    b.nodes.push_back(x);
  }
}

// Physical group of the elements of entity (dim, tag), with the notes' counters updated.
int entity_group(MeshBuilder& b, int dim, std::int64_t tag, std::int64_t count) {
  auto it = b.entities.find({dim, static_cast<int>(tag)});
  if (it == b.entities.end()) {
    b.n_unknown_entity += count;
    return 0;
  }
  if (it->second.second > 1) b.n_multi_group += count;
  return it->second.first;
}

// The elements of one $Elements block: `count` elements of `et`, all in physical group `group`.
void read_element_block(Cursor& c, MeshBuilder& b, std::int64_t count, const ElementType& et,
                        int group) {
  index ids[4];
  if (c.binary()) {
    c.need_items(static_cast<std::uint64_t>(count), 8 * (1 + static_cast<std::uint64_t>(et.nodes)),
                 "an element block");
    for (std::int64_t e = 0; e < count; ++e) {
      const auto number = static_cast<std::int64_t>(c.take<std::uint64_t>());
      for (int k = 0; k < et.nodes; ++k)
        ids[k] = b.element_node(c, number, static_cast<std::int64_t>(c.take<std::uint64_t>()));
      b.add(et.kind, number, group, ids, et.nodes);
    }
    return;
  }
  for (std::int64_t e = 0; e < count; ++e) {
    const std::int64_t number = c.int_first("element number");
    for (int k = 0; k < et.nodes; ++k)
      ids[k] = b.element_node(c, number, c.int_in_line("element node tag"));
    if (!c.at_line_end())
      c.failf("element {}: unexpected extra value {} after its {} nodes", number, c.describe_here(),
              et.nodes);
    b.add(et.kind, number, group, ids, et.nodes);
  }
}

// Reads the 4-number header of $Nodes or $Elements; returns (blocks, items).
std::pair<std::int64_t, std::int64_t> read_section_header(Cursor& c, std::string_view items,
                                                          std::size_t block_bytes,
                                                          std::size_t item_bytes,
                                                          std::int64_t item_cap) {
  const std::int64_t blocks =
      read_count(c, "number of entity blocks", block_bytes, kMaxInt64, true);
  const std::int64_t n = read_count(c, items, item_bytes, item_cap);
  if (c.binary()) {
    c.skip_bytes(16, "the minimum and maximum tags");
  } else {
    c.int_in_line("minimum tag");
    c.int_in_line("maximum tag");
    c.end_of_line("the section header line");
  }
  return {blocks, n};
}

}  // namespace

void read_entities_v4(Cursor& c, MeshBuilder& b) {
  std::int64_t counts[4];
  for (int d = 0; d < 4; ++d)
    counts[d] = read_count(c, "number of entities", c.binary() ? 20 : 8, kMaxInt64, d == 0);
  if (!c.binary()) c.end_of_line("the $Entities count line");
  for (int d = 0; d < 4; ++d)
    for (std::int64_t i = 0; i < counts[d]; ++i) read_entity(c, b, d);
  c.expect_word("$EndEntities");
}

void read_nodes_v4(Cursor& c, MeshBuilder& b) {
  const std::size_t start = c.pos();
  const auto [blocks, n] = read_section_header(c, "number of nodes", c.binary() ? 20 : 8,
                                               c.binary() ? 32 : 8, kMaxIndex);
  b.nodes.reserve(static_cast<std::size_t>(n));
  b.node_tags.reserve(static_cast<std::size_t>(n));
  std::int64_t done = 0;
  for (std::int64_t k = 0; k < blocks; ++k) {
    const int dim = static_cast<int>(read_header_int(c, "entity dimension", 0, 3, true));
    read_header_int(c, "entity tag", -kMaxInt, kMaxInt);
    const auto parametric = static_cast<int>(read_header_int(c, "parametric flag", 0, 1));
    const std::int64_t count =
        read_count(c, "number of nodes in the block", c.binary() ? 32 : 8, n - done);
    if (!c.binary()) c.end_of_line("a node block header");
    read_node_block(c, b, count, parametric ? dim : 0);
    done += count;
  }
  if (done != n) c.failf("the node blocks hold {} nodes, but the $Nodes header says {}", done, n);
  c.expect_word("$EndNodes");
  b.index_nodes(c, start);
}

void read_elements_v4(Cursor& c, MeshBuilder& b) {
  const auto [blocks, n] = read_section_header(c, "number of elements", c.binary() ? 20 : 8,
                                               c.binary() ? 16 : 4, kMaxInt64);
  std::int64_t done = 0;
  for (std::int64_t k = 0; k < blocks; ++k) {
    const auto dim = static_cast<int>(read_header_int(c, "entity dimension", 0, 3, true));
    const std::int64_t tag = read_header_int(c, "entity tag", -kMaxInt, kMaxInt);
    const std::int64_t type = read_header_int(c, "element type", 1, kMaxInt);
    const std::int64_t count =
        read_count(c, "number of elements in the block", c.binary() ? 16 : 4, n - done);
    if (!c.binary()) c.end_of_line("an element block header");
    const ElementType et = element_type(type);
    if (!is_read(et.kind) && count > 0) {
      if (!c.binary()) c.skip_space();
      const std::size_t at = c.pos();
      const std::int64_t number =
          c.binary() ? (c.left() >= 8 ? static_cast<std::int64_t>(c.take<std::uint64_t>()) : 0)
                     : c.int_in_line("element number");
      reject_element(c, at, number, type);
    }
    const int group = entity_group(b, dim, tag, count);
    b.saw_group(dim, group);
    read_element_block(c, b, count, et, group);
    done += count;
  }
  if (done != n)
    c.failf("the element blocks hold {} elements, but the $Elements header says {}", done, n);
  c.expect_word("$EndElements");
}

}  // namespace scfd::mesh_io::detail
