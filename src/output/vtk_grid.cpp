// Conversion of the Mesh and of result arrays to VTK objects (see vtk_grid.hpp).
// Orientation: the Mesh's cells are positively oriented (signed volume > 0), which is VTK's
// convention for VTK_TETRA (nodes 0,1,2 wind counter-clockwise seen from node 3) and gives
// triangles with +z normals in 2D; boundary triangles keep face_nodes' order (outward normal).
#include "output/vtk_grid.hpp"

#include <vtkAOSDataArrayTemplate.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkFieldData.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkTypeInt32Array.h>

#include "core/error.hpp"

namespace scfd::output {

namespace {

vtkSmartPointer<vtkPoints> make_points(const std::vector<Vec3>& x, std::span<const index> ids) {
  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(static_cast<vtkIdType>(ids.size()));
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const Vec3& p = x[static_cast<std::size_t>(ids[i])];
    points->SetPoint(static_cast<vtkIdType>(i), static_cast<double>(p.x), static_cast<double>(p.y),
                     static_cast<double>(p.z));
  }
  return points;
}

// Fixed-size cells from a flat node list (WIDTH nodes per cell). Stored as 32-bit ids (our
// `index`), which vtkCellArray keeps without conversion: half the memory of vtkIdType.
vtkSmartPointer<vtkCellArray> make_cells(std::span<const index> nodes, int width) {
  auto connectivity = vtkSmartPointer<vtkCellArray::ArrayType32>::New();
  connectivity->SetNumberOfValues(static_cast<vtkIdType>(nodes.size()));
  for (std::size_t i = 0; i < nodes.size(); ++i)
    connectivity->SetValue(static_cast<vtkIdType>(i), nodes[i]);
  auto cells = vtkSmartPointer<vtkCellArray>::New();
  SCFD_CHECK(cells->SetData(width, connectivity), "vtkCellArray::SetData failed");
  return cells;
}

}  // namespace

vtkSmartPointer<vtkUnstructuredGrid> make_cell_grid(const topology::Mesh& mesh) {
  SCFD_CHECK(mesh.dim == 2 || mesh.dim == 3, "mesh dimension {}", mesh.dim);
  const auto n_nodes = static_cast<std::size_t>(mesh.n_nodes);
  const auto width = static_cast<std::size_t>(mesh.cell_width());
  SCFD_CHECK(mesh.node_x.size() == n_nodes, "node_x has {} entries", mesh.node_x.size());
  SCFD_CHECK(mesh.cell_nodes.size() == width * static_cast<std::size_t>(mesh.n_cells),
             "cell_nodes has {} entries", mesh.cell_nodes.size());
  std::vector<index> all(n_nodes);
  for (std::size_t i = 0; i < n_nodes; ++i) all[i] = static_cast<index>(i);

  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  grid->SetPoints(make_points(mesh.node_x, all));
  grid->SetCells(mesh.dim == 3 ? VTK_TETRA : VTK_TRIANGLE,
                 make_cells(mesh.cell_nodes, mesh.cell_width()));
  return grid;
}

vtkSmartPointer<vtkUnstructuredGrid> make_boundary_grid(const topology::Mesh& mesh) {
  const int width = mesh.face_width();
  SCFD_CHECK(mesh.face_nodes.size() == static_cast<std::size_t>(mesh.n_faces) * width,
             "face_nodes has {} entries", mesh.face_nodes.size());
  std::vector<index> local(static_cast<std::size_t>(mesh.n_nodes), kNone);  // mesh -> boundary
  std::vector<index> nodes;                                                 // boundary -> mesh
  std::vector<index> connectivity;
  std::vector<int> face_patch;
  std::vector<std::string> face_patch_name;
  for (std::size_t p = 0; p < mesh.patches.size(); ++p) {
    for (index f : mesh.patches[p].faces) {
      SCFD_CHECK(f >= 0 && f < mesh.n_faces, "patch {} lists face {}", p, f);
      const std::span<const index> face(&mesh.face_nodes[static_cast<std::size_t>(f) * width],
                                        static_cast<std::size_t>(width));
      for (const index n : face) {
        index& l = local[static_cast<std::size_t>(n)];
        if (l == kNone) {
          l = static_cast<index>(nodes.size());
          nodes.push_back(n);
        }
        connectivity.push_back(l);
      }
      face_patch.push_back(static_cast<int>(p));
      face_patch_name.push_back(mesh.patches[p].name);
    }
  }
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  grid->SetPoints(make_points(mesh.node_x, nodes));
  grid->SetCells(mesh.dim == 3 ? VTK_TRIANGLE : VTK_LINE, make_cells(connectivity, width));
  grid->GetCellData()->AddArray(int_array("patch", face_patch));
  grid->GetCellData()->AddArray(string_array("patch_name", face_patch_name));
  grid->GetPointData()->AddArray(int_array("node", nodes));
  grid->GetFieldData()->AddArray(string_array("patch_names", patch_names(mesh)));
  return grid;
}

std::vector<int> node_patch(const topology::Mesh& mesh) {
  std::vector<int> patch(static_cast<std::size_t>(mesh.n_nodes), -1);
  for (std::size_t p = 0; p < mesh.patches.size(); ++p) {
    for (index n : mesh.patches[p].nodes) {
      SCFD_CHECK(n >= 0 && n < mesh.n_nodes, "patch {} lists node {}", p, n);
      int& slot = patch[static_cast<std::size_t>(n)];
      if (slot < 0) slot = static_cast<int>(p);  // patches are visited in ascending order
    }
  }
  return patch;
}

vtkSmartPointer<vtkDataArray> real_array_view(const Field& field) {
  auto array = vtkSmartPointer<vtkAOSDataArrayTemplate<real>>::New();
  array->SetName(field.name.c_str());
  array->SetNumberOfComponents(field.components);
  // save = 1: VTK must not free the caller's memory. The writers only read it; the const_cast
  // is needed because vtkDataArray has no read-only view type.
  array->SetArray(const_cast<real*>(field.data.data()), static_cast<vtkIdType>(field.data.size()),
                  1);
  return array;
}

vtkSmartPointer<vtkIntArray> int_array(const char* name, std::span<const int> values) {
  auto array = vtkSmartPointer<vtkIntArray>::New();
  array->SetName(name);
  array->SetNumberOfValues(static_cast<vtkIdType>(values.size()));
  for (std::size_t i = 0; i < values.size(); ++i)
    array->SetValue(static_cast<vtkIdType>(i), values[i]);
  return array;
}

vtkSmartPointer<vtkStringArray> string_array(const char* name,
                                             const std::vector<std::string>& values) {
  auto array = vtkSmartPointer<vtkStringArray>::New();
  array->SetName(name);
  array->SetNumberOfValues(static_cast<vtkIdType>(values.size()));
  for (std::size_t i = 0; i < values.size(); ++i)
    array->SetValue(static_cast<vtkIdType>(i), values[i]);
  return array;
}

std::vector<std::string> patch_names(const topology::Mesh& mesh) {
  std::vector<std::string> names;
  for (const topology::Patch& p : mesh.patches) names.push_back(p.name);
  return names;
}

std::vector<std::string> region_names(const topology::Mesh& mesh) {
  std::vector<std::string> names;
  for (const topology::Region& r : mesh.regions) names.push_back(r.name);
  return names;
}

}  // namespace scfd::output
