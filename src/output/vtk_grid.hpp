// Conversion of the Mesh and of result arrays to VTK objects. Internal to the output module
// (it includes VTK headers): only output/*.cpp include it, never a public header.
#pragma once

#include <vtkDataArray.h>
#include <vtkIntArray.h>
#include <vtkSmartPointer.h>
#include <vtkStringArray.h>
#include <vtkUnstructuredGrid.h>

#include <span>
#include <string>
#include <vector>

#include "output/field.hpp"
#include "topology/mesh.hpp"

namespace scfd::output {

// Every node as a point (z = 0 in 2D) and every cell as a triangle (2D) or tetrahedron (3D),
// in mesh numbering; no arrays.
vtkSmartPointer<vtkUnstructuredGrid> make_cell_grid(const topology::Mesh& mesh);

// The faces of every patch, patch by patch (a face in two patches appears twice), as lines (2D)
// or triangles (3D) over the boundary nodes only. Arrays: cell "patch" (int), cell "patch_name"
// (string), point "node" (mesh node index); field data "patch_names".
vtkSmartPointer<vtkUnstructuredGrid> make_boundary_grid(const topology::Mesh& mesh);

// Per node: the lowest index of a patch whose node list holds it, -1 for interior nodes.
std::vector<int> node_patch(const topology::Mesh& mesh);

// A VTK array that views FIELD's data without copying (VTK never frees or modifies it). The view
// is only valid while FIELD's data lives: drop the array after writing.
vtkSmartPointer<vtkDataArray> real_array_view(const Field& field);

vtkSmartPointer<vtkIntArray> int_array(const char* name, std::span<const int> values);
vtkSmartPointer<vtkStringArray> string_array(const char* name,
                                             const std::vector<std::string>& values);

// Names of the patches / regions in index order (for field data).
std::vector<std::string> patch_names(const topology::Mesh& mesh);
std::vector<std::string> region_names(const topology::Mesh& mesh);

}  // namespace scfd::output
