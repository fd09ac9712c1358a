// SeriesWriter::write_boundary: the patches' faces as lines (2D) or triangles (3D) in face_nodes
// order (outward normals), with the patch index and name, rank and face id per face, the mesh
// node index per point and the patch names as field data; read back with
// vtkXMLUnstructuredGridReader.
#include <gtest/gtest.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkIdList.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkStringArray.h>

#include "output/output_test_util.hpp"
#include "output/series_writer.hpp"

namespace scfd::output {
namespace {
namespace fs = std::filesystem;

void expect_points(vtkUnstructuredGrid* g, const topology::Mesh& m, vtkDataArray* node) {
  for (vtkIdType i = 0; i < g->GetNumberOfPoints(); ++i) {
    const auto n = static_cast<std::size_t>(node->GetComponent(i, 0));
    double x[3];
    g->GetPoint(i, x);
    ASSERT_TRUE(x[0] == m.node_x[n].x && x[1] == m.node_x[n].y && x[2] == m.node_x[n].z);
  }
}

void check_boundary(const topology::Mesh& m, const std::string& name) {
  const fs::path dir = test::fresh_dir(name);
  SeriesWriter w(m, dir, "case");
  const fs::path path = w.write_boundary();
  EXPECT_EQ(path, dir / "case_boundary.vtu");
  vtkSmartPointer<vtkUnstructuredGrid> g = test::read_vtu(path);
  ASSERT_NE(g, nullptr);

  vtkDataArray* patch = g->GetCellData()->GetArray("patch");
  auto* patch_name = vtkStringArray::SafeDownCast(g->GetCellData()->GetAbstractArray("patch_name"));
  vtkDataArray* node = g->GetPointData()->GetArray("node");
  vtkDataArray* rank = g->GetCellData()->GetArray("rank");
  vtkDataArray* face_id = g->GetCellData()->GetArray("face_id");
  ASSERT_TRUE(rank && face_id);
  auto* names = vtkStringArray::SafeDownCast(g->GetFieldData()->GetAbstractArray("patch_names"));
  ASSERT_TRUE(patch && patch_name && node && names);
  ASSERT_EQ(names->GetNumberOfValues(), static_cast<vtkIdType>(m.patches.size()));
  expect_points(g, m, node);

  vtkIdType c = 0;
  vtkNew<vtkIdList> ids;
  const int width = m.face_width();
  for (std::size_t p = 0; p < m.patches.size(); ++p) {
    EXPECT_EQ(names->GetValue(static_cast<vtkIdType>(p)), m.patches[p].name);
    for (index f : m.patches[p].faces) {
      ASSERT_LT(c, g->GetNumberOfCells());
      EXPECT_EQ(g->GetCellType(c), m.dim == 3 ? VTK_TRIANGLE : VTK_LINE);
      EXPECT_EQ(patch->GetComponent(c, 0), static_cast<double>(p));
      EXPECT_EQ(patch_name->GetValue(c), m.patches[p].name);
      EXPECT_EQ(rank->GetComponent(c, 0), 0.0);
      EXPECT_EQ(face_id->GetComponent(c, 0), f);  // serial: global id = index
      g->GetCellPoints(c, ids);
      ASSERT_EQ(ids->GetNumberOfIds(), width);
      for (int k = 0; k < width; ++k)
        EXPECT_EQ(node->GetComponent(ids->GetId(k), 0),
                  m.face_nodes[static_cast<std::size_t>(f * width + k)]);
      ++c;
    }
  }
  EXPECT_EQ(g->GetNumberOfCells(), c);
  EXPECT_TRUE(test::tmp_files(dir).empty());
}

TEST(BoundaryFile, Square) {
  check_boundary(test::square_mesh(4, 3), "boundary_2d");
}
TEST(BoundaryFile, Cube) {
  check_boundary(test::cube_mesh(2), "boundary_3d");
}
TEST(BoundaryFile, HandBuilt) {
  check_boundary(test::two_triangles(), "boundary_hand");
}

TEST(BoundaryFile, SquareHasFourPatchesCoveringThePerimeter) {
  const topology::Mesh m = test::square_mesh(4, 3);
  ASSERT_EQ(m.patches.size(), 4u);
  const fs::path dir = test::fresh_dir("boundary_perimeter");
  vtkSmartPointer<vtkUnstructuredGrid> g =
      test::read_vtu(SeriesWriter(m, dir, "s").write_boundary());
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->GetNumberOfCells(), 2 * (4 + 3));
  EXPECT_EQ(g->GetNumberOfPoints(), 2 * (4 + 3));
}

}  // namespace
}  // namespace scfd::output
