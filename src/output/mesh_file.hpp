// One plain VTK XML UnstructuredGrid (.vtu) of a whole mesh with given fields, outside any time
// series: for tools that show a property of the mesh itself (e.g. `streamcfd partition` writes
// the cell field "part"). VTK is an implementation detail: this header includes no VTK header.
#pragma once

#include <filesystem>
#include <span>

#include "output/field.hpp"
#include "topology/mesh.hpp"

namespace scfd::output {

// Writes every node and cell of MESH (triangles with z = 0 in 2D, tetrahedra in 3D; appended raw
// binary, lz4) to FILE via FILE.tmp + rename, with exactly the given arrays: point fields of
// n_nodes tuples, cell fields of n_cells tuples, 1 or 3 components, unique non-empty names
// (SCFD_CHECK). The parent directory must exist. InputError naming FILE if it cannot be written.
// Returns FILE.
std::filesystem::path write_mesh_vtu(const topology::Mesh& mesh, const std::filesystem::path& file,
                                     std::span<const Field> point_fields,
                                     std::span<const Field> cell_fields);

}  // namespace scfd::output
