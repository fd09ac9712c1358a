// SeriesWriter round trip: two output times of a scalar point field, a vector point field and a
// scalar cell field on generated 2D and 3D meshes, read back with VTK's XML readers; the region,
// patch, rank and global-id arrays, field data, the .pvd listing, exactly one .vtu per step (no
// .pvtu when serial) and the absence of leftover .tmp files.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDataArray.h>
#include <vtkErrorCode.h>
#include <vtkFieldData.h>
#include <vtkIdList.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkStringArray.h>
#include <vtkXMLGenericDataObjectReader.h>

#include <algorithm>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "output/output_test_util.hpp"
#include "output/series_writer.hpp"

namespace scfd::output {
namespace {
namespace fs = std::filesystem;

struct StepFields {
  std::vector<real> temperature, velocity, pressure;
};

StepFields make_fields(const topology::Mesh& m, int step) {
  StepFields f;
  for (const Vec3& x : m.node_x) {
    f.temperature.push_back(x.x + 2 * x.y + 3 * x.z + step);
    f.velocity.insert(f.velocity.end(), {x.y, -x.x, x.z * step});
  }
  for (index c = 0; c < m.n_cells; ++c)
    f.pressure.push_back(0.1 * c + step / 3.0);  // not exact in float
  return f;
}

// Lowest patch per node, computed from the patches' faces (not from Patch::nodes as the writer).
std::vector<int> expected_node_patch(const topology::Mesh& m) {
  std::vector<int> patch(static_cast<std::size_t>(m.n_nodes), -1);
  for (int p = static_cast<int>(m.patches.size()) - 1; p >= 0; --p)
    for (index f : m.patches[static_cast<std::size_t>(p)].faces)
      for (std::size_t k = 0; k < static_cast<std::size_t>(m.face_width()); ++k) {
        const index n = m.face_nodes[static_cast<std::size_t>(f) * m.dim + k];
        patch[static_cast<std::size_t>(n)] = p;
      }
  return patch;
}

void expect_array(vtkDataSetAttributes* data, const char* name, int components,
                  const std::vector<real>& values) {
  vtkDataArray* a = data->GetArray(name);
  ASSERT_NE(a, nullptr) << name;
  EXPECT_EQ(a->GetNumberOfComponents(), components) << name;
  ASSERT_EQ(a->GetNumberOfTuples() * components, static_cast<vtkIdType>(values.size())) << name;
  for (vtkIdType i = 0; i < a->GetNumberOfTuples(); ++i)
    for (int c = 0; c < components; ++c)
      ASSERT_EQ(a->GetComponent(i, c), values[static_cast<std::size_t>(i * components + c)])
          << name << " tuple " << i << " component " << c;
}

void expect_int_array(vtkDataSetAttributes* data, const char* name,
                      const std::vector<int>& values) {
  std::vector<real> as_real(values.begin(), values.end());
  expect_array(data, name, 1, as_real);
}

void expect_names(vtkFieldData* data, const char* name, const std::vector<std::string>& names) {
  auto* a = vtkStringArray::SafeDownCast(data->GetAbstractArray(name));
  ASSERT_NE(a, nullptr) << name;
  ASSERT_EQ(a->GetNumberOfValues(), static_cast<vtkIdType>(names.size()));
  for (std::size_t i = 0; i < names.size(); ++i)
    EXPECT_EQ(a->GetValue(static_cast<vtkIdType>(i)), names[i]);
}

void expect_geometry(vtkUnstructuredGrid* g, const topology::Mesh& m) {
  ASSERT_EQ(g->GetNumberOfPoints(), m.n_nodes);
  ASSERT_EQ(g->GetNumberOfCells(), m.n_cells);
  for (index n = 0; n < m.n_nodes; ++n) {
    double x[3];
    g->GetPoint(n, x);
    const Vec3& e = m.node_x[static_cast<std::size_t>(n)];
    ASSERT_TRUE(x[0] == e.x && x[1] == e.y && x[2] == e.z) << "node " << n;
  }
  vtkNew<vtkIdList> ids;
  for (index c = 0; c < m.n_cells; ++c) {
    ASSERT_EQ(g->GetCellType(c), m.dim == 3 ? VTK_TETRA : VTK_TRIANGLE);
    g->GetCellPoints(c, ids);
    ASSERT_EQ(ids->GetNumberOfIds(), m.cell_width());
    for (int k = 0; k < m.cell_width(); ++k)
      ASSERT_EQ(ids->GetId(k), m.cell_nodes[static_cast<std::size_t>(c * m.cell_width() + k)]);
  }
}

void expect_step(const fs::path& path, const topology::Mesh& m, int step, double time) {
  vtkSmartPointer<vtkUnstructuredGrid> g = test::read_vtu(path);
  ASSERT_NE(g, nullptr);
  expect_geometry(g, m);
  const StepFields f = make_fields(m, step);
  EXPECT_EQ(g->GetPointData()->GetNumberOfArrays(), 4);  // patch, node_id, T, u
  EXPECT_EQ(g->GetCellData()->GetNumberOfArrays(), 4);   // region, rank, cell_id, p
  expect_array(g->GetPointData(), "T", 1, f.temperature);
  expect_array(g->GetPointData(), "u", 3, f.velocity);
  expect_array(g->GetCellData(), "p", 1, f.pressure);
  expect_int_array(g->GetCellData(), "region", m.cell_region);
  expect_int_array(g->GetPointData(), "patch", expected_node_patch(m));
  std::vector<int> node_ids(static_cast<std::size_t>(m.n_nodes)), cell_ids(m.cell_region.size());
  std::iota(node_ids.begin(), node_ids.end(), 0);  // serial: global id = index
  std::iota(cell_ids.begin(), cell_ids.end(), 0);
  expect_int_array(g->GetPointData(), "node_id", node_ids);
  expect_int_array(g->GetCellData(), "cell_id", cell_ids);
  expect_int_array(g->GetCellData(), "rank", std::vector<int>(cell_ids.size(), 0));
  vtkDataArray* t = g->GetFieldData()->GetArray("TimeValue");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->GetComponent(0, 0), time);
  // The XML header's RangeMin/RangeMax come from VTK's cached range: it must be this step's.
  const std::string header = test::read_text(path).substr(0, 400);
  EXPECT_NE(header.find(fmt::format("Name=\"TimeValue\" NumberOfTuples=\"1\" format=\"appended\" "
                                    "RangeMin=\"{}",
                                    time)),
            std::string::npos)
      << header;
  std::vector<std::string> patches, regions;
  for (const auto& p : m.patches) patches.push_back(p.name);
  for (const auto& r : m.regions) regions.push_back(r.name);
  expect_names(g->GetFieldData(), "patch_names", patches);
  expect_names(g->GetFieldData(), "region_names", regions);
}

std::filesystem::path write_step(SeriesWriter& w, const topology::Mesh& m, int step, double time) {
  const StepFields f = make_fields(m, step);
  const Field point_fields[] = {{"T", 1, f.temperature}, {"u", 3, f.velocity}};
  const Field cell_fields[] = {{"p", 1, f.pressure}};
  return w.write(time, step, point_fields, cell_fields);
}

void round_trip(const topology::Mesh& m, const std::string& name) {
  const fs::path root = test::fresh_dir(name);
  const fs::path dir = root / "results" / "nested";  // created by the writer
  SeriesWriter w(m, dir, "heat");
  EXPECT_EQ(write_step(w, m, 0, 0.0), dir / "heat_000000.vtu");
  EXPECT_EQ(write_step(w, m, 25, 0.125), dir / "heat_000025.vtu");
  expect_step(dir / "heat_000000.vtu", m, 0, 0.0);
  expect_step(dir / "heat_000025.vtu", m, 25, 0.125);

  ASSERT_EQ(w.pvd_path(), dir / "heat.pvd");
  const std::vector<test::PvdDataSet> sets = test::read_pvd(w.pvd_path());
  ASSERT_EQ(sets.size(), 2u);
  EXPECT_EQ(sets[0].time, 0.0);
  EXPECT_EQ(sets[0].file, "heat_000000.vtu");
  EXPECT_EQ(sets[1].time, 0.125);
  EXPECT_EQ(sets[1].file, "heat_000025.vtu");
  for (const auto& set : sets) {  // what ParaView does with a .pvd: open each listed dataset
    vtkNew<vtkXMLGenericDataObjectReader> reader;
    reader->SetFileName((dir / set.file).c_str());
    reader->Update();
    ASSERT_EQ(reader->GetErrorCode(), vtkErrorCode::NoError);
    auto* g = vtkUnstructuredGrid::SafeDownCast(reader->GetOutput());
    ASSERT_NE(g, nullptr) << set.file;
    EXPECT_EQ(g->GetNumberOfCells(), m.n_cells);
  }
  // Serial output is exactly one .vtu per step and the .pvd: no pieces, no .pvtu.
  std::set<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir)) files.insert(entry.path().filename());
  EXPECT_EQ(files, (std::set<std::string>{"heat.pvd", "heat_000000.vtu", "heat_000025.vtu"}));
  EXPECT_TRUE(test::tmp_files(root).empty());
}

