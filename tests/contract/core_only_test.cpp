// The demonstration backend (core_only_backend.hpp: core methods only, everything else from
// Backend's defaults) runs heat, ns-classical and ns-exact, in 2D and 3D, and gives the cpu
// backend's results: the operators G, D, C, R and the Krylov updates give the kernels' bits, the
// interpolation, integration and node systems differ from them in the last bits, so the fields
// after a few steps agree to 1e-10 relative (measured: 1e-16 to 2e-11; ns-exact's stream solve
// carries the last bits furthest). On several ranks with the halo overlap on, the defaults'
// Rows::inner and Rows::interface products are the ones that run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "config/case.hpp"
#include "contract/core_only_backend.hpp"
#include "halo/halo.hpp"
#include "mesh_io/gmsh.hpp"
#include "partition/distribute.hpp"
#include "physics/model.hpp"
#include "topology/build.hpp"

namespace scfd::test {
namespace {

struct ModelRun {
  const char* label;
  const char* mesh;
  const char* model;
  std::string extra;  // [boundary] tables and what the model needs
  int steps;
};

// Solves to 1e-12: a change in the last bits can move a Krylov solve by one iteration, which
// moves its answer by up to its tolerance (ns-exact at 1e-9 on 2 ranks: 2e-9).
const std::string kTight = "[solver]\nmomentum_tolerance = 1e-12\npressure_tolerance = 1e-12\n";
const std::string kSquareHeat =
    "[boundary.left]\ntype = 'temperature'\nvalue = 0\n[boundary.right]\ntype = "
    "'temperature'\nvalue = 1\n[boundary.top]\ntype = 'insulated'\n[boundary.bottom]\ntype = "
    "'heat-flux'\nvalue = 'x'\n[initial]\ntemperature = 'sin(x) * y'\n"
    "[time]\nmode = 'transient'\ndt = 0.01\nsteps = 4\n";
const std::string kCavity =
    "[fluid]\nreynolds = 100\n[boundary.lid]\ntype = 'moving-wall'\nvelocity_x = 1\n"
    "[boundary.walls]\ntype = 'wall'\n[time]\ndt = 0.01\nsteps = 4\n" +
    kTight;
const std::string kCubeFlow =
    "[fluid]\nreynolds = 50\n[boundary.top]\ntype = 'moving-wall'\nvelocity_x = 1\n"
    "[boundary.left]\ntype = 'wall'\n[boundary.right]\ntype = 'wall'\n[boundary.bottom]\n"
    "type = 'wall'\n[boundary.front]\ntype = 'wall'\n[boundary.back]\ntype = 'wall'\n"
    "[time]\ndt = 0.02\nsteps = 3\n" +
    kTight;

class CoreOnly : public ::testing::TestWithParam<ModelRun> {};

// The model's fields after its steps on `be`.
std::vector<physics::HostField> run(const ModelRun& r, const topology::Mesh& m,
                                    const backend::Backend& be) {
  halo::Halo halo = halo::Halo::build(m, MPI_COMM_WORLD);
  const config::Case c = config::Case::from_string(
      std::string("[physics]\nmodel = '") + r.model + "'\n[parallel]\noverlap = true\n" + r.extra,
      "core-only.toml");
  auto model = physics::make_model(c, m, be, halo);
  for (int s = 0; s < r.steps; ++s) model->advance();
  return model->fields(model->field_names());
}

TEST_P(CoreOnly, GivesTheCpuBackendsResults) {
  const ModelRun& r = GetParam();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::optional<topology::Mesh> global;
  if (rank == 0)
    global = topology::build_mesh(
        mesh_io::read_gmsh(std::string(SCFD_SOURCE_DIR) + "/meshes/" + r.mesh));
  const topology::Mesh m = partition::distribute(global ? &*global : nullptr, MPI_COMM_WORLD);
  const backend::cpu::CpuBackend cpu;
  const CoreOnlyBackend core_only;
  const auto want = run(r, m, cpu), got = run(r, m, core_only);
  ASSERT_EQ(want.size(), got.size());
  const auto largest = [](const std::vector<real>& v) {
    real most = 1e-300;
    for (const real x : v) most = std::max(most, std::abs(x));
    return most;
  };
  real velocity_scale = 0;
  for (const auto& f : want)
    if (f.name == "velocity") velocity_scale = largest(f.data);
  for (std::size_t k = 0; k < want.size(); ++k) {
    ASSERT_EQ(want[k].data.size(), got[k].data.size()) << want[k].name;
    // div u is zero to the solver tolerance: its differences are measured against the velocity.
    real scale = largest(want[k].data), err = 0;
    if (want[k].name == "divergence") scale = std::max(scale, velocity_scale);
    for (std::size_t i = 0; i < want[k].data.size(); ++i)
      err = std::max(err, std::abs(want[k].data[i] - got[k].data[i]));
    EXPECT_LT(err / scale, 1e-10) << r.label << ": " << want[k].name;
    std::printf("[ max rel err ] %-20s %-24s %.3e\n", r.label, want[k].name.c_str(), err / scale);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Models, CoreOnly,
    ::testing::Values(ModelRun{"heat2d", "square-1.msh", "heat", kSquareHeat, 4},
                      ModelRun{"classical2d", "cavity-1.msh", "ns-classical", kCavity, 4},
                      ModelRun{"exact2d", "cavity-1.msh", "ns-exact", kCavity, 4},
                      ModelRun{"classical3d", "cube-1.msh", "ns-classical", kCubeFlow, 3},
                      ModelRun{"exact3d", "cube-1.msh", "ns-exact", kCubeFlow, 3}),
    [](const auto& run_info) { return std::string(run_info.param.label); });

}  // namespace
}  // namespace scfd::test
