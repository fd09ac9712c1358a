// Gmsh MSH reader: versions 2.2 and 4.1, ASCII and binary (either endianness marker checked).
// Triangles (2D) and tetrahedra (3D) become cells; lines (2D) / triangles (3D) in a physical
// group become boundary elements; physical names become patch and region names. Points and
// elements of lower dimension than a boundary element are ignored with one summary note each;
// elements that matter and are not simplices (quads, hexes, prisms, pyramids, high-order
// elements) are rejected. Every malformed or truncated file gives an InputError naming the file,
// the line (ASCII) or byte offset (binary) and what was expected; nothing makes it crash or hang.
#pragma once

#include <string>

#include "mesh_io/raw_mesh.hpp"

namespace scfd::mesh_io {

RawMesh read_gmsh(const std::string& path);

// The same for file contents already in memory (e.g. received from another rank, or in tests);
// `name` stands for the file in messages.
RawMesh parse_gmsh(const std::string& name, std::string contents);

}  // namespace scfd::mesh_io
