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

#include <numeric>

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

// VTK XML's type names (vtkXMLWriter::GetWordTypeName) for the array types we write.
std::string xml_type_name(int vtk_type) {
  switch (vtk_type) {
    case VTK_FLOAT:
      return "Float32";
    case VTK_DOUBLE:
      return "Float64";
    case VTK_INT:
      return "Int32";
    case VTK_LONG_LONG:
      return "Int64";
    case VTK_ID_TYPE:
      return sizeof(vtkIdType) == 8 ? "Int64" : "Int32";
    case VTK_STRING:
      return "String";
    default:
      SCFD_CHECK(false, "no VTK XML type name for VTK type {}", vtk_type);
  }
  return {};
}

std::vector<ArrayDecl> declarations(vtkFieldData* data) {
  std::vector<ArrayDecl> arrays;
  for (int i = 0; i < data->GetNumberOfArrays(); ++i) {
    vtkAbstractArray* a = data->GetAbstractArray(i);
    arrays.push_back({a->GetName(), xml_type_name(a->GetDataType()), a->GetNumberOfComponents()});
  }
  return arrays;
}

}  // namespace

index owned_cells(const topology::Mesh& mesh) {
  return mesh.distributed() ? mesh.n_owned_cells : mesh.n_cells;
}

std::vector<int> global_ids(const std::vector<index>& gids, std::span<const index> local) {
  std::vector<int> out(local.size());
  for (std::size_t i = 0; i < local.size(); ++i)
    out[i] = gids.empty() ? local[i] : gids[static_cast<std::size_t>(local[i])];
  return out;
}

std::vector<index> nodes_of_cells(const topology::Mesh& mesh, index n_cells) {
  const auto width = static_cast<std::size_t>(mesh.cell_width());
  SCFD_CHECK(n_cells >= 0 && mesh.cell_nodes.size() >= width * static_cast<std::size_t>(n_cells),
             "cell_nodes has {} entries for {} cells", mesh.cell_nodes.size(), n_cells);
  std::vector<char> used(static_cast<std::size_t>(mesh.n_nodes), 0);
  for (std::size_t i = 0; i < width * static_cast<std::size_t>(n_cells); ++i) {
    const index n = mesh.cell_nodes[i];
    SCFD_CHECK(n >= 0 && n < mesh.n_nodes, "cell {} lists node {}", i / width, n);
    used[static_cast<std::size_t>(n)] = 1;
  }
  std::vector<index> nodes;
  for (std::size_t n = 0; n < used.size(); ++n)
    if (used[n] != 0) nodes.push_back(static_cast<index>(n));
  return nodes;
}

vtkSmartPointer<vtkUnstructuredGrid> make_cell_grid(const topology::Mesh& mesh, index n_cells,
                                                    std::span<const index> nodes) {
  SCFD_CHECK(mesh.dim == 2 || mesh.dim == 3, "mesh dimension {}", mesh.dim);
  const auto width = static_cast<std::size_t>(mesh.cell_width());
  SCFD_CHECK(mesh.node_x.size() == static_cast<std::size_t>(mesh.n_nodes), "node_x has {} entries",
             mesh.node_x.size());
  SCFD_CHECK(mesh.cell_nodes.size() == width * static_cast<std::size_t>(mesh.n_cells),
             "cell_nodes has {} entries", mesh.cell_nodes.size());
  SCFD_CHECK(n_cells >= 0 && n_cells <= mesh.n_cells, "{} of {} cells", n_cells, mesh.n_cells);
  std::vector<index> point(static_cast<std::size_t>(mesh.n_nodes), kNone);  // mesh -> grid
  for (std::size_t i = 0; i < nodes.size(); ++i)
    point[static_cast<std::size_t>(nodes[i])] = static_cast<index>(i);
  std::vector<index> connectivity(width * static_cast<std::size_t>(n_cells));
  for (std::size_t i = 0; i < connectivity.size(); ++i) {
    connectivity[i] = point[static_cast<std::size_t>(mesh.cell_nodes[i])];
    SCFD_CHECK(connectivity[i] != kNone, "node {} of cell {} is not written", mesh.cell_nodes[i],
               i / width);
  }
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  grid->SetPoints(make_points(mesh.node_x, nodes));
  grid->SetCells(mesh.dim == 3 ? VTK_TETRA : VTK_TRIANGLE,
                 make_cells(connectivity, mesh.cell_width()));
  return grid;
}

