// The documented run command end to end: per-step progress lines and the result location on the
// terminal, a .pvd series whose every .vtu VTK's own reader opens with the right arrays and sizes,
// the JSON summary and the effective configuration next to them; model notes after the
// configuration; --quiet and --log; Ctrl-C writes the current state and exits with 130.
#include <gtest/gtest.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include "common/json_number.hpp"
#include "common/run_command.hpp"

namespace scfd {
namespace {

const std::string kCube = std::string(SCFD_SOURCE_DIR) + "/cases/heat-cube/case.toml";

std::vector<std::string> pvd_files(const std::filesystem::path& pvd) {
  const std::string text = test::slurp(pvd);
  std::vector<std::string> files;
  const std::regex re("file=\"([^\"]+)\"");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
       ++it)
    files.push_back((*it)[1].str());
  return files;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

TEST(Run, WritesProgressAndSeriesThatVtkReads) {
  const auto dir = test::fresh_directory("run");
  const auto r = test::run_command(std::string(SCFD_BINARY) + " run " + kCube +
                                   " --set output.directory=" + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count(r.out, "/20  t = "), 20) << r.out;  // one progress line per step
  EXPECT_NE(r.out.find(" it "), std::string::npos);
  EXPECT_NE(r.out.find("ETA"), std::string::npos);
  EXPECT_NE(r.out.find("results: " + (dir / "heat.pvd").string()), std::string::npos) << r.out;
  EXPECT_TRUE(std::filesystem::exists(dir / "case.effective.toml"));
  EXPECT_TRUE(std::filesystem::exists(dir / "heat_boundary.vtu"));
  const std::string first = test::slurp(dir / "heat_boundary.vtu");
  EXPECT_NE(first.substr(0, first.find('\n')).find("vtkLZ4DataCompressor"), std::string::npos);

  const std::string json = test::slurp(dir / "heat_summary.json");
  const double nodes = test::json_number(json, "nodes"), cells = test::json_number(json, "cells");
  EXPECT_EQ(test::json_number(json, "steps"), 20);
  EXPECT_NE(json.find("\"status\": \"completed\""), std::string::npos);

  const std::vector<std::string> files = pvd_files(dir / "heat.pvd");
  ASSERT_EQ(files.size(), 5u);  // steps 0, 5, 10, 15, 20 (interval 5)
  for (const std::string& f : files) {
    vtkNew<vtkXMLUnstructuredGridReader> reader;
    reader->SetFileName((dir / f).c_str());
    reader->Update();
    vtkUnstructuredGrid* g = reader->GetOutput();
    ASSERT_EQ(g->GetNumberOfPoints(), nodes) << f;
    ASSERT_EQ(g->GetNumberOfCells(), cells) << f;
    vtkDataArray* t = g->GetPointData()->GetArray("temperature");
    vtkDataArray* q = g->GetCellData()->GetArray("heat_flux");
    ASSERT_NE(t, nullptr);
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(t->GetNumberOfComponents(), 1);
    EXPECT_EQ(q->GetNumberOfComponents(), 3);
    EXPECT_NE(g->GetCellData()->GetArray("region"), nullptr);
    EXPECT_NE(g->GetPointData()->GetArray("patch"), nullptr);
    double range[2];
    t->GetRange(range);
    EXPECT_GE(range[0], -1e-12);
    EXPECT_LE(range[1], 1.0 + 1e-12);
  }
  std::filesystem::remove_all(dir);
}

// output.compression reaches every .vtu of the run (the writer's own round trip of each is
// tests/output/series_writer_test); the default, lz4, is the other test's.
TEST(Run, OutputCompressionReachesEveryFile) {
  const auto dir = test::fresh_directory("compression");
  const auto r = test::run_command(std::string(SCFD_BINARY) + " run " + kCube +
                                   " --set time.end=0.005 --set output.compression=zlib" +
                                   " --set output.directory=" + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".vtu") continue;
    ++files;
    const std::string text = test::slurp(entry.path());
    EXPECT_NE(text.substr(0, text.find('\n')).find("vtkZLibDataCompressor"), std::string::npos)
        << entry.path();
  }
  EXPECT_EQ(files, 3);  // steps 0 and 2 (dt 0.0025), the boundary
  std::filesystem::remove_all(dir);
}

// output.fields = [] writes the mesh alone (the model's own call reads an empty list as all of
// its fields; a run timed without output work must not pay for them).
TEST(Run, AnEmptyFieldListWritesTheMeshAlone) {
  const auto dir = test::fresh_directory("no_fields");
  const auto r = test::run_command(std::string(SCFD_BINARY) + " run " + kCube +
                                   " --set time.end=0.005 --set 'output.fields=[]'" +
                                   " --set output.directory=" + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> files = pvd_files(dir / "heat.pvd");
  ASSERT_EQ(files.size(), 2u);
  for (const std::string& f : files) {
    vtkNew<vtkXMLUnstructuredGridReader> reader;
    reader->SetFileName((dir / f).c_str());
    reader->Update();
    vtkUnstructuredGrid* g = reader->GetOutput();
    EXPECT_GT(g->GetNumberOfCells(), 0) << f;
    EXPECT_EQ(g->GetPointData()->GetArray("temperature"), nullptr) << f;
    EXPECT_EQ(g->GetCellData()->GetArray("heat_flux"), nullptr) << f;
    EXPECT_NE(g->GetCellData()->GetArray("region"), nullptr) << f;
  }
  std::filesystem::remove_all(dir);
}

// A model's set-up notes (here: ns-exact solving for the cylinder's streamfunction value) follow
// the effective configuration and the model line, so the configuration block stays first.
// KEY's number inside the summary's object "OBJECT": {...} (the first such object).
double in_object(const std::string& json, const std::string& object, const std::string& key) {
  const auto at = json.find("\"" + object + "\": {");
  if (at == std::string::npos) return std::nan("");
  return test::json_number(json.substr(at, json.find('}', at) - at), key);
}

// ns-classical reports its momentum and pressure iterations apart, on the progress line and in
// the summary (their sum is the old total), and the synchronisations per step: one rank
// exchanges no halo and waits for no GPU on the cpu backend, but sums (CFL, max |D U|, the
// verdict after each step); the AMG gathers no coarse problem.
TEST(Run, ReportsSolvesApartAndSynchronisations) {
  const auto dir = test::fresh_directory("solves");
  const auto r =
      test::run_command(std::string(SCFD_BINARY) + " run " + SCFD_SOURCE_DIR +
                        "/cases/cavity2d/case.toml --set time.end=0.03 " +
                        "--set solver.backend=cpu --set output.directory=" + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(it +\d+ \(momentum \d+, pressure \d+\))")))
      << r.out;
  const std::string json = test::slurp(dir / "ns-classical_summary.json");
  const double steps = test::json_number(json, "steps");
  EXPECT_EQ(steps, 2) << json;
  const double momentum = in_object(json, "momentum", "total");
  const double pressure = in_object(json, "pressure", "total");
  EXPECT_GT(momentum, 0) << json;
  EXPECT_GT(pressure, 0) << json;
  EXPECT_EQ(momentum + pressure, test::json_number(json, "iterations_total")) << json;
  EXPECT_LE(in_object(json, "pressure", "mean"), in_object(json, "pressure", "max")) << json;

  EXPECT_EQ(test::json_number(json, "steps_counted"), steps) << json;
  EXPECT_EQ(in_object(json, "halo_exchanges", "max"), 0) << json;
  EXPECT_EQ(in_object(json, "halo_bytes_sent", "max"), 0) << json;
  EXPECT_EQ(test::json_number(json, "halo_bytes_per_exchange"), 0) << json;
  EXPECT_GT(in_object(json, "reductions", "mean"), 0) << json;
  EXPECT_GE(in_object(json, "reductions", "max"), in_object(json, "reductions", "mean")) << json;
  EXPECT_EQ(in_object(json, "reductions", "max_ranks_max"), in_object(json, "reductions", "max"));
  EXPECT_EQ(in_object(json, "coarse_gathers", "max"), 0) << json;
  EXPECT_EQ(in_object(json, "gpu_waits", "max"), 0) << json;
  EXPECT_EQ(in_object(json, "gpu_drains", "max"), 0) << json;
  EXPECT_EQ(in_object(json, "gpu_dispatches", "max"), 0) << json;  // the cpu backend queues none
  std::filesystem::remove_all(dir);
}

TEST(Run, ModelNotesFollowTheConfiguration) {
  const auto dir = test::fresh_directory("notes");
  const auto r = test::run_command(std::string(SCFD_BINARY) + " run " + SCFD_SOURCE_DIR +
                                   "/cases/cylinder2d/case.toml --set physics.model=ns-exact " +
                                   "--set time.end=0.01 --set solver.backend=cpu " +
                                   "--set output.directory=" + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto config = r.out.find("effective configuration:");
  const auto model = r.out.find("model: ns-exact");
  const auto note = r.out.find("boundary chain(s)");
  ASSERT_NE(note, std::string::npos) << r.out;
  EXPECT_LT(config, model) << r.out;
  EXPECT_LT(model, note) << r.out;
  EXPECT_EQ(count(r.out, "boundary chain(s)"), 1) << r.out;
  std::filesystem::remove_all(dir);
}

TEST(Run, QuietPrintsNothingAndLogKeepsEverything) {
  const auto dir = test::fresh_directory("quiet");
  const auto log = dir / "run.log";
  const auto r = test::run_command(std::string(SCFD_BINARY) + " run " + kCube + " --quiet --log " +
                                   log.string() + " --set output.directory=" + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(count(test::slurp(log), "/20  t = "), 20);
  std::filesystem::remove_all(dir);
}

TEST(Run, CtrlCWritesTheCurrentStateAndExits130) {
  const auto dir = test::fresh_directory("sigint");
  // Tiny steps: the run would take hours; SIGINT after a moment must stop it cleanly.
  const std::string run = std::string(SCFD_BINARY) + " run " + kCube +
                          " --quiet --set time.dt=1e-9 --set output.interval=0" +
                          " --set output.directory=" + dir.string();
  // SIGINT once the run is stepping (its first output exists); the run abandons the step it is
  // in, or ends after it.
  const auto r =
      test::run_command("timeout 120 bash -c '" + run + " & pid=$!; for i in $(seq 600); do [ -e " +
                        (dir / "heat.pvd").string() +
                        " ] && break; sleep 0.1; done; sleep 0.3; kill -INT $pid; "
                        "wait $pid'");
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_NE(r.err.find("interrupted"), std::string::npos) << r.err;
  EXPECT_EQ(pvd_files(dir / "heat.pvd").size(), 2u);  // the initial and the interrupted state
  const std::string json = test::slurp(dir / "heat_summary.json");
  EXPECT_NE(json.find("\"status\": \"interrupted\""), std::string::npos) << json;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace scfd
