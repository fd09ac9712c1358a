// What the GL operators (backend/opengl/operators.hpp) do below the Backend interface, which
// tests/conformance cannot see: the device mesh (DeviceMesh) matches its mesh and holds bytes;
// the diagonal that node_system_assemble writes beside the assembled coefficients agrees with
// its cpu twin (backend/cpu/node_system.hpp) to 1e-12 (fp64) / 1e-5 (fp32) relative, on both
// storages, on the 2D and 3D test meshes and on rank meshes cut by partition::extract_local; and a
// buffer of the wrong size is fatal. The operators themselves, against the cpu's through the
// backend table, are tests/conformance/operators_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include "backend/cpu/node_system.hpp"
#include "backend/opengl/device_mesh.hpp"
#include "backend/opengl/operators.hpp"
#include "backend/rank_meshes.hpp"
#include "backend/test_meshes.hpp"
#include "gl/body.hpp"
#include "gl/gl_fixture.hpp"

namespace scfd::test {
namespace {

namespace cpu = backend::cpu;
using backend::opengl::DeviceMesh;
using backend::opengl::Operators;
using gl::Buffer;
using gl::FieldStorage;
using gl::Precision;
using gl::Storage;

FieldStorage to_device(const std::vector<real>& v, Precision p, Storage st) {
  FieldStorage t(v.size(), p, st, gl_context().info().max_texture_size);
  t.upload(v);
  return t;
}

std::vector<real> to_host(const Buffer& b, Precision p) {
  if (p == Precision::fp64) return b.download<real>();
  const std::vector<float> f = b.download<float>();
  return {f.begin(), f.end()};
}

// The device mesh of m, and the diagonal of node_system_assemble against its cpu twin (the
// coefficients are checked through the backend: tests/conformance applies the assembled system).
void check_mesh(const Mesh& m, const std::string& name, Precision p, Storage st, Operators& ops) {
  const real tol = p == Precision::fp64 ? 1e-12 : 1e-5;
  const std::string label = "node_system_assemble " + std::string(gl::to_string(p)) + " " +
                            std::string(gl::to_string(st)) + " on " + name;
  gl::Uploader up(4096);  // a small staging: the mesh's lists go in many parts
  const DeviceMesh dm(m, p, up);
  ASSERT_TRUE(dm.matches(m));
  ASSERT_GT(dm.bytes(), 0u);
  const auto ne = static_cast<std::size_t>(m.n_edges), nn = static_cast<std::size_t>(m.n_nodes),
             nno = static_cast<std::size_t>(m.n_owned_nodes);
  const std::vector<real> w = random_field(ne, 6, 0.5, 1.5), d = random_field(nn, 7, 0.5, 1.5);
  std::vector<real> fixed = random_field(nn, 9, 0, 1);
  for (real& f : fixed) f = f < 0.2 ? 1 : 0;
  const FieldStorage w_d = to_device(w, p, st), d_d = to_device(d, p, st),
                     fixed_d = to_device(fixed, p, st);
  const real b = 0.7;
  const std::size_t rs = p == Precision::fp64 ? sizeof(double) : sizeof(float);
  std::vector<real> coef(static_cast<std::size_t>(cpu::node_system_entries(m))), diag(nno);
  cpu::node_system_assemble(m, d, b, w, fixed, coef, diag);
  Buffer coef_d(Operators::node_system_entries(dm) * rs), diag_d(nno * rs);
  ops.node_system_assemble(dm, d_d, b, w_d, fixed_d, coef_d, diag_d);
  const std::vector<real> got = to_host(diag_d, p);
  real scale = 0, err = 0;
  for (std::size_t i = 0; i < nno; ++i) {
    scale = std::max(scale, std::abs(diag[i]));
    err = std::max(err, std::abs(got[i] - diag[i]));
  }
  report(label, err / scale);
  EXPECT_LE(err / scale, tol) << label;
}

}  // namespace
}  // namespace scfd::test

namespace scfd::gl {
// Names the precision in GoogleTest messages.
void PrintTo(Precision p, std::ostream* os) {
  *os << to_string(p);
}
}  // namespace scfd::gl

namespace scfd::test {
namespace {

// The assembly kernel runs under the compute driver only (FragmentDriver::make_node_system is
// matrix-free): both storages of its inputs.
class GlOperators : public ::testing::TestWithParam<Precision> {
 protected:
  void SetUp() override { gl_context(); }
};

TEST_P(GlOperators, DeviceMeshAndAssembledDiagonalOnSerialMeshes) {
  for (const Storage st : {Storage::buffer, Storage::texture}) {
    Operators ops(GetParam(), st, gl::compile_compute_body);
    for (const std::string& name : mesh_names()) {
      const Mesh* m = find_mesh(name);
      if (m == nullptr) continue;  // a Gmsh file that is not committed
      check_mesh(*m, name, GetParam(), st, ops);
    }
  }
}

TEST_P(GlOperators, DeviceMeshAndAssembledDiagonalOnRankMeshes) {
  for (const Storage st : {Storage::buffer, Storage::texture}) {
    Operators ops(GetParam(), st, gl::compile_compute_body);
    for (const char* name :
         {"square_irregular", "cube_distorted", "gmsh_channel2d_cylinder", "gmsh_part"}) {
      const Mesh* g = find_mesh(name);
      if (g == nullptr) continue;
      for (int rank : {0, 1}) {
        const Mesh local = slab_rank(*g, rank);
        ASSERT_LT(local.n_owned_nodes, local.n_nodes) << name << ": rank mesh without ghosts";
        check_mesh(local, std::string(name) + " rank " + std::to_string(rank), GetParam(), st, ops);
      }
    }
    for (const char* name : {"square_irregular", "cube_structured"}) {
      const Mesh core = core_rank(*find_mesh(name));
      ASSERT_EQ(core.n_boundary_faces(), 0) << name;
      check_mesh(core, std::string(name) + " core rank", GetParam(), st, ops);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(gl, GlOperators, ::testing::Values(Precision::fp64, Precision::fp32),
                         [](const auto& p) { return std::string(gl::to_string(p.param)); });

// A buffer of the wrong size is a broken invariant of the caller (SCFD_CHECK, fatal).
TEST(GlOperatorsDeathTest, WrongBufferSizeIsFatal) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const Mesh& m = *find_mesh("square_structured");
  EXPECT_DEATH(
      {
        gl_context();
        Operators ops(Precision::fp64, Storage::buffer, gl::compile_compute_body);
        gl::Uploader up;
        const DeviceMesh dm(m, Precision::fp64, up);
        const FieldStorage u =
            to_device(std::vector<real>(m.n_faces, 1.0), Precision::fp64, Storage::buffer);
        FieldStorage d =
            to_device(std::vector<real>(m.n_cells - 1, 0.0), Precision::fp64, Storage::buffer);
        ops.divergence(dm, u, d);
      },
      "divergence: d_cell");
}

}  // namespace
}  // namespace scfd::test
