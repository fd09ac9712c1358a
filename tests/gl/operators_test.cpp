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
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "backend/cpu/node_system.hpp"
#include "backend/opengl/device_mesh.hpp"
#include "backend/opengl/operators.hpp"
#include "backend/rank_meshes.hpp"
#include "backend/test_meshes.hpp"
#include "core/threads.hpp"
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

// make_sell_matrix writes the SELL-C layout described in device_mesh.hpp, whatever the staging
// size (parts that cut slices and their columns anywhere) and the host threads: rows of 0 to 90
// entries, a last slice only partly filled, the padding 0.
TEST(GlSellMatrix, LayoutIsItsDefinitionInAnyPartsOnAnyThreads) {
  gl_context();
  using backend::opengl::kSellChunk;
  backend::SparseMatrix a;
  a.rows = 3 * kSellChunk + 7;
  a.cols = 1000;
  std::uint32_t seed = 12345;
  const auto next = [&seed] { return (seed = seed * 1664525u + 1013904223u) >> 8; };
  for (index i = 0; i < a.rows; ++i) {
    const index n = i % 11 == 3 ? 0 : static_cast<index>(next() % (i < kSellChunk ? 91 : 9));
    for (index k = 0; k < n; ++k) {
      a.column.push_back(static_cast<index>(next() % 1000));
      a.value.push_back(static_cast<real>(next() % 100000) / 7);
    }
    a.offset.push_back(a.entries());
  }
  // The layout by its definition: entry k of row i at slice[i / C] + k C + i % C.
  std::vector<std::uint32_t> slice, length((a.rows + 1) / 2, 0);
  std::vector<std::int32_t> item;
  std::vector<real> value;
  for (index s = 0; s * kSellChunk < a.rows; ++s) {
    slice.push_back(static_cast<std::uint32_t>(item.size()));
    index width = 0;
    for (index i = s * kSellChunk; i < std::min(a.rows, (s + 1) * kSellChunk); ++i)
      width = std::max(width, a.offset[i + 1] - a.offset[i]);
    item.resize(item.size() + static_cast<std::size_t>(width * kSellChunk), 0);
    value.resize(item.size(), 0);
    for (index i = s * kSellChunk; i < std::min(a.rows, (s + 1) * kSellChunk); ++i) {
      const index len = a.offset[i + 1] - a.offset[i];
      length[static_cast<std::size_t>(i / 2)] |= static_cast<std::uint32_t>(len) << (16 * (i % 2));
      for (index k = 0; k < len; ++k) {
        const std::size_t at =
            slice.back() + static_cast<std::size_t>(k * kSellChunk + i % kSellChunk);
        item[at] = a.column[a.offset[i] + k];
        value[at] = a.value[a.offset[i] + k];
      }
    }
  }
  for (const int threads : {1, 3})
    for (const std::size_t staging :
         {std::size_t{64}, std::size_t{200}, std::size_t{4096}, std::size_t{64} << 20}) {
      set_host_threads(threads);
      gl::Uploader up(staging);
      const backend::opengl::SellMatrix s =
          backend::opengl::make_sell_matrix(a, Precision::fp64, up);
      const std::string where =
          std::to_string(threads) + " threads, staging " + std::to_string(staging);
      EXPECT_EQ(s.layout.slice.download<std::uint32_t>(), slice) << where;
      EXPECT_EQ(s.layout.length.download<std::uint32_t>(), length) << where;
      EXPECT_EQ(s.layout.item.download<std::int32_t>(), item) << where;
      EXPECT_EQ(s.value.download<real>(), value) << where;
    }
  set_host_threads(1);
}

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
