// gl-compute operator kernels (kernels/<op>.glsl through backend/opengl/operators.hpp) against
// their cpu twins (backend/cpu/), docs/architecture.md §10: every operator (convection with upwind
// 0, 1 and 0.5), fp64 and fp32, on the 2D and 3D test meshes (structured, jittered, distorted,
// sheared, committed Gmsh meshes) with random inputs agrees to 1e-12 (fp64) / 1e-5 (fp32) relative
// to the largest |output|. On rank meshes cut by partition::extract_local (owned entities first,
// ghosts last) only the owned outputs are written: the ghost entries keep a sentinel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "backend/cpu/node_system.hpp"
#include "backend/cpu/operators.hpp"
#include "backend/opengl/device_mesh.hpp"
#include "backend/opengl/operators.hpp"
#include "backend/test_meshes.hpp"
#include "backend/traffic.hpp"
#include "gl/body.hpp"
#include "gl/gl_fixture.hpp"
#include "gl/raster.hpp"
#include "partition/extract.hpp"

namespace scfd::test {
namespace {

namespace cpu = backend::cpu;
using backend::opengl::DeviceMesh;
using backend::opengl::Operators;
using gl::Buffer;
using gl::FieldStorage;
using gl::Precision;
using gl::Storage;

// The compute driver on both storages and the fragment driver (gl-raster) on textures.
struct Variant {
  Storage storage;
  const char* driver;             // in the tests' names
  gl::BodyCompiler compile_body;  // the driver's (Driver::body_compiler)
};
constexpr Variant kVariants[] = {{Storage::buffer, "compute", gl::compile_compute_body},
                                 {Storage::texture, "compute", gl::compile_compute_body},
                                 {Storage::texture, "fragment", gl::compile_raster_body}};

// Written into every output before an operator runs; ghost outputs must still hold it after.
constexpr real kSentinel = 4096.5;

FieldStorage to_device(const std::vector<real>& v, Precision p, Storage st) {
  FieldStorage t(v.size(), p, st, gl_context().info().max_texture_size);
  t.upload(v);
  return t;
}

std::vector<real> to_host(const FieldStorage& t) {
  std::vector<real> out(t.size());
  t.download(out);
  return out;
}

std::vector<real> to_host(const Buffer& b, Precision p) {
  if (p == Precision::fp64) return b.download<real>();
  const std::vector<float> f = b.download<float>();
  return {f.begin(), f.end()};
}

std::vector<real> flatten(const std::vector<Vec3>& v) {
  std::vector<real> out;
  for (const Vec3& x : v) out.insert(out.end(), {x.x, x.y, x.z});
  return out;
}

// Runs one operator both ways. cpu_op fills its (sentinel-initialised) output of n_out values;
// gpu_op writes the buffer it is given. The first n_owned values must agree to tol relative to
// the largest |cpu value|; the rest must keep the sentinel.
void expect_twins(const std::string& what, std::size_t n_out, std::size_t n_owned, Precision p,
                  Storage st, real tol, const std::function<void(std::vector<real>&)>& cpu_op,
                  const std::function<void(FieldStorage&)>& gpu_op) {
  std::vector<real> want(n_out, kSentinel);
  cpu_op(want);
  FieldStorage out = to_device(std::vector<real>(n_out, kSentinel), p, st);
  gpu_op(out);
  const std::vector<real> got = to_host(out);
  real scale = 0, err = 0;
  for (std::size_t i = 0; i < n_owned; ++i) {
    scale = std::max(scale, std::abs(want[i]));
    err = std::max(err, std::abs(got[i] - want[i]));
  }
  const real rel = scale > 0 ? err / scale : err;
  report(what, rel);
  EXPECT_LE(rel, tol) << what;
  std::size_t overwritten = 0;
  for (std::size_t i = n_owned; i < n_out; ++i) overwritten += got[i] != kSentinel;
  EXPECT_EQ(overwritten, 0u) << what << ": ghost outputs written";
}

// Every operator of Operators on mesh m against its cpu twin.
void check_all(const Mesh& m, const std::string& name, Precision p, Variant variant,
               Operators& ops) {
  const Storage st = variant.storage;
  const real tol = p == Precision::fp64 ? 1e-12 : 1e-5;
  const auto label = [&](const char* op) {
    return std::string(op) + " " + std::string(gl::to_string(p)) + " " +
           std::string(gl::to_string(st)) + " " + std::string(variant.driver) + " on " + name;
  };
  const DeviceMesh dm(m, p);
  ASSERT_TRUE(dm.matches(m));
  ASSERT_GT(dm.bytes(), 0u);
  const auto nc = static_cast<std::size_t>(m.n_cells), nf = static_cast<std::size_t>(m.n_faces),
             ne = static_cast<std::size_t>(m.n_edges), nn = static_cast<std::size_t>(m.n_nodes),
             nk = static_cast<std::size_t>(m.n_curl());
  const auto nco = static_cast<std::size_t>(m.n_owned_cells),
             nfo = static_cast<std::size_t>(m.n_owned_faces),
             nno = static_cast<std::size_t>(m.n_owned_nodes),
             nko = static_cast<std::size_t>(m.n_owned_curl());

  const std::vector<real> q = random_field(nc, 1), qb = random_field(m.n_boundary_faces(), 2),
                          u = random_field(nf, 3), s = random_field(nk, 4), x = random_field(nn, 5),
                          w = random_field(ne, 6, 0.5, 1.5), d = random_field(nn, 7, 0.5, 1.5);
  const std::vector<Vec3> v = random_vectors(nc, m.dim, 8);
  std::vector<real> fixed = random_field(nn, 9, 0, 1);
  for (real& f : fixed) f = f < 0.2 ? 1 : 0;
  const FieldStorage q_d = to_device(q, p, st), qb_d = to_device(qb, p, st),
                     u_d = to_device(u, p, st), s_d = to_device(s, p, st),
                     x_d = to_device(x, p, st), w_d = to_device(w, p, st),
                     d_d = to_device(d, p, st), v_d = to_device(flatten(v), p, st),
                     fixed_d = to_device(fixed, p, st);
  const real b = 0.7;

  expect_twins(
      label("gradient"), nf, nfo, p, st, tol, [&](auto& out) { cpu::gradient(m, q, qb, out); },
      [&](FieldStorage& out) { ops.gradient(dm, q_d, qb_d, out); });
  expect_twins(
      label("divergence"), nc, nco, p, st, tol, [&](auto& out) { cpu::divergence(m, u, out); },
      [&](FieldStorage& out) { ops.divergence(dm, u_d, out); });
  expect_twins(
      label("flux_sum_abs"), nc, nco, p, st, tol, [&](auto& out) { cpu::flux_sum_abs(m, u, out); },
      [&](FieldStorage& out) { ops.flux_sum_abs(dm, u_d, out); });
  expect_twins(
      label("curl"), nf, nfo, p, st, tol, [&](auto& out) { cpu::curl(m, s, out); },
      [&](FieldStorage& out) { ops.curl(dm, s_d, out); });
  expect_twins(
      label("rotation"), nk, nko, p, st, tol, [&](auto& out) { cpu::rotation(m, u, out); },
      [&](FieldStorage& out) { ops.rotation(dm, u_d, out); });
  expect_twins(
      label("interpolate"), 3 * nc, 3 * nco, p, st, tol,
      [&](auto& out) {
        std::vector<Vec3> uc(nc, Vec3{kSentinel, kSentinel, kSentinel});
        cpu::interpolate(m, u, uc);
        out = flatten(uc);
      },
      [&](FieldStorage& out) { ops.interpolate(dm, u_d, out); });
  expect_twins(
      label("integrate"), nf, nfo, p, st, tol, [&](auto& out) { cpu::integrate(m, v, out); },
      [&](FieldStorage& out) { ops.integrate(dm, v_d, out); });
  // Convection: random fluxes enter and leave through every kind of face; u_boundary is read on
  // the inflow boundary faces only, u_cell on both sides of every interior face.
  const std::vector<Vec3> vb =
      random_vectors(static_cast<std::size_t>(m.n_boundary_faces()), m.dim, 10);
  const FieldStorage vb_d = to_device(flatten(vb), p, st);
  for (const real upwind : {0.0, 1.0, 0.5}) {
    expect_twins(
        label("convection") + " upwind " + std::to_string(upwind), 3 * nc, 3 * nco, p, st, tol,
        [&](auto& out) {
          std::vector<Vec3> nv(nc, Vec3{kSentinel, kSentinel, kSentinel});
          cpu::convection(m, u, v, vb, upwind, nv);
          out = flatten(nv);
        },
        [&](FieldStorage& out) { ops.convection(dm, u_d, v_d, vb_d, upwind, out); });
  }
  expect_twins(
      label("node_laplacian"), nn, nno, p, st, tol,
      [&](auto& out) { cpu::node_laplacian(m, w, x, out); },
      [&](FieldStorage& out) { ops.node_laplacian(dm, w_d, x_d, out); });
  expect_twins(
      label("node_system"), nn, nno, p, st, tol,
      [&](auto& out) { cpu::node_system(m, d, b, w, fixed, x, out); },
      [&](FieldStorage& out) { ops.node_system(dm, d_d, b, w_d, fixed_d, x_d, out); });
  expect_twins(
      label("node_system_diagonal"), nn, nno, p, st, tol,
      [&](auto& out) { cpu::node_system_diagonal(m, d, b, w, fixed, out); },
      [&](FieldStorage& out) { ops.node_system_diagonal(dm, d_d, b, w_d, fixed_d, out); });

  // No assembly kernel under the fragment driver (FragmentDriver::make_node_system).
  if (variant.compile_body == gl::compile_raster_body) return;
  // The assembled node system: the diagonal of node_system_assemble against its cpu twin, then
  // node_system_apply on the device's coefficients against its twin on the cpu's, and against
  // node_system itself (the same operator, summed in another order).
  const std::size_t rs = p == Precision::fp64 ? sizeof(double) : sizeof(float);
  std::vector<real> coef(static_cast<std::size_t>(cpu::node_system_entries(m))), diag(nno);
  cpu::node_system_assemble(m, d, b, w, fixed, coef, diag);
  Buffer coef_d(Operators::node_system_entries(dm) * rs), diag_d(nno * rs);
  ops.node_system_assemble(dm, d_d, b, w_d, fixed_d, coef_d, diag_d);
  {
    const std::vector<real> got = to_host(diag_d, p);
    real scale = 0, err = 0;
    for (std::size_t i = 0; i < nno; ++i) {
      scale = std::max(scale, std::abs(diag[i]));
      err = std::max(err, std::abs(got[i] - diag[i]));
    }
    report(label("node_system_assemble"), err / scale);
    EXPECT_LE(err / scale, tol) << label("node_system_assemble");
  }
  expect_twins(
      label("node_system_apply"), nn, nno, p, st, tol,
      [&](auto& out) { cpu::node_system_apply(m, coef, diag, x, out); },
      [&](FieldStorage& out) { ops.node_system_apply(dm, coef_d, diag_d, x_d, out); });
  expect_twins(
      label("node_system_apply vs node_system"), nn, nno, p, st, tol,
      [&](auto& out) { cpu::node_system(m, d, b, w, fixed, x, out); },
      [&](FieldStorage& out) { ops.node_system_apply(dm, coef_d, diag_d, x_d, out); });
}

// Rank `rank` of 3 slabs along x (by cell centroid): rank 1 has ghosts on both sides.
Mesh slab_rank(const Mesh& g, int rank) {
  real lo = g.cell_centroid[0].x, hi = lo;
  for (const Vec3& c : g.cell_centroid) {
    lo = std::min(lo, c.x);
    hi = std::max(hi, c.x);
  }
  std::vector<int> part(g.cell_centroid.size());
  for (std::size_t c = 0; c < part.size(); ++c)
    part[c] = std::min(2, static_cast<int>(3 * (g.cell_centroid[c].x - lo) / (hi - lo)));
  return partition::extract_local(g, part, rank);
}

// The rank that owns the cells with no boundary face: it owns no boundary face either (a face
// belongs to the lowest rank around it), so its boundary-value buffer is empty.
Mesh core_rank(const Mesh& g) {
  std::vector<int> part(static_cast<std::size_t>(g.n_cells), 1);
  for (index f = g.n_interior_faces; f < g.n_faces; ++f) part[g.face_cells[2 * f]] = 0;
  return partition::extract_local(g, part, 1);
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

class GlOperators : public ::testing::TestWithParam<Precision> {
 protected:
  void SetUp() override { gl_context(); }
};

TEST_P(GlOperators, MatchCpuTwinsOnSerialMeshes) {
  for (const Variant v : kVariants) {
    Operators ops(GetParam(), v.storage, v.compile_body);
    for (const std::string& name : mesh_names()) {
      const Mesh* m = find_mesh(name);
      if (m == nullptr) continue;  // a Gmsh file that is not committed
      check_all(*m, name, GetParam(), v, ops);
    }
  }
}

TEST_P(GlOperators, WriteOwnedOutputsOnlyOnRankMeshes) {
  for (const Variant v : kVariants) {
    Operators ops(GetParam(), v.storage, v.compile_body);
    for (const char* name :
         {"square_irregular", "cube_distorted", "gmsh_channel2d_cylinder", "gmsh_part"}) {
      const Mesh* g = find_mesh(name);
      if (g == nullptr) continue;
      for (int rank : {0, 1}) {
        const Mesh local = slab_rank(*g, rank);
        ASSERT_LT(local.n_owned_cells, local.n_cells) << name << ": rank mesh without ghosts";
        ASSERT_LT(local.n_owned_nodes, local.n_nodes);
        check_all(local, std::string(name) + " rank " + std::to_string(rank), GetParam(), v, ops);
      }
    }
    for (const char* name : {"square_irregular", "cube_structured"}) {
      const Mesh core = core_rank(*find_mesh(name));
      ASSERT_EQ(core.n_boundary_faces(), 0) << name;
      ASSERT_LT(core.n_owned_faces, core.n_faces) << name;
      check_all(core, std::string(name) + " core rank", GetParam(), v, ops);
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
        const DeviceMesh dm(m, Precision::fp64);
        const FieldStorage u =
            to_device(std::vector<real>(m.n_faces, 1.0), Precision::fp64, Storage::buffer);
        FieldStorage d =
            to_device(std::vector<real>(m.n_cells - 1, 0.0), Precision::fp64, Storage::buffer);
        ops.divergence(dm, u, d);
      },
      "divergence: d_cell");
}

// The traffic model knows the 11 operators and the vector operations, and only those.
TEST(GlOperatorsBytes, ModelCoversEveryOperator) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const Mesh& m = *find_mesh("cube_irregular");
  for (const char* op :
       {"gradient", "divergence", "flux_sum_abs", "curl", "rotation", "interpolate", "integrate",
        "convection", "node_laplacian", "node_system", "node_system_diagonal", "node_system_apply",
        "copy", "scale", "dot", "axpy", "xpay", "pcg_update"}) {
    const double b64 = backend::traffic_bytes(op, m, 1000, 8);
    const double b32 = backend::traffic_bytes(op, m, 1000, 4);
    EXPECT_GT(b32, 0) << op;
    EXPECT_GT(b64, b32) << op;  // the reals double, the indices do not
  }
  EXPECT_DEATH(backend::traffic_bytes("laplacian", m, 0, 8), "unknown operation");
}

}  // namespace
}  // namespace scfd::test