TEST(SeriesWriter, TwoStepsRoundTrip2D) {
  round_trip(test::square_mesh(5, 3), "round_trip_2d");
}
TEST(SeriesWriter, TwoStepsRoundTrip3D) {
  round_trip(test::cube_mesh(2), "round_trip_3d");
}
TEST(SeriesWriter, HandBuiltMeshRoundTrip) {
  round_trip(test::two_triangles(), "round_trip_hand");
}

// Every compression writes the same arrays (read back by VTK), names its compressor in the file's
// header, and lz4, the default, is what a writer uses until told otherwise.
TEST(SeriesWriter, EveryCompressionRoundTrips) {
  const topology::Mesh m = test::cube_mesh(3);
  const fs::path dir = test::fresh_dir("compression");
  const std::pair<std::optional<Compression>, const char*> cases[] = {
      {std::nullopt, "compressor=\"vtkLZ4DataCompressor\""},
      {Compression::lz4, "compressor=\"vtkLZ4DataCompressor\""},
      {Compression::zlib, "compressor=\"vtkZLibDataCompressor\""},
      {Compression::none, nullptr}};
  int k = 0;
  for (const auto& [compression, header] : cases) {
    SeriesWriter w(m, dir / std::to_string(k++), "heat");
    if (compression) w.set_compression(*compression);
    const fs::path path = write_step(w, m, 7, 0.5);
    expect_step(path, m, 7, 0.5);
    const std::string text = test::read_text(path);
    const std::string head = text.substr(0, text.find('\n'));
    if (header != nullptr)
      EXPECT_NE(head.find(header), std::string::npos) << head;
    else
      EXPECT_EQ(head.find("compressor="), std::string::npos) << head;
  }
}

