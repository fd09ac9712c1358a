// The heat cases on np = 1, 2, 3, 4 ranks (`mpirun -np N streamcfd run CASE`, the documented
// command) give the serial answer: the figures of the run summary agree to solver tolerance and
// the PCG iteration counts follow the serial ones to within 2 per solve; AMG gives the same answer.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "common/json_number.hpp"
#include "common/run_command.hpp"

namespace scfd {
namespace {

struct Summary {
  std::string json;
  double figure(const std::string& name) const { return test::json_number(json, name); }
};

Summary run_case(const std::string& case_file, int np, const std::string& sets = "") {
  const auto out = test::fresh_directory("np" + std::to_string(np));
  const std::string cmd = std::string(SCFD_MPIRUN) + " -np " + std::to_string(np) + " " +
                          SCFD_BINARY + " run " + SCFD_SOURCE_DIR + "/" + case_file +
                          " --quiet --set output.directory=" + out.string() + " " + sets;
  const auto r = test::run_command(cmd);
  EXPECT_EQ(r.exit_code, 0) << cmd << "\n" << r.err;
  Summary s{test::slurp(out / "heat_summary.json")};
  EXPECT_EQ(s.figure("ranks"), np) << s.json;
  // The scaling figures of the summary: METIS's parts, the halo's hidden share, peak memory.
  EXPECT_EQ(s.figure("parts"), np) << s.json;
  EXPECT_GE(s.figure("hidden_fraction"), 0.0) << s.json;
  EXPECT_LE(s.figure("hidden_fraction"), 1.0) << s.json;
  EXPECT_GT(s.figure("peak_rank0_bytes"), 0.0) << s.json;
  EXPECT_EQ(s.figure("peak_others_max_bytes") > 0, np > 1) << s.json;
  std::filesystem::remove_all(out);
  return s;
}

class HeatParallel : public ::testing::TestWithParam<int> {};

TEST_P(HeatParallel, SteadyPartMatchesSerial) {
  const std::string part = "cases/heat-part/case.toml";
  static const Summary serial = run_case(part, 1);
  const Summary s = run_case(part, GetParam());
  const double q = serial.figure("heat_flow_hot");
  EXPECT_NEAR(s.figure("heat_flow_hot"), q, 1e-7 * std::abs(q));
  EXPECT_NEAR(s.figure("heat_flow_cold"), serial.figure("heat_flow_cold"), 1e-7 * std::abs(q));
  EXPECT_NEAR(s.figure("iterations_total"), serial.figure("iterations_total"), 2);
}

// AMG (one hierarchy per rank) gives the serial Jacobi-PCG answer in fewer iterations.
TEST_P(HeatParallel, SteadyPartWithAmgMatchesSerialJacobi) {
  const std::string part = "cases/heat-part/case.toml";
  static const Summary serial = run_case(part, 1);
  const Summary s = run_case(part, GetParam(), "--set solver.preconditioner=amg");
  const double q = serial.figure("heat_flow_hot");
  EXPECT_NEAR(s.figure("heat_flow_hot"), q, 1e-7 * std::abs(q));
  EXPECT_NEAR(s.figure("heat_flow_cold"), serial.figure("heat_flow_cold"), 1e-7 * std::abs(q));
  EXPECT_LT(s.figure("iterations_total"), 0.5 * serial.figure("iterations_total"));
}

TEST_P(HeatParallel, TransientCubeMatchesSerial) {
  const std::string cube = "cases/heat-cube/case.toml";
  const std::string sets = "--set time.end=0.01";  // 4 steps
  static const Summary serial = run_case(cube, 1, sets);
  const Summary s = run_case(cube, GetParam(), sets);
  EXPECT_NEAR(s.figure("error_l2"), serial.figure("error_l2"), 1e-9);
  EXPECT_NEAR(s.figure("temperature_max"), serial.figure("temperature_max"), 1e-9);
  EXPECT_NEAR(s.figure("iterations_total"), serial.figure("iterations_total"), 2 * 4);
}

// A generated mesh ([mesh] generate), partitioned like a file's.
TEST_P(HeatParallel, GeneratedBoxMatchesSerial) {
  const std::string box = "cases/heat-box/case.toml";
  const std::string sets = "--set mesh.divisions=[10,10,10] --set mesh.jitter=0.2";
  static const Summary serial = run_case(box, 1, sets);
  const Summary s = run_case(box, GetParam(), sets);
  EXPECT_NEAR(s.figure("error_l2"), serial.figure("error_l2"), 1e-9);
  EXPECT_NEAR(s.figure("temperature_max"), serial.figure("temperature_max"), 1e-9);
}

TEST_P(HeatParallel, LinearSquareExactOnEveryRankCount) {
  const Summary s = run_case("cases/heat-square/case.toml", GetParam());
  EXPECT_LT(s.figure("error_max"), 1e-9) << s.json;
}

INSTANTIATE_TEST_SUITE_P(Ranks, HeatParallel, ::testing::Values(1, 2, 3, 4),
                         [](const auto& param_info) {
                           return "np" + std::to_string(param_info.param);
                         });

}  // namespace
}  // namespace scfd
