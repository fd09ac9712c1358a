// The Gmsh section readers, one per section and format version. Each starts just after the
// section's header line ("$Nodes\n") and stops after its end marker ("$EndNodes"); ASCII or
// binary is the cursor's mode (set from $MeshFormat). MSH 2.2: gmsh_v2.cpp; MSH 4.1:
// gmsh_v4.cpp; $PhysicalNames (the same in both, always ASCII): gmsh.cpp.
#pragma once

#include "mesh_io/gmsh_builder.hpp"
#include "mesh_io/gmsh_cursor.hpp"

namespace scfd::mesh_io::detail {

void read_physical_names(Cursor& c, MeshBuilder& b);

void read_nodes_v2(Cursor& c, MeshBuilder& b);
void read_elements_v2(Cursor& c, MeshBuilder& b);

void read_entities_v4(Cursor& c, MeshBuilder& b);
void read_nodes_v4(Cursor& c, MeshBuilder& b);
void read_elements_v4(Cursor& c, MeshBuilder& b);

// Topological dimension of an element kind that is read (point 0 ... tetrahedron 3).
inline int kind_dim(ElementKind k) {
  return static_cast<int>(k);
}

}  // namespace scfd::mesh_io::detail
