// Writes the .pvtu index of one output time (see pvtu.hpp).
#include "output/pvtu.hpp"

#include <fmt/format.h>

#include <bit>

#include "output/pvd.hpp"

namespace scfd::output {

namespace {

// One declaration: <PDataArray type= Name= [NumberOfComponents=]/>, or <PArray .../> for
// string arrays (VTK's name for abstract arrays that are not numeric).
std::string declaration(const ArrayDecl& a) {
  const char* element = a.type == "String" ? "PArray" : "PDataArray";
  std::string components;
  if (a.components != 1) components = fmt::format(" NumberOfComponents=\"{}\"", a.components);
  return fmt::format("      <{} type=\"{}\" Name=\"{}\"{}/>\n", element, a.type, xml_escape(a.name),
                     components);
}

std::string section(const char* tag, const std::vector<ArrayDecl>& arrays) {
  std::string out = fmt::format("    <{}>\n", tag);
  for (const ArrayDecl& a : arrays) out += declaration(a);
  out += fmt::format("    </{}>\n", tag);
  return out;
}

}  // namespace

std::string pvtu_text(const PieceLayout& layout, const std::vector<std::string>& pieces) {
  // The pieces are binary in this machine's byte order; the index must name the same.
  const char* order = std::endian::native == std::endian::big ? "BigEndian" : "LittleEndian";
  std::string out = fmt::format(
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"PUnstructuredGrid\" version=\"1.0\" byte_order=\"{}\" "
      "header_type=\"UInt64\">\n"
      "  <PUnstructuredGrid GhostLevel=\"0\">\n",
      order);
  out += section("PPointData", layout.point_arrays);
  out += section("PCellData", layout.cell_arrays);
  out += section("PPoints", {{"Points", layout.points_type, 3}});
  for (const std::string& piece : pieces)
    out += fmt::format("    <Piece Source=\"{}\"/>\n", xml_escape(piece));
  out += "  </PUnstructuredGrid>\n</VTKFile>\n";
  return out;
}

}  // namespace scfd::output
