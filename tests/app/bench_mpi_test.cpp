// `mpirun -np N streamcfd bench --backend cpu` (the cpu backend on all host cores): the mesh is
// distributed as for `streamcfd run`, and the distributed PCG (halo exchange in every operator
// application, global dot products) follows the serial one: same unknowns, and after a fixed
// number of iterations the same residual up to the round-off of a different summation order.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "common/json_number.hpp"
#include "common/run_command.hpp"

namespace {

// The bench on `nranks` ranks (1: no mpirun) on a cube of about `cells` cells with the cpu
// backend and `args` (by default the PCG part's 10 iterations); returns the JSON text.
std::string bench_json(int nranks, const std::string& args = "--repeat 1 --pcg-iterations 10",
                       int cells = 6000) {
  const auto dir = scfd::test::fresh_directory("bench_mpi");
  const auto json = dir / "bench.json";
  const std::string launcher =
      nranks == 1 ? "" : std::string(SCFD_MPIRUN) + " -np " + std::to_string(nranks) + " ";
  const auto r = scfd::test::run_command(launcher + "'" + SCFD_BINARY + "' bench --cells " +
                                         std::to_string(cells) + " --backend cpu --warmup 0 " +
                                         args + " --json '" + json.string() + "'");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  std::string text = scfd::test::slurp(json);
  std::filesystem::remove_all(dir);
  return text;
}

TEST(BenchMpi, DistributedPcgFollowsTheSerialOne) {
  const std::string serial = bench_json(1);
  const double residual = scfd::test::json_number(serial, "relative_residual");
  ASSERT_GT(residual, 0);
  for (int nranks : {2, 3}) {
    const std::string parallel = bench_json(nranks);
    EXPECT_EQ(scfd::test::json_number(parallel, "nranks"), nranks);
    EXPECT_EQ(scfd::test::json_number(parallel, "unknowns"),
              scfd::test::json_number(serial, "unknowns"));
    EXPECT_EQ(scfd::test::json_number(parallel, "iterations"), 10);
    EXPECT_NEAR(scfd::test::json_number(parallel, "relative_residual"), residual, 1e-6 * residual)
        << nranks << " ranks";
    EXPECT_GT(scfd::test::json_number(parallel, "ratio_to_bound"), 0);
  }
}

// `bench --only halo` on 2 ranks: a row per plan with ghosts (the exchange, its parts, the work
// that hides it), the narrowed plans of the Navier-Stokes operators and the global sum, every time
// positive; on one rank only the global sum.
TEST(BenchMpi, HaloPartTimesEveryPlanAndTheGlobalSum) {
  for (int nranks : {1, 2}) {
    const std::string text = bench_json(nranks, "--repeat 2 --only halo");
    const std::size_t halo = text.find("\"halo\": {");
    ASSERT_NE(halo, std::string::npos) << text;
    const std::string part = text.substr(halo);
    EXPECT_GT(scfd::test::json_number(part, "time_s"), 0);
    for (const char* row : {"halo node", "pack face", "unpack edge", "messages cell",
                            "work cell x16", "hidden cell x16", "halo cell (cell_reads)",
                            "hidden face (rotation_reads) x4", "halo curl (curl_reads)"})
      EXPECT_EQ(part.find(std::string("\"") + row + "\"") != std::string::npos, nranks > 1)
          << row << " on " << nranks << " ranks";
    EXPECT_NE(part.find("\"global sum\""), std::string::npos) << nranks << " ranks";
  }
}

// `bench --only amg` counts one V-cycle's synchronisations (the multigrid's dispatch floor and
// exchanges, issue 39): on one rank none; on two, past gather_size (20,000 rows), the gathered
// solve once and the finest level's right-hand-side exchange.
TEST(BenchMpi, AmgPartCountsOneCycle) {
  for (int nranks : {1, 2}) {
    const std::string text = bench_json(nranks, "--repeat 1 --only amg", 40000);
    const std::size_t at = text.find("\"per_cycle\": {");
    ASSERT_NE(at, std::string::npos) << text;
    const std::string part = text.substr(at);
    EXPECT_EQ(scfd::test::json_number(part, "coarse_gathers"), nranks > 1 ? 1 : 0);
    EXPECT_EQ(scfd::test::json_number(part, "halo_rounds") > 0, nranks > 1) << text;
    EXPECT_EQ(scfd::test::json_number(part, "gpu_dispatches"), 0);  // the cpu backend
  }
}

// `bench --only momentum` on 1 and 2 ranks: one application of the 3D momentum operator and its
// three stored matrices, every time positive, the application's bytes more than the matrices'.
// A 2D mesh is an input error.
TEST(BenchMpi, MomentumPartTimesTheOperatorAndItsMatrices) {
  for (int nranks : {1, 2}) {
    const std::string text = bench_json(nranks, "--repeat 2 --only momentum");
    const std::size_t at = text.find("\"momentum\": {");
    ASSERT_NE(at, std::string::npos) << text;
    const std::string part = text.substr(at);
    double matrices = 0;
    for (const char* row : {"mass_rt", "edge_star_wmp", "mass_curl"}) {
      const std::size_t r = part.find(std::string("\"") + row + "\"");
      ASSERT_NE(r, std::string::npos) << row << " on " << nranks << " ranks";
      EXPECT_GT(scfd::test::json_number(part.substr(r), "time_s"), 0) << row;
      matrices += scfd::test::json_number(part.substr(r), "bytes");
    }
    const std::string apply = part.substr(part.find("\"momentum_apply\""));
    EXPECT_GT(scfd::test::json_number(apply, "time_s"), 0) << nranks << " ranks";
    EXPECT_GT(scfd::test::json_number(apply, "bytes"), matrices) << nranks << " ranks";
  }
  const auto r =
      scfd::test::run_command("'" + std::string(SCFD_BINARY) +
                              "' bench --dim 2 --cells 2000 --backend cpu --only momentum");
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("3D mesh"), std::string::npos) << r.err;
}

// `bench --only stream` on 1 and 2 ranks: one application of ns-exact's 3D stream operator and
// of its preconditioner, S, W_mp and the convection chain, every time positive, the operator's
// bytes more than its two products with S. A 2D mesh is an input error.
TEST(BenchMpi, StreamPartTimesTheOperatorAndThePreconditioner) {
  for (int nranks : {1, 2}) {
    const std::string text = bench_json(nranks, "--repeat 2 --only stream");
    const std::size_t at = text.find("\"stream\": {");
    ASSERT_NE(at, std::string::npos) << text;
    const std::string part = text.substr(at);
    for (const char* row : {"stream_apply", "stream_preconditioner", "stream_s", "edge_star_wmp",
                            "stream_convection"}) {
      const std::size_t r = part.find(std::string("\"") + row + "\"");
      ASSERT_NE(r, std::string::npos) << row << " on " << nranks << " ranks";
      EXPECT_GT(scfd::test::json_number(part.substr(r), "time_s"), 0) << row;
    }
    const double s = scfd::test::json_number(part.substr(part.find("\"stream_s\"")), "bytes");
    EXPECT_GT(scfd::test::json_number(part.substr(part.find("\"stream_apply\"")), "bytes"), 2 * s)
        << nranks << " ranks";
  }
  const auto r = scfd::test::run_command(
      "'" + std::string(SCFD_BINARY) + "' bench --dim 2 --cells 2000 --backend cpu --only stream");
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("3D mesh"), std::string::npos) << r.err;
}

}  // namespace
