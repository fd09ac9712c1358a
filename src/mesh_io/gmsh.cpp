// read_gmsh: reads the whole file into memory once, checks $MeshFormat (version 2.2 or 4.1,
// ASCII or binary with data size 8 and the byte-order marker 1), then walks the sections:
// $PhysicalNames, $Entities (4.1), $Nodes and $Elements are read by the section readers of
// gmsh_v2.cpp / gmsh_v4.cpp; any other section is skipped up to its $End marker with one note.
// Reference: Gmsh reference manual, section "MSH file format" (versions 4.1 and 2.2).
#include "mesh_io/gmsh.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

#include "mesh_io/gmsh_sections.hpp"

namespace scfd::mesh_io {

namespace detail {

namespace {

// Whether `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF). A case file is UTF-8: a name that is not could never be given a condition.
bool is_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t n = c < 0x80           ? 1
                          : (c >> 5) == 0x6  ? 2
                          : (c >> 4) == 0xe  ? 3
                          : (c >> 3) == 0x1e ? 4
                                             : 0;
    if (n == 0 || text.size() - i < n) return false;
    std::uint32_t code = n == 1 ? c : c & (0x7f >> n);
    for (std::size_t k = 1; k < n; ++k) {
      const auto d = static_cast<unsigned char>(text[i + k]);
      if ((d & 0xc0) != 0x80) return false;
      code = (code << 6) | (d & 0x3f);
    }
    constexpr std::uint32_t kLeast[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < kLeast[n] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return false;
    i += n;
  }
  return true;
}

}  // namespace

void read_physical_names(Cursor& c, MeshBuilder& b) {
  const std::int64_t n = c.ascii_count("number of physical names", 8, 1 << 30, true);
  c.end_of_line("the $PhysicalNames count line");
  for (std::int64_t i = 0; i < n; ++i) {
    const auto dim = static_cast<int>(c.int_in_range("physical group dimension", 0, 3, true));
    const auto tag = static_cast<int>(c.int_in_range("physical tag", 1, 2147483647));
    const std::size_t at = c.pos();
    const std::string_view name = c.quoted_in_line("physical group name");
    if (!is_utf8(name))
      c.fail_at(at, "the physical group name is not UTF-8 text (save the mesh with UTF-8 names)");
    c.end_of_line("a physical name line");
    b.names[{dim, tag}] = std::string(name);
  }
  c.expect_word("$EndPhysicalNames");
}

}  // namespace detail

namespace {

using detail::Cursor;
using detail::MeshBuilder;

std::string read_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw input_error("{}: is a directory, expected a Gmsh mesh file", path);
  // A device or a pipe (/dev/zero) would be read until memory runs out.
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    throw input_error(
        "{}: is not a regular file (a device, pipe or socket), expected a Gmsh mesh file", path);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) throw input_error("{}: cannot open: {}", path, std::strerror(errno));
  std::string data;
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec) data.reserve(static_cast<std::size_t>(size));
  char buf[1 << 16];
  for (;;) {
    const std::size_t got = std::fread(buf, 1, sizeof buf, f.get());
    data.append(buf, got);
    if (got < sizeof buf) break;
  }
  if (std::ferror(f.get())) throw input_error("{}: read error: {}", path, std::strerror(errno));
  return data;
}