// VTK_TETRA needs positive orientation (node 3 on the side the right-hand normal of 0,1,2 points
// to); check it on what VTK read back, not on the Mesh.
TEST(SeriesWriter, TetrahedraArePositivelyOrientedForVtk) {
  const topology::Mesh m = test::cube_mesh(2);
  const fs::path dir = test::fresh_dir("orientation");
  SeriesWriter w(m, dir, "o");
  const fs::path path = w.write(0, 0, {}, {});
  vtkSmartPointer<vtkUnstructuredGrid> g = test::read_vtu(path);
  ASSERT_NE(g, nullptr);
  vtkNew<vtkIdList> ids;
  for (vtkIdType c = 0; c < g->GetNumberOfCells(); ++c) {
    g->GetCellPoints(c, ids);
    double x[4][3];
    for (int k = 0; k < 4; ++k) g->GetPoint(ids->GetId(k), x[k]);
    const Vec3 a{x[1][0] - x[0][0], x[1][1] - x[0][1], x[1][2] - x[0][2]};
    const Vec3 b{x[2][0] - x[0][0], x[2][1] - x[0][1], x[2][2] - x[0][2]};
    const Vec3 d{x[3][0] - x[0][0], x[3][1] - x[0][1], x[3][2] - x[0][2]};
    ASSERT_GT(dot(cross(a, b), d), 0.0) << "cell " << c;
  }
}

TEST(SeriesWriter, RewritingAStepReplacesItsPvdEntry) {
  const topology::Mesh m = test::two_triangles();
  const fs::path dir = test::fresh_dir("rewrite");
  SeriesWriter w(m, dir, "run");
  write_step(w, m, 0, 0.0);
  write_step(w, m, 3, 0.3);
  write_step(w, m, 3, 0.3);
  const auto sets = test::read_pvd(w.pvd_path());
  ASSERT_EQ(sets.size(), 2u);
  EXPECT_EQ(sets[1].file, "run_000003.vtu");
  EXPECT_EQ(sets[1].time, 0.3);
  EXPECT_TRUE(test::tmp_files(dir).empty());
}

TEST(SeriesWriterDeathTest, FieldNamesMustBeUniqueAndSizesRight) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const topology::Mesh m = test::two_triangles();
  // The threadsafe style re-runs this body in a child that aborts: give it an existing directory
  // (the checks fire before anything is written) so that it leaves no scratch files behind.
  SeriesWriter w(m, fs::temp_directory_path(), "scfd_output_death_test");
  const std::vector<real> nodal(4, 1.0), cellwise(2, 1.0), short_one(3, 1.0);
  const Field twice[] = {{"T", 1, nodal}, {"T", 1, nodal}};
  EXPECT_DEATH(w.write(0, 0, twice, {}), "field name 'T' used twice");
  const Field point_t[] = {{"T", 1, nodal}};
  const Field cell_t[] = {{"T", 1, cellwise}};
  EXPECT_DEATH(w.write(0, 0, point_t, cell_t), "field name 'T' used twice");
  const Field reserved[] = {{"region", 1, cellwise}};
  EXPECT_DEATH(w.write(0, 0, {}, reserved), "field name 'region' used twice");
  const Field reserved_id[] = {{"node_id", 1, nodal}};
  EXPECT_DEATH(w.write(0, 0, reserved_id, {}), "field name 'node_id' used twice");
  const Field wrong_size[] = {{"T", 1, short_one}};
  EXPECT_DEATH(w.write(0, 0, wrong_size, {}), "point field 'T' has 3 values, expected 4 x 1");
  const Field two_components[] = {{"T", 2, nodal}};
  EXPECT_DEATH(w.write(0, 0, two_components, {}), "has 2 components");
}

}  // namespace
}  // namespace scfd::output
