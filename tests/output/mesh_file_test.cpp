// write_mesh_vtu: a whole mesh with exactly the given point and cell fields, read back with
// vtkXMLUnstructuredGridReader; an unwritable file is one InputError naming it.
#include <gtest/gtest.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDataArray.h>
#include <vtkIdList.h>
#include <vtkNew.h>
#include <vtkPointData.h>

#include "core/error.hpp"
#include "output/mesh_file.hpp"
#include "output/output_test_util.hpp"

namespace scfd::output {
namespace {
namespace fs = std::filesystem;

void round_trip(const topology::Mesh& m, const std::string& name) {
  const fs::path file = test::fresh_dir(name) / "mesh.vtu";
  std::vector<real> x, part;
  for (const Vec3& p : m.node_x) x.insert(x.end(), {p.x, p.y, p.z});
  for (index c = 0; c < m.n_cells; ++c) part.push_back(c % 3);
  const Field points[] = {{"x", 3, x}};
  const Field cells[] = {{"part", 1, part}};
  EXPECT_EQ(write_mesh_vtu(m, file, points, cells), file);
  vtkSmartPointer<vtkUnstructuredGrid> g = test::read_vtu(file);
  ASSERT_NE(g, nullptr);
  ASSERT_EQ(g->GetNumberOfPoints(), m.n_nodes);
  ASSERT_EQ(g->GetNumberOfCells(), m.n_cells);
  ASSERT_EQ(g->GetPointData()->GetNumberOfArrays(), 1);
  ASSERT_EQ(g->GetCellData()->GetNumberOfArrays(), 1);
  vtkDataArray* gx = g->GetPointData()->GetArray("x");
  vtkDataArray* gpart = g->GetCellData()->GetArray("part");
  ASSERT_TRUE(gx && gpart);
  for (index n = 0; n < m.n_nodes; ++n) {
    double y[3];
    g->GetPoint(n, y);
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(y[k], x[static_cast<std::size_t>(3 * n + k)]);
      EXPECT_EQ(gx->GetComponent(n, k), x[static_cast<std::size_t>(3 * n + k)]);
    }
  }
  vtkNew<vtkIdList> ids;
  for (index c = 0; c < m.n_cells; ++c) {
    EXPECT_EQ(g->GetCellType(c), m.dim == 3 ? VTK_TETRA : VTK_TRIANGLE);
    EXPECT_EQ(gpart->GetComponent(c, 0), part[static_cast<std::size_t>(c)]);
    g->GetCellPoints(c, ids);
    for (int k = 0; k < m.cell_width(); ++k)
      EXPECT_EQ(ids->GetId(k), m.cell_nodes[static_cast<std::size_t>(c * m.cell_width() + k)]);
  }
  EXPECT_TRUE(test::tmp_files(file.parent_path()).empty());
}

TEST(MeshFile, RoundTrip2D) {
  round_trip(test::square_mesh(5, 3), "mesh_file_2d");
}
TEST(MeshFile, RoundTrip3D) {
  round_trip(test::cube_mesh(2), "mesh_file_3d");
}

TEST(MeshFile, NoFieldsAndUnwritableFile) {
  const topology::Mesh m = test::two_triangles();
  const fs::path dir = test::fresh_dir("mesh_file_errors");
  vtkSmartPointer<vtkUnstructuredGrid> g = test::read_vtu(write_mesh_vtu(m, dir / "m.vtu", {}, {}));
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->GetNumberOfCells(), 2);
  const fs::path missing = dir / "no_such_dir" / "m.vtu";
  testing::internal::CaptureStderr();
  try {
    write_mesh_vtu(m, missing, {}, {});
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(missing.string()), std::string::npos) << e.what();
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST(MeshFileDeathTest, FieldSizesAndNames) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const topology::Mesh m = test::two_triangles();
  const fs::path file = fs::temp_directory_path() / "scfd_output_death_test.vtu";
  const std::vector<real> cellwise(2, 1.0), nodal(4, 1.0);
  const Field wrong[] = {{"part", 1, nodal}};
  EXPECT_DEATH(write_mesh_vtu(m, file, {}, wrong),
               "cell field 'part' has 4 values, expected 2 x 1");
  const Field twice[] = {{"a", 1, cellwise}, {"a", 1, cellwise}};
  EXPECT_DEATH(write_mesh_vtu(m, file, {}, twice), "field name 'a' used twice");
}

}  // namespace
}  // namespace scfd::output