// $MeshFormat; returns the major version (2 or 4) and sets the cursor's binary mode.
int read_mesh_format(Cursor& c) {
  c.skip_space();
  if (c.at_end())
    throw input_error("{}: the file is empty, expected a Gmsh mesh starting with $MeshFormat",
                      c.path());
  const std::string first = c.describe_here();
  if (c.word() != "$MeshFormat")
    c.fail_at(
        0, fmt::format("expected $MeshFormat at the start of a Gmsh mesh file, found {}", first));
  c.end_of_line("the $MeshFormat line");
  c.skip_space();
  const std::size_t at = c.pos();
  const std::string shown = c.describe_here();
  const std::string_view version = c.word();
  if (version != "4.1" && version != "2.2")
    c.fail_at(at, fmt::format("MSH version {} is not supported: save the mesh as 4.1 or 2.2 "
                              "(gmsh -format msh41 or -format msh22)",
                              shown));
  const bool binary = c.int_in_range("file type", 0, 1) == 1;
  const std::size_t size_at = c.pos();
  const std::int64_t data_size = c.int_in_line("data size");
  c.end_of_line("the MSH version line");
  if (binary) {
    if (data_size != 8)
      c.fail_at(size_at, fmt::format("binary data size is {}, expected 8", data_size));
    c.set_binary(true);
    const std::size_t marker_at = c.pos();
    const auto one = c.read<std::int32_t>("the byte-order marker");
    if (one == 0x01000000)
      c.fail_at(marker_at,
                "the file was written with the other byte order (big-endian); "
                "save it again as ASCII or on this machine");
    if (one != 1) c.fail_at(marker_at, fmt::format("byte-order marker is {}, expected 1", one));
  }
  c.expect_word("$EndMeshFormat");
  return version == "4.1" ? 4 : 2;
}

// Reads one section whose header word is `name`; false when `name` is not a known section.
bool read_known_section(Cursor& c, MeshBuilder& b, std::string_view name, int version) {
  if (name == "$PhysicalNames") {
    detail::read_physical_names(c, b);
  } else if (name == "$Entities" && version == 4) {
    detail::read_entities_v4(c, b);
  } else if (name == "$Nodes") {
    version == 4 ? detail::read_nodes_v4(c, b) : detail::read_nodes_v2(c, b);
  } else if (name == "$Elements") {
    version == 4 ? detail::read_elements_v4(c, b) : detail::read_elements_v2(c, b);
  } else {
    return false;
  }
  return true;
}

}  // namespace

RawMesh read_gmsh(const std::string& path) {
  return parse_gmsh(path, read_file(path));
}

RawMesh parse_gmsh(const std::string& path, std::string contents) {
  Cursor c(path, std::move(contents));
  const int version = read_mesh_format(c);
  MeshBuilder b;
  std::vector<std::string> read, skipped;
  for (;;) {
    c.skip_space();
    if (c.at_end()) break;
    const std::size_t at = c.pos();
    const std::string shown = c.describe_here();
    const std::string name(c.word());
    if (name.size() < 2 || name[0] != '$')
      c.fail_at(at, fmt::format("expected a section header such as $Nodes, found {}", shown));
    if (name.starts_with("$End") || name == "$MeshFormat")
      c.fail_at(at, fmt::format("unexpected {} between sections", name));
    if (!c.at_line_end())
      c.failf("unexpected text {} after the section header {}", c.describe_here(), name);
    if (name == "$Nodes" || name == "$Elements" || (name == "$Entities" && version == 4)) {
      if (std::find(read.begin(), read.end(), name) != read.end())
        c.fail_at(at, fmt::format("a second {} section: expected one", name));
      if (name == "$Elements" && !b.nodes_indexed())
        c.fail_at(at, "$Elements before $Nodes: expected $Nodes first");
      read.push_back(name);
    }
    if (!read_known_section(c, b, name, version)) {
      c.skip_past_marker("$End" + name.substr(1), name, at);
      if (std::find(skipped.begin(), skipped.end(), name) == skipped.end()) skipped.push_back(name);
    }
  }
  if (!b.nodes_indexed()) c.fail("the file ends without a $Nodes section");
  if (std::find(read.begin(), read.end(), "$Elements") == read.end())
    c.fail("the file ends without an $Elements section");
  if (!skipped.empty()) {
    std::string list = skipped[0];
    for (std::size_t i = 1; i < skipped.size(); ++i) list += ", " + skipped[i];
    b.notes.push_back(fmt::format("skipped section{} {}", skipped.size() > 1 ? "s" : "", list));
  }
  return b.finish(path);
}

}  // namespace scfd::mesh_io
