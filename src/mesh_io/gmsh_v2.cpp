// MSH 2.2 sections $Nodes and $Elements, ASCII and binary (Gmsh reference manual, "MSH file
// format version 2"). ASCII: one node "tag x y z" or one element "number type ntags tags...
// nodes..." per line. Binary: nodes as (int tag, 3 doubles); elements in blocks headed by
// (int type, int count, int ntags), each element (int number, ntags ints, node ints).
// The first element tag is the physical group (0: none); an element in several physical groups
// is written once per group, and only its first copy is kept.
#include <limits>

#include "mesh_io/gmsh_sections.hpp"

namespace scfd::mesh_io::detail {

namespace {

constexpr std::int64_t kMaxIndex = std::numeric_limits<index>::max();
constexpr std::int64_t kMaxTag = std::numeric_limits<int>::max();

void read_nodes_binary(Cursor& c, MeshBuilder& b, std::int64_t n) {
  constexpr std::size_t kNodeBytes = 4 + 3 * sizeof(double);
  c.need_items(static_cast<std::uint64_t>(n), kNodeBytes, "$Nodes");
  for (std::int64_t i = 0; i < n; ++i) {
    const std::size_t at = c.pos();
    const auto tag = c.take<std::int32_t>();
    Vec3 x;
    x.x = c.take<double>(), x.y = c.take<double>(), x.z = c.take<double>();
    if (tag < 1) c.fail_at(at, fmt::format("node tag is {}, expected a positive integer", tag));
    if (!std::isfinite(x.x) || !std::isfinite(x.y) || !std::isfinite(x.z))
      c.fail_at(at, fmt::format("node {} has a coordinate that is not a finite number", tag));
    b.node_tags.push_back(tag);
    b.nodes.push_back(x);
  }
}

// One ASCII element line; `at` is where it starts.
void read_element_ascii(Cursor& c, MeshBuilder& b) {
  c.skip_space();
  const std::size_t at = c.pos();
  const std::int64_t number = c.int_in_line("element number");
  const std::int64_t type = c.int_in_line("element type");
  const std::int64_t n_tags = c.int_in_range("number of element tags", 0, kMaxTag);
  std::int64_t group = 0;
  for (std::int64_t t = 0; t < n_tags; ++t) {
    const std::int64_t v = c.int_in_line("element tag");
    if (t == 0) group = v;
  }
  const ElementType et = element_type(type);
  if (!is_read(et.kind)) reject_element(c, at, number, type);
  if (group < 0 || group > kMaxTag)
    c.fail_at(at, fmt::format("element {} has physical tag {}, expected 0 to {}", number, group,
                              kMaxTag));
  index ids[4];
  for (int k = 0; k < et.nodes; ++k)
    ids[k] = b.element_node(c, number, c.int_in_line("element node tag"));
  if (!c.at_line_end())
    c.failf("element {}: unexpected extra value {} after its {} nodes", number, c.describe_here(),
            et.nodes);
  b.saw_group(kind_dim(et.kind), static_cast<int>(group));
  if (!b.repeats_previous(et.kind, static_cast<int>(group), ids, et.nodes))
    b.add(et.kind, number, static_cast<int>(group), ids, et.nodes);
}

// One binary element block: header (type, count, ntags) then `count` elements.
std::int64_t read_block_binary(Cursor& c, MeshBuilder& b, std::int64_t max_count) {
  const std::size_t at = c.pos();
  c.need(12, "an element block header");
  const auto type = c.take<std::int32_t>();
  const auto count = c.take<std::int32_t>();
  const auto n_tags = c.take<std::int32_t>();
  if (count < 1 || count > max_count)
    c.fail_at(at, fmt::format("element block of {} elements, expected 1 to {} (the elements "
                              "left of the $Elements count)",
                              count, max_count));
  if (n_tags < 0)
    c.fail_at(at, fmt::format("element block with {} tags, expected 0 or more", n_tags));
  const ElementType et = element_type(type);
  if (!is_read(et.kind)) reject_element(c, at, c.left() >= 4 ? c.take<std::int32_t>() : 0, type);
  const std::uint64_t ints =
      1 + static_cast<std::uint64_t>(n_tags) + static_cast<std::uint64_t>(et.nodes);
  c.need_items(static_cast<std::uint64_t>(count), 4 * ints, "an element block");
  index ids[4];
  for (std::int32_t e = 0; e < count; ++e) {
    const std::size_t element_at = c.pos();
    const auto number = c.take<std::int32_t>();
    const std::int32_t group = n_tags > 0 ? c.take<std::int32_t>() : 0;
    for (std::int32_t t = 1; t < n_tags; ++t) c.take<std::int32_t>();
    if (group < 0)
      c.fail_at(element_at,
                fmt::format("element {} has physical tag {}, expected 0 or more", number, group));
    for (int k = 0; k < et.nodes; ++k) ids[k] = b.element_node(c, number, c.take<std::int32_t>());
    b.saw_group(kind_dim(et.kind), group);
    if (!b.repeats_previous(et.kind, group, ids, et.nodes))
      b.add(et.kind, number, group, ids, et.nodes);
  }
  return count;
}

}  // namespace

void read_nodes_v2(Cursor& c, MeshBuilder& b) {
  const std::size_t start = c.pos();
  const std::size_t min_bytes = c.binary() ? 28 : 8;
  const std::int64_t n = c.ascii_count("number of nodes", min_bytes, kMaxIndex, true);
  c.end_of_line("the $Nodes count line");
  b.nodes.reserve(static_cast<std::size_t>(n));
  b.node_tags.reserve(static_cast<std::size_t>(n));
  if (c.binary()) {
    read_nodes_binary(c, b, n);
  } else {
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t tag =
          c.int_in_range("node tag", 1, std::numeric_limits<std::int64_t>::max(), true);
      Vec3 x;
      x.x = c.real_in_line("node x coordinate");
      x.y = c.real_in_line("node y coordinate");
      x.z = c.real_in_line("node z coordinate");
      if (!c.at_line_end())
        c.failf("node {}: unexpected extra value {} after its coordinates", tag, c.describe_here());
      b.node_tags.push_back(tag);
      b.nodes.push_back(x);
    }
  }
  c.expect_word("$EndNodes");
  b.index_nodes(c, start);
}

void read_elements_v2(Cursor& c, MeshBuilder& b) {
  const std::int64_t n =
      c.ascii_count("number of elements", 8, std::numeric_limits<std::int64_t>::max(), true);
  c.end_of_line("the $Elements count line");
  if (c.binary()) {
    for (std::int64_t done = 0; done < n;) done += read_block_binary(c, b, n - done);
  } else {
    for (std::int64_t i = 0; i < n; ++i) read_element_ascii(c, b);
  }
  c.expect_word("$EndElements");
}

}  // namespace scfd::mesh_io::detail
