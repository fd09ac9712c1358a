// RawMesh: a simplicial mesh as read from a file, before topology is built. Node and element
// numbers of the file are kept for error messages; everything else is 0-based and contiguous.
// Cells are triangles (dim 2) or tetrahedra (dim 3); boundary elements are the (dim-1)-simplices
// that the file tags with a physical group (lines in 2D, triangles in 3D).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace scfd::mesh_io {

struct PhysicalGroup {
  int dim = 0;       // 1, 2 or 3 as in the file (dim == mesh dim: region; dim - 1: patch)
  int tag = 0;       // the file's physical tag
  std::string name;  // the file's name; "group<tag>" when the file gives none
};

struct RawMesh {
  std::string source;  // file path, used in every error message about this mesh
  int dim = 0;         // 2 (triangles) or 3 (tetrahedra)

  std::vector<Vec3> nodes;              // coordinates; z = 0 for 2D meshes
  std::vector<std::int64_t> node_tags;  // the file's node number of each node

  std::vector<index> cells;             // (dim+1) node indices per cell, as in the file
  std::vector<std::int64_t> cell_tags;  // the file's element number of each cell
  std::vector<int> cell_group;          // physical tag of each cell; 0 = in no physical group

  std::vector<index> bfaces;             // dim node indices per boundary element
  std::vector<std::int64_t> bface_tags;  // the file's element number
  std::vector<int> bface_group;          // physical tag (never 0: untagged ones are not kept)

  std::vector<PhysicalGroup> groups;  // every physical group of dimension dim-1 or dim
  std::vector<std::string> notes;     // one summary line per kind of ignored content

  index n_cells() const { return static_cast<index>(cell_tags.size()); }
  index n_bfaces() const { return static_cast<index>(bface_tags.size()); }
  index n_nodes() const { return static_cast<index>(nodes.size()); }
};

}  // namespace scfd::mesh_io
