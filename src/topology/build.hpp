// Builds a Mesh from a RawMesh: checks the mesh, numbers entities for memory locality, builds
// every connectivity list and computes the geometry.
//
// Checks (each an InputError naming the file and the element or node by its file number):
// zero-volume or inverted cells (a mesh whose cells are all negatively oriented is reoriented
// instead, with a note), duplicate nodes (same coordinates), nodes used by no cell, a face shared
// by more than two cells, a boundary face in no physical group, a boundary element that is not a
// face of the cell mesh, a 2D mesh that is not planar (z must be constant).
//
// Renumbering: nodes and cells are sorted along a space-filling (Morton/Z-order) curve of their
// positions; faces and edges are numbered in order of first appearance when walking the sorted
// cells, so gathers read neighbouring memory.
#pragma once

#include <string>
#include <vector>

#include "mesh_io/raw_mesh.hpp"
#include "topology/mesh.hpp"

namespace scfd::topology {

struct BuildOptions {
  bool renumber = true;  // false keeps the file's order (tests of the renumbering use this)
};

// Notes (e.g. "reoriented all cells") are appended to `notes` when given.
Mesh build_mesh(const mesh_io::RawMesh& raw, const BuildOptions& options = {},
                std::vector<std::string>* notes = nullptr);

}  // namespace scfd::topology