vtkSmartPointer<vtkUnstructuredGrid> make_boundary_grid(const topology::Mesh& mesh, int rank) {
  const int width = mesh.face_width();
  SCFD_CHECK(mesh.face_nodes.size() == static_cast<std::size_t>(mesh.n_faces) * width,
             "face_nodes has {} entries", mesh.face_nodes.size());
  const index owned_faces = mesh.distributed() ? mesh.n_owned_faces : mesh.n_faces;
  std::vector<index> local(static_cast<std::size_t>(mesh.n_nodes), kNone);  // mesh -> boundary
  std::vector<index> nodes;                                                 // boundary -> mesh
  std::vector<index> connectivity, faces;
  std::vector<int> face_patch;
  std::vector<std::string> face_patch_name;
  for (std::size_t p = 0; p < mesh.patches.size(); ++p) {
    for (index f : mesh.patches[p].faces) {
      SCFD_CHECK(f >= 0 && f < mesh.n_faces, "patch {} lists face {}", p, f);
      if (f >= owned_faces) continue;  // a ghost: its owner writes it
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
      faces.push_back(f);
      face_patch.push_back(static_cast<int>(p));
      face_patch_name.push_back(mesh.patches[p].name);
    }
  }
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  grid->SetPoints(make_points(mesh.node_x, nodes));
  grid->SetCells(mesh.dim == 3 ? VTK_TRIANGLE : VTK_LINE, make_cells(connectivity, width));
  grid->GetCellData()->AddArray(int_array("patch", face_patch));
  grid->GetCellData()->AddArray(string_array("patch_name", face_patch_name));
  grid->GetCellData()->AddArray(int_array("rank", std::vector<int>(faces.size(), rank)));
  grid->GetCellData()->AddArray(int_array("face_id", global_ids(mesh.face_gid, faces)));
  grid->GetPointData()->AddArray(int_array("node", global_ids(mesh.node_gid, nodes)));
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

void check_fields(std::span<const Field> fields, index n, index or_n, const char* kind,
                  std::set<std::string>& names) {
  for (const Field& f : fields) {
    SCFD_CHECK(f.components == 1 || f.components == 3, "{} field '{}' has {} components", kind,
               f.name, f.components);
    const auto tuples = static_cast<std::size_t>(f.components);
    const bool size_ok = f.data.size() == static_cast<std::size_t>(n) * tuples ||
                         (or_n >= 0 && f.data.size() == static_cast<std::size_t>(or_n) * tuples);
    if (!size_ok) {
      const std::string expected =
          or_n >= 0 && or_n != n ? fmt::format("{} or {}", n, or_n) : fmt::format("{}", n);
      SCFD_CHECK(size_ok, "{} field '{}' has {} values, expected {} x {}", kind, f.name,
                 f.data.size(), expected, f.components);
    }
    SCFD_CHECK(!f.name.empty(), "{} field without a name", kind);
    SCFD_CHECK(names.insert(f.name).second, "field name '{}' used twice in one write", f.name);
  }
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

PieceLayout layout_of(vtkUnstructuredGrid* grid) {
  PieceLayout layout;
  layout.point_arrays = declarations(grid->GetPointData());
  layout.cell_arrays = declarations(grid->GetCellData());
  layout.points_type = xml_type_name(grid->GetPoints()->GetDataType());
  return layout;
}

PieceArrays piece_arrays(const topology::Mesh& mesh, std::span<const index> nodes, index n_cells,
                         int rank) {
  std::vector<index> cells(static_cast<std::size_t>(n_cells));
  std::iota(cells.begin(), cells.end(), index{0});
  const std::vector<int> patch = node_patch(mesh);
  std::vector<int> piece_patch;
  for (index n : nodes) piece_patch.push_back(patch[static_cast<std::size_t>(n)]);
  return {{int_array("patch", piece_patch), int_array("node_id", global_ids(mesh.node_gid, nodes))},
          {int_array("region", std::span(mesh.cell_region).first(cells.size())),
           int_array("rank", std::vector<int>(cells.size(), rank)),
           int_array("cell_id", global_ids(mesh.cell_gid, cells))}};
}

// FIELD's values at NODES, stored in STORE (which keeps them alive until the piece is written).
Field gathered(const Field& field, std::span<const index> nodes,
               std::vector<std::vector<real>>& store) {
  const auto k = static_cast<std::size_t>(field.components);
  std::vector<real>& values = store.emplace_back(nodes.size() * k);
  for (std::size_t i = 0; i < nodes.size(); ++i)
    for (std::size_t c = 0; c < k; ++c)
      values[i * k + c] = field.data[static_cast<std::size_t>(nodes[i]) * k + c];
  return {field.name, field.components, values};
}

// The first N tuples of FIELD (owned cells come first).
Field prefix(const Field& field, index n) {
  const auto size = static_cast<std::size_t>(n) * static_cast<std::size_t>(field.components);
  return {field.name, field.components, field.data.first(size)};
}

}  // namespace scfd::output
