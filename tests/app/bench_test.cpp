// `streamcfd bench` end to end on the cpu backend: the JSON holds every kernel with positive
// time, bytes and bandwidth, the copy ceiling and the PCG figures; `--export-matrix` writes the
// matrix that the backend's node_system applies (read back here from Matrix Market, multiplied
// by a random vector and compared with node_system on the same mesh); bad arguments give one
// line on stderr and exit code 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "common/json_number.hpp"
#include "common/run_command.hpp"
#include "mesh_io/gmsh.hpp"
#include "topology/build.hpp"

namespace {

using scfd::index;
using scfd::real;

scfd::test::CommandResult run_streamcfd(const std::string& args) {
  return scfd::test::run_command(std::string("'") + SCFD_BINARY + "' " + args);
}

// The number after "key": inside the object "object": {...} of a JSON text (NaN if absent).
double field_of(const std::string& json, const std::string& object, const std::string& key) {
  const std::regex re("\"" + object + "\": \\{[^}]*\"" + key + "\": ([-+0-9.eE]+)");
  std::smatch m;
  if (!std::regex_search(json, m, re)) return std::nan("");
  return std::stod(m[1].str());
}

TEST(Bench, JsonHasEveryKernelWithPositiveFigures) {
  const auto dir = scfd::test::fresh_directory("bench_json");
  const auto json_path = dir / "bench.json";
  const auto r = run_streamcfd("bench --cells 2000 --backend cpu --repeat 2 --warmup 0 --json '" +
                               json_path.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("pcg_update"), std::string::npos) << r.out;  // the table
  const std::string json = scfd::test::slurp(json_path);
  EXPECT_GE(scfd::test::json_number(json, "cells"), 2000);
  EXPECT_EQ(scfd::test::json_number(json, "nranks"), 1);
  EXPECT_EQ(scfd::test::json_number(json, "warmup_s"), 0);
  EXPECT_NE(json.find("\"backend\": \"cpu\""), std::string::npos);
  EXPECT_NE(json.find("\"precision\": \"fp64\""), std::string::npos);
  EXPECT_GT(field_of(json, "copy", "gbps"), 0);
  for (const char* kernel : {"copy", "axpy", "xpay", "scale", "dot", "pcg_update", "gradient",
                             "divergence", "flux_sum_abs", "curl", "rotation", "interpolate",
                             "integrate", "convection", "node_laplacian", "node_system",
                             "node_system_diagonal", "node_system_apply", "dependent_dispatch"})
    for (const char* key : {"time_s", "bytes", "gbps", "ratio_to_copy"})
      EXPECT_GT(field_of(json, kernel, key), 0) << kernel << "." << key << "\n" << json;
  for (const char* key : {"iterations", "time_per_iteration_s", "unknowns",
                          "unknown_iterations_per_s", "bound_s", "ratio_to_bound"})
    EXPECT_GT(field_of(json, "pcg", key), 0) << "pcg." << key << "\n" << json;
  std::filesystem::remove_all(dir);
}

TEST(Bench, GeneratedSquareRunsEveryKernel) {
  const auto r =
      run_streamcfd("bench --dim 2 --cells 500 --backend cpu --repeat 1 --warmup 0 --only kernels");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("generated square 16x16"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("node_system_diagonal"), std::string::npos) << r.out;
}

// A Matrix Market file's entries: coordinate (row, col, value; 1-based) or array (one column).
struct MatrixMarket {
  std::string header;
  long long rows = 0, cols = 0, entries = 0;
  std::vector<long long> row, col;
  std::vector<real> value;
};

MatrixMarket read_matrix_market(const std::filesystem::path& p) {
  std::ifstream in(p);
  MatrixMarket mm;
  std::getline(in, mm.header);
  std::string line;
  while (std::getline(in, line) && line.rfind('%', 0) == 0) {
  }
  std::istringstream size(line);
  const bool coordinate = mm.header.find("coordinate") != std::string::npos;
  size >> mm.rows >> mm.cols;
  if (coordinate)
    size >> mm.entries;
  else
    mm.entries = mm.rows * mm.cols;
  for (long long k = 0; k < mm.entries; ++k) {
    long long i = 0, j = 0;
    real v = 0;
    if (coordinate) in >> i >> j;
    in >> v;
    mm.row.push_back(i);
    mm.col.push_back(j);
    mm.value.push_back(v);
  }
  EXPECT_TRUE(in) << p << " ends early";
  return mm;
}

// The node system the bench documents: d = 0, b = 1, w = edge_stiffness, fixed = boundary nodes.
void check_export(const std::string& mesh_file) {
  const auto dir = scfd::test::fresh_directory("bench_export");
  const auto r =
      run_streamcfd("bench '" + mesh_file +
                    "' --backend cpu --only pcg --pcg-iterations 2 --repeat 1 --warmup 0 "
                    "--export-matrix '" +
                    dir.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const scfd::topology::Mesh m = scfd::topology::build_mesh(scfd::mesh_io::read_gmsh(mesh_file));
  const auto n = static_cast<std::size_t>(m.n_nodes);

  const MatrixMarket a = read_matrix_market(dir / "matrix.mtx");
  EXPECT_EQ(a.header, "%%MatrixMarket matrix coordinate real symmetric");
  ASSERT_EQ(a.rows, m.n_nodes);
  ASSERT_EQ(a.cols, m.n_nodes);
  const MatrixMarket rhs = read_matrix_market(dir / "rhs.mtx");
  EXPECT_EQ(rhs.header, "%%MatrixMarket matrix array real general");
  ASSERT_EQ(rhs.rows, m.n_nodes);

  std::vector<real> fixed(n, 0);
  for (const auto& patch : m.patches)
    for (index node : patch.nodes) fixed[static_cast<std::size_t>(node)] = 1;
  for (std::size_t i = 0; i < n; ++i)
    EXPECT_DOUBLE_EQ(rhs.value[i], (1 - fixed[i]) * m.node_dual_volume[i]) << "rhs row " << i;

  std::mt19937_64 rng(7);
  std::uniform_real_distribution<real> u(-1, 1);
  std::vector<real> x(n), ax(n, 0), y(n);
  for (real& v : x) v = u(rng);
  for (std::size_t k = 0; k < a.value.size(); ++k) {  // symmetric: lower triangle stored
    const auto i = static_cast<std::size_t>(a.row[k] - 1),
               j = static_cast<std::size_t>(a.col[k] - 1);
    EXPECT_GE(i, j) << "entry " << k << " is above the diagonal";
    ax[i] += a.value[k] * x[j];
    if (i != j) ax[j] += a.value[k] * x[i];
  }
  const auto be = scfd::backend::make_backend("cpu");
  auto upload = [&](const std::vector<real>& h) {
    auto f = be->make_field(static_cast<index>(h.size()));
    be->upload(h, *f);
    return f;
  };
  auto d = upload(std::vector<real>(n, 0)), w = upload(m.edge_stiffness);
  auto fx = upload(fixed), xf = upload(x), yf = be->make_field(m.n_nodes);
  be->node_system(m, *d, 1, *w, *fx, *xf, *yf);
  be->download(*yf, y);
  real scale = 0;
  for (real v : y) scale = std::max(scale, std::abs(v));
  for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(ax[i], y[i], 1e-13 * scale) << "row " << i;
  std::filesystem::remove_all(dir);
}

TEST(Bench, ExportedMatrixIsTheNodeSystem2D) {
  check_export(std::string(SCFD_SOURCE_DIR) + "/meshes/square-1.msh");
}

TEST(Bench, ExportedMatrixIsTheNodeSystem3D) {
  check_export(std::string(SCFD_SOURCE_DIR) + "/meshes/cube-1.msh");
}

TEST(Bench, BadArgumentsExitTwoWithOneLine) {
  const std::string mesh = std::string(SCFD_SOURCE_DIR) + "/meshes/square-1.msh";
  for (const std::string& args :
       {std::string("--cells 0"), std::string("--dim 4"), std::string("--backend vulkan"),
        std::string("--precision fp16"), std::string("--repeat 0"), std::string("--warmup -1"),
        std::string("--only solver"), std::string("--pcg-iterations -3"),
        std::string("--tolerance 2"), std::string("--backend cpu --precision fp32"),
        "'" + mesh + "' --cells 100", std::string("no-such-mesh.msh --backend cpu")}) {
    const auto r = run_streamcfd("bench " + args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\n" << r.err;
  }
}

}  // namespace
