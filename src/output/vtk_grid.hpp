// Conversion of the Mesh and of result arrays to VTK objects. Internal to the output module
// (it includes VTK headers): only output/*.cpp include it, never a public header.
//
// Parallel meshes (topology/mesh.hpp, "parallel decomposition"): a rank writes its owned cells
// [0, owned_cells(mesh)) and the nodes they use, renumbered compactly in ascending local order;
// global ids ("cell_id", "node_id", boundary "node") let runs on different rank counts be
// compared. A serial mesh owns everything and its global ids are its indices.
#pragma once

#include <vtkDataArray.h>
#include <vtkIntArray.h>
#include <vtkSmartPointer.h>
#include <vtkStringArray.h>
#include <vtkUnstructuredGrid.h>

#include <set>
#include <span>
#include <string>
#include <vector>

#include "output/field.hpp"
#include "output/pvtu.hpp"
#include "topology/mesh.hpp"

namespace scfd::output {

// Cells this rank writes: n_owned_cells of a distributed mesh, n_cells of a serial one (whose
// n_owned_* may be left at 0 by hand-built meshes).
index owned_cells(const topology::Mesh& mesh);

// Global id of local entity I: GIDS[I], or I itself when GIDS is empty (serial mesh).
std::vector<int> global_ids(const std::vector<index>& gids, std::span<const index> local);

// The local nodes used by cells [0, N_CELLS), ascending.
std::vector<index> nodes_of_cells(const topology::Mesh& mesh, index n_cells);

// Cells [0, N_CELLS) as triangles (2D, z = 0) or tetrahedra (3D) over the points NODES (local
// node ids covering every node of those cells; grid point i is mesh node NODES[i]); no arrays.
vtkSmartPointer<vtkUnstructuredGrid> make_cell_grid(const topology::Mesh& mesh, index n_cells,
                                                    std::span<const index> nodes);

// The owned faces of every patch (all faces of a serial mesh), patch by patch (a face in two
// patches appears twice), as lines (2D) or triangles (3D) over their nodes only. Arrays: cell
// "patch" (int), "patch_name" (string), "rank" (RANK), "face_id" (global face id); point "node"
// (global node id); field data "patch_names".
vtkSmartPointer<vtkUnstructuredGrid> make_boundary_grid(const topology::Mesh& mesh, int rank);

// Per local node: the lowest index of a patch whose node list holds it, -1 for interior nodes.
std::vector<int> node_patch(const topology::Mesh& mesh);

// The arrays every piece of cells [0, N_CELLS) over the points NODES has besides the caller's
// fields: point "patch" and "node_id", cell "region", "rank" (RANK) and "cell_id".
struct PieceArrays {
  std::vector<vtkSmartPointer<vtkAbstractArray>> point, cell;
};
PieceArrays piece_arrays(const topology::Mesh& mesh, std::span<const index> nodes, index n_cells,
                         int rank);

// FIELD's values at NODES, stored in STORE (which keeps them alive until the piece is written).
Field gathered(const Field& field, std::span<const index> nodes,
               std::vector<std::vector<real>>& store);
// The first N tuples of FIELD (owned cells come first).
Field prefix(const Field& field, index n);

// Checks sizes (N tuples, or OR_N tuples when OR_N >= 0), component counts (1 or 3) and names
// (non-empty, not yet in NAMES, which collects them): a mismatch is a programming error of the
// caller (SCFD_CHECK), not bad user input. KIND ("point"/"cell") is for the message.
void check_fields(std::span<const Field> fields, index n, index or_n, const char* kind,
                  std::set<std::string>& names);

// A VTK array that views FIELD's data without copying (VTK never frees or modifies it). The view
// is only valid while FIELD's data lives: drop the array after writing.
vtkSmartPointer<vtkDataArray> real_array_view(const Field& field);

vtkSmartPointer<vtkIntArray> int_array(const char* name, std::span<const int> values);
vtkSmartPointer<vtkStringArray> string_array(const char* name,
                                             const std::vector<std::string>& values);

// Names of the patches / regions in index order (for field data).
std::vector<std::string> patch_names(const topology::Mesh& mesh);
std::vector<std::string> region_names(const topology::Mesh& mesh);

// The point and cell array declarations of GRID as its .vtu piece has them (for the .pvtu).
PieceLayout layout_of(vtkUnstructuredGrid* grid);

}  // namespace scfd::output
