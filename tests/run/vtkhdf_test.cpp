// output.format = "vtkhdf": one VTKHDF file per output time from all ranks, read back with VTK's
// own vtkHDFReader (VTK 9.1, the reader ParaView 5.11 uses), holds the same point and cell arrays
// with the same values (matched by node_id and cell_id) as the .pvtu of the same run; the
// .hdf.series index lists every output time, and goes on across a restart.
#include <gtest/gtest.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkHDFReader.h>
#include <vtkPointData.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLPUnstructuredGridReader.h>

#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <tuple>
#include <vector>

#include "common/run_command.hpp"

namespace scfd {
namespace {

namespace fs = std::filesystem;

const std::string kRun = std::string(SCFD_MPIRUN) + " -np 2 " + SCFD_BINARY + " run " +
                         SCFD_SOURCE_DIR +
                         "/cases/cavity-box/case.toml --set 'mesh.divisions=[5,5,5]' "
                         "--set output.interval=2 ";

std::string in(const fs::path& dir) {
  return " --set output.directory='\"" + dir.string() + "\"'";
}

// Each array's tuples keyed by the global id array ID_NAME of the same attributes.
using ById = std::map<std::string, std::map<int, std::vector<double>>>;
ById by_id(vtkDataSetAttributes* data, const char* id_name) {
  ById out;
  vtkDataArray* ids = data->GetArray(id_name);
  if (ids == nullptr) return out;
  for (int k = 0; k < data->GetNumberOfArrays(); ++k) {
    vtkDataArray* a = data->GetArray(k);
    if (a == nullptr) continue;
    auto& m = out[a->GetName()];
    for (vtkIdType t = 0; t < a->GetNumberOfTuples(); ++t) {
      std::vector<double> v;
      for (int c = 0; c < a->GetNumberOfComponents(); ++c) v.push_back(a->GetComponent(t, c));
      m[static_cast<int>(ids->GetComponent(t, 0))] = v;
    }
  }
  return out;
}

TEST(VtkHdf, SameArraysAndValuesAsThePvtuSeries) {
  const fs::path dir = test::fresh_directory("vtkhdf");
  auto r = test::run_command("timeout 300 " + kRun + "--set time.steps=4 " + in(dir / "vtu"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run_command("timeout 300 " + kRun + "--set time.steps=4 --set output.format=vtkhdf" +
                        in(dir / "hdf"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("ns-classical.hdf.series (open in ParaView)"), std::string::npos) << r.out;

  auto hdf = vtkSmartPointer<vtkHDFReader>::New();
  hdf->SetFileName((dir / "hdf" / "ns-classical_000004.hdf").c_str());
  hdf->Update();
  auto xml = vtkSmartPointer<vtkXMLPUnstructuredGridReader>::New();
  xml->SetFileName((dir / "vtu" / "ns-classical_000004.pvtu").c_str());
  xml->Update();
  auto* a = vtkUnstructuredGrid::SafeDownCast(hdf->GetOutputDataObject(0));
  vtkUnstructuredGrid* b = xml->GetOutput();
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->GetNumberOfCells(), 750);
  EXPECT_EQ(a->GetNumberOfCells(), b->GetNumberOfCells());
  EXPECT_EQ(a->GetNumberOfPoints(), b->GetNumberOfPoints());
  using Side = std::tuple<vtkDataSetAttributes*, vtkDataSetAttributes*, const char*>;
  for (const auto& [x, y, id] : {Side{a->GetCellData(), b->GetCellData(), "cell_id"},
                                 Side{a->GetPointData(), b->GetPointData(), "node_id"}}) {
    const ById p = by_id(x, id), q = by_id(y, id);
    ASSERT_FALSE(p.empty()) << id;
    ASSERT_EQ(p.size(), q.size()) << id;
    for (const auto& [name, values] : p) {
      ASSERT_TRUE(q.count(name)) << name;
      EXPECT_TRUE(values == q.at(name)) << name << " differs";
    }
  }
  const std::string series = test::slurp(dir / "hdf" / "ns-classical.hdf.series");
  for (const char* entry : {R"("name" : "ns-classical_000000.hdf", "time" : 0 })",
                            R"("name" : "ns-classical_000002.hdf", "time" : 0.02 })",
                            R"("name" : "ns-classical_000004.hdf", "time" : 0.04 })"})
    EXPECT_NE(series.find(entry), std::string::npos) << series;
  fs::remove_all(dir);
}

TEST(VtkHdf, TheSeriesGoesOnAcrossARestart) {
  const fs::path dir = test::fresh_directory("vtkhdf_restart");
  const std::string hdf = "--set output.format=vtkhdf ";
  auto r = test::run_command("timeout 300 " + kRun + hdf +
                             "--set time.steps=2 --set checkpoint.every_steps=2" + in(dir));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run_command("timeout 300 " + kRun + hdf + "--set time.steps=4 --restart " +
                        (dir / "ns-classical_checkpoint_000002.h5").string() + in(dir));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string series = test::slurp(dir / "ns-classical.hdf.series");
  const std::regex entry(R"("name" : "ns-classical_(\d+)\.hdf")");
  std::vector<std::string> steps;
  for (auto it = std::sregex_iterator(series.begin(), series.end(), entry);
       it != std::sregex_iterator(); ++it)
    steps.push_back((*it)[1]);
  EXPECT_EQ(steps, (std::vector<std::string>{"000000", "000002", "000004"})) << series;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace scfd
