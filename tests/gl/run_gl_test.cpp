// Heat diffusion on the GPU path: `streamcfd run CASE --set solver.backend=gl-compute` (no other
// change to the case file) gives the cpu backend's answer — fp64 to solver tolerance with the same
// PCG iteration counts (±1 per solve), fp32 to its precision — on one rank and on two (each rank
// with its own context on the same llvmpipe device). `auto` on llvmpipe takes cpu and says why.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "common/json_number.hpp"
#include "common/run_command.hpp"

namespace scfd {
namespace {

struct RunResult {
  int exit_code = 0;
  std::string json, out;
  double figure(const std::string& name) const { return test::json_number(json, name); }
};

RunResult run_case(const std::string& case_file, const std::string& sets, int np = 1) {
  const auto dir = test::fresh_directory("gl_run");
  std::string cmd = std::string(SCFD_BINARY) + " run " + SCFD_SOURCE_DIR + "/" + case_file +
                    " --set output.directory=" + dir.string() + " " + sets;
  if (np > 1) cmd = std::string(SCFD_MPIRUN) + " -np " + std::to_string(np) + " " + cmd;
  const auto r = test::run_command(cmd);
  RunResult run{r.exit_code, "", r.out + r.err};
  if (std::filesystem::exists(dir / "heat_summary.json"))
    run.json = test::slurp(dir / "heat_summary.json");
  std::filesystem::remove_all(dir);
  return run;
}

const std::string kPart = "cases/heat-part/case.toml";
const std::string kCube = "cases/heat-cube/case.toml";
const std::string kCubeShort = "--set time.end=0.01";  // 4 transient steps

TEST(GlRun, SteadyPartFp64MatchesCpu) {
  const RunResult cpu = run_case(kPart, "--set solver.backend=cpu");
  const RunResult gpu = run_case(kPart, "--set solver.backend=gl-compute");
  ASSERT_EQ(cpu.exit_code, 0) << cpu.out;
  ASSERT_EQ(gpu.exit_code, 0) << gpu.out;
  EXPECT_NE(gpu.json.find("\"backend\": \"gl-compute\""), std::string::npos) << gpu.json;
  const double q = cpu.figure("heat_flow_hot");
  EXPECT_NEAR(gpu.figure("heat_flow_hot"), q, 1e-8 * std::abs(q));
  EXPECT_NEAR(gpu.figure("heat_flow_cold"), cpu.figure("heat_flow_cold"), 1e-8 * std::abs(q));
  EXPECT_NEAR(gpu.figure("iterations_total"), cpu.figure("iterations_total"), 1);
}

TEST(GlRun, TransientCubeFp64MatchesCpu) {
  const RunResult cpu = run_case(kCube, kCubeShort + " --set solver.backend=cpu");
  const RunResult gpu = run_case(kCube, kCubeShort + " --set solver.backend=gl-compute");
  ASSERT_EQ(cpu.exit_code, 0) << cpu.out;
  ASSERT_EQ(gpu.exit_code, 0) << gpu.out;
  EXPECT_NEAR(gpu.figure("error_l2"), cpu.figure("error_l2"), 1e-10);
  EXPECT_NEAR(gpu.figure("temperature_max"), cpu.figure("temperature_max"), 1e-10);
  EXPECT_NEAR(gpu.figure("iterations_total"), cpu.figure("iterations_total"), 4);
}

TEST(GlRun, SteadyPartFp32MatchesToItsPrecision) {
  // fp32 cannot reach the case's 1e-10 tolerance; 1e-5 is what single precision supports here.
  const std::string tol = " --set solver.tolerance=1e-5";
  const RunResult cpu = run_case(kPart, "--set solver.backend=cpu" + tol);
  const RunResult gpu =
      run_case(kPart, "--set solver.backend=gl-compute --set solver.precision=fp32" + tol);
  ASSERT_EQ(cpu.exit_code, 0) << cpu.out;
  ASSERT_EQ(gpu.exit_code, 0) << gpu.out;
  EXPECT_NE(gpu.json.find("\"precision\": \"fp32\""), std::string::npos) << gpu.json;
  const double q = cpu.figure("heat_flow_hot");
  EXPECT_NEAR(gpu.figure("heat_flow_hot"), q, 1e-3 * std::abs(q));
}

TEST(GlRun, TwoRanksMatchSerial) {
  const RunResult serial = run_case(kPart, "--set solver.backend=cpu");
  const RunResult gpu = run_case(kPart, "--set solver.backend=gl-compute", 2);
  ASSERT_EQ(gpu.exit_code, 0) << gpu.out;
  EXPECT_EQ(gpu.figure("ranks"), 2);
  const double q = serial.figure("heat_flow_hot");
  EXPECT_NEAR(gpu.figure("heat_flow_hot"), q, 1e-7 * std::abs(q));
  EXPECT_NEAR(gpu.figure("iterations_total"), serial.figure("iterations_total"), 2);
}

TEST(GlRun, AutoTakesCpuOnASoftwareRendererAndSaysWhy) {
  const RunResult r = run_case(kPart, "--set solver.backend=auto");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.json.find("\"backend\": \"cpu\""), std::string::npos) << r.json;
  EXPECT_NE(r.out.find("software renderer"), std::string::npos) << r.out;
}

TEST(GlRun, Fp32OnCpuOrAutoOnSoftwareIsAnInputError) {
  const RunResult cpu = run_case(kPart, "--set solver.backend=cpu --set solver.precision=fp32");
  EXPECT_EQ(cpu.exit_code, 2) << cpu.out;
  const RunResult autofp32 = run_case(kPart, "--set solver.precision=fp32");
  EXPECT_EQ(autofp32.exit_code, 2) << autofp32.out;
  EXPECT_NE(autofp32.out.find("needs a GPU backend"), std::string::npos) << autofp32.out;
}

TEST(GlRun, BadDeviceIndexIsAnInputError) {
  const RunResult r = run_case(kPart, "--set solver.backend=gl-compute --set solver.device=57");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(r.json, "");
}

}  // namespace
}  // namespace scfd
