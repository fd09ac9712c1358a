// Verification of the heat model through the documented command (`streamcfd run CASE --set ...`):
//  - a linear steady solution is reproduced to solver tolerance on irregular 2D and 3D meshes;
//  - the transient unit-cube solution T = exp(-3 pi^2 t) sin(pi x) sin(pi y) sin(pi z) converges
//    at second order in space (Crank–Nicolson with dt proportional to h, so the time error keeps
//    the same order) over three mesh refinements.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "common/json_number.hpp"
#include "common/run_command.hpp"

namespace scfd {
namespace {

const std::string kSource = SCFD_SOURCE_DIR;

// Runs CASE with overrides into a fresh directory and returns the summary JSON text.
std::string run_case(const std::string& case_file, const std::string& sets) {
  const auto out = test::fresh_directory("heat");
  const auto r = test::run_command(std::string(SCFD_BINARY) + " run " + kSource + "/" + case_file +
                                   " --quiet --set output.directory=" + out.string() + " " + sets);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::string json = test::slurp(out / "heat_summary.json");
  std::filesystem::remove_all(out);
  return json;
}

TEST(HeatVerification, LinearSteadySolutionExactIn2D) {
  for (const char* mesh : {"square-1.msh", "square-2.msh", "square-3.msh"}) {
    const std::string json = run_case("cases/heat-square/case.toml",
                                      std::string("--set mesh.file=../../meshes/") + mesh);
    EXPECT_LT(test::json_number(json, "error_max"), 1e-9) << mesh << "\n" << json;
  }
}

TEST(HeatVerification, LinearSteadySolutionExactIn3D) {
  for (const char* mesh : {"cube-1.msh", "cube-2.msh"}) {
    const std::string json = run_case("tests/verification/cases/linear-cube.toml",
                                      std::string("--set mesh.file=../../../meshes/") + mesh);
    EXPECT_LT(test::json_number(json, "error_max"), 1e-9) << mesh << "\n" << json;
  }
}

TEST(HeatVerification, TransientCubeConvergesAtSecondOrder) {
  std::vector<double> h, err;
  int steps = 5;
  for (const char* mesh : {"cube-1.msh", "cube-2.msh", "cube-3.msh"}) {
    const std::string json =
        run_case("cases/heat-cube/case.toml", std::string("--set mesh.file=../../meshes/") + mesh +
                                                  " --set time.dt=" + std::to_string(0.05 / steps) +
                                                  " --set output.interval=0");
    const double cells = test::json_number(json, "cells");
    h.push_back(std::cbrt(1.0 / cells));
    err.push_back(test::json_number(json, "error_l2"));
    steps *= 2;
  }
  for (std::size_t k = 1; k < h.size(); ++k) {
    const double order = std::log(err[k - 1] / err[k]) / std::log(h[k - 1] / h[k]);
    std::printf("h %.4f -> %.4f: L2 error %.3e -> %.3e, observed order %.2f\n", h[k - 1], h[k],
                err[k - 1], err[k], order);
  }
  const double order = std::log(err[0] / err[2]) / std::log(h[0] / h[2]);
  EXPECT_GE(order, 1.8) << "observed order over three refinements";
}

}  // namespace
}  // namespace scfd
