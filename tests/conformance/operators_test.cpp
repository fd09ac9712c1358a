// The mesh operators of every backend of the table (tests/conformance/variants.hpp) against the
// cpu entry's, docs/architecture.md §8.1: gradient, divergence, flux_sum_abs, curl, rotation,
// interpolate, integrate, convection (upwind 0, 1 and 0.5), node_laplacian, node_system,
// node_system_diagonal and the assembled node system (make_node_system, against the cpu's and
// against node_system itself), on the 2D and 3D test meshes (structured, jittered, distorted,
// sheared, committed Gmsh meshes) with random inputs, agree to 1e-12 (fp64) / 1e-5 (fp32)
// relative to the largest |output|. On rank meshes cut by partition::extract_local (owned
// entities first, ghosts last) only the owned outputs are written: the ghost entries keep a
// sentinel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "backend/rank_meshes.hpp"
#include "backend/test_meshes.hpp"
#include "conformance/variants.hpp"

namespace scfd::test {
namespace {

using backend::Backend;
using backend::Field;

// Written into every output before an operator runs; ghost outputs must still hold it after.
constexpr real kSentinel = 4096.5;

std::vector<real> flatten(const std::vector<Vec3>& v) {
  std::vector<real> out;
  for (const Vec3& x : v) out.insert(out.end(), {x.x, x.y, x.z});
  return out;
}

std::vector<real> to_host(const Backend& be, const Field& f) {
  std::vector<real> out(static_cast<std::size_t>(f.size()));
  be.download(f, out);
  return out;
}

// The inputs of one mesh on one backend.
struct Inputs {
  std::unique_ptr<Field> q, qb, u, s, x, w, d, v, fixed, vb;
  Inputs(const Backend& be, const std::vector<real>& q_, const std::vector<real>& qb_,
         const std::vector<real>& u_, const std::vector<real>& s_, const std::vector<real>& x_,
         const std::vector<real>& w_, const std::vector<real>& d_, const std::vector<real>& v_,
         const std::vector<real>& fixed_, const std::vector<real>& vb_)
      : q(be.make_field_from(q_)),
        qb(be.make_field_from(qb_)),
        u(be.make_field_from(u_)),
        s(be.make_field_from(s_)),
        x(be.make_field_from(x_)),
        w(be.make_field_from(w_)),
        d(be.make_field_from(d_)),
        v(be.make_field_from(v_)),
        fixed(be.make_field_from(fixed_)),
        vb(be.make_field_from(vb_)) {}
};

// An operator on one backend with its inputs, writing the output field it is given.
using Op = std::function<void(const Backend&, const Inputs&, Field&)>;

// Runs one operator on the reference and on the backend under test, each into an output of n_out
// values initialised to the sentinel. The first n_owned values must agree to tol relative to the
// largest |cpu value|; the rest must keep the sentinel.
void expect_twins(const std::string& what, std::size_t n_out, std::size_t n_owned, real tol,
                  const Backend& cpu, const Inputs& cpu_in, const Backend& be, const Inputs& in,
                  const Op& op) {
  const std::vector<real> sentinels(n_out, kSentinel);
  const auto want_f = cpu.make_field_from(sentinels), got_f = be.make_field_from(sentinels);
  op(cpu, cpu_in, *want_f);
  op(be, in, *got_f);
  const std::vector<real> want = to_host(cpu, *want_f), got = to_host(be, *got_f);
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

// Every operator on mesh m against the cpu's.
void check_all(const Mesh& m, const std::string& name, const BackendVariant& variant,
               const Backend& cpu, const Backend& be) {
  const real tol = variant.fp32() ? 1e-5 : 1e-12;
  const auto label = [&](const std::string& op) { return op + " " + variant.name + " on " + name; };
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
  // Convection: random fluxes enter and leave through every kind of face; u_boundary is read on
  // the inflow boundary faces only, u_cell on both sides of every interior face.
  const std::vector<Vec3> vb =
      random_vectors(static_cast<std::size_t>(m.n_boundary_faces()), m.dim, 10);
  const Inputs cpu_in(cpu, q, qb, u, s, x, w, d, flatten(v), fixed, flatten(vb));
  const Inputs in(be, q, qb, u, s, x, w, d, flatten(v), fixed, flatten(vb));
  const real b = 0.7;
  const auto twins = [&](const std::string& op, std::size_t n_out, std::size_t n_owned,
                         const Op& f) {
    expect_twins(label(op), n_out, n_owned, tol, cpu, cpu_in, be, in, f);
  };

  twins("gradient", nf, nfo,
        [&](const Backend& e, const Inputs& i, Field& out) { e.gradient(m, *i.q, *i.qb, out); });
  twins("divergence", nc, nco,
        [&](const Backend& e, const Inputs& i, Field& out) { e.divergence(m, *i.u, out); });
  twins("flux_sum_abs", nc, nco,
        [&](const Backend& e, const Inputs& i, Field& out) { e.flux_sum_abs(m, *i.u, out); });
  twins("curl", nf, nfo,
        [&](const Backend& e, const Inputs& i, Field& out) { e.curl(m, *i.s, out); });
  twins("rotation", nk, nko,
        [&](const Backend& e, const Inputs& i, Field& out) { e.rotation(m, *i.u, out); });
  twins("interpolate", 3 * nc, 3 * nco,
        [&](const Backend& e, const Inputs& i, Field& out) { e.interpolate(m, *i.u, out); });
  twins("integrate", nf, nfo,
        [&](const Backend& e, const Inputs& i, Field& out) { e.integrate(m, *i.v, out); });
  for (const real upwind : {0.0, 1.0, 0.5})
    twins("convection upwind " + std::to_string(upwind), 3 * nc, 3 * nco,
          [&](const Backend& e, const Inputs& i, Field& out) {
            e.convection(m, *i.u, *i.v, *i.vb, upwind, out);
          });
  twins("node_laplacian", nn, nno, [&](const Backend& e, const Inputs& i, Field& out) {
    e.node_laplacian(m, *i.w, *i.x, out);
  });
  twins("node_system", nn, nno, [&](const Backend& e, const Inputs& i, Field& out) {
    e.node_system(m, *i.d, b, *i.w, *i.fixed, *i.x, out);
  });
  twins("node_system_diagonal", nn, nno, [&](const Backend& e, const Inputs& i, Field& out) {
    e.node_system_diagonal(m, *i.d, b, *i.w, *i.fixed, out);
  });

  // The assembled node system (make_node_system: assembled on the device under gl-compute,
  // matrix-free under gl-raster) against the cpu's assembled one, and against node_system itself
  // on the cpu (the same operator, summed in another order).
  const auto cpu_system = cpu.make_node_system(m, *cpu_in.d, b, *cpu_in.w, *cpu_in.fixed);
  const auto system = be.make_node_system(m, *in.d, b, *in.w, *in.fixed);
  const auto apply = [&](const Backend& e, const Inputs& i, Field& out) {
    (&e == &cpu ? *cpu_system : *system).apply(*i.x, out);
  };
  twins("node_system_apply", nn, nno, apply);
  expect_twins(label("node_system_apply vs node_system"), nn, nno, tol, cpu, cpu_in, be, in,
               [&](const Backend& e, const Inputs& i, Field& out) {
                 if (&e == &cpu)
                   e.node_system(m, *i.d, b, *i.w, *i.fixed, *i.x, out);
                 else
                   apply(e, i, out);
               });
}

class MeshOperators : public ::testing::TestWithParam<BackendVariant> {
 protected:
  void SetUp() override { be = GetParam().make(); }
  const std::unique_ptr<Backend> cpu = make_reference();
  std::unique_ptr<Backend> be;  // the variant under test
};

TEST_P(MeshOperators, MatchCpuOnSerialMeshes) {
  for (const std::string& name : mesh_names()) {
    const Mesh* m = find_mesh(name);
    if (m == nullptr) continue;  // a Gmsh file that is not committed
    check_all(*m, name, GetParam(), *cpu, *be);
  }
}

// The rank meshes live as long as the backends: a backend keeps what it derived from a mesh (its
// device copy) by the mesh's address, so a mesh must not be freed while a backend still holds it.
TEST_P(MeshOperators, WriteOwnedOutputsOnlyOnRankMeshes) {
  std::vector<std::unique_ptr<const Mesh>> meshes;
  for (const char* name :
       {"square_irregular", "cube_distorted", "gmsh_channel2d_cylinder", "gmsh_part"}) {
    const Mesh* g = find_mesh(name);
    if (g == nullptr) continue;
    for (int rank : {0, 1}) {
      const Mesh& local = *meshes.emplace_back(std::make_unique<const Mesh>(slab_rank(*g, rank)));
      ASSERT_LT(local.n_owned_cells, local.n_cells) << name << ": rank mesh without ghosts";
      ASSERT_LT(local.n_owned_nodes, local.n_nodes);
      check_all(local, std::string(name) + " rank " + std::to_string(rank), GetParam(), *cpu, *be);
    }
  }
  for (const char* name : {"square_irregular", "cube_structured"}) {
    const Mesh& core =
        *meshes.emplace_back(std::make_unique<const Mesh>(core_rank(*find_mesh(name))));
    ASSERT_EQ(core.n_boundary_faces(), 0) << name;
    ASSERT_LT(core.n_owned_faces, core.n_faces) << name;
    check_all(core, std::string(name) + " core rank", GetParam(), *cpu, *be);
  }
}

INSTANTIATE_TEST_SUITE_P(conformance, MeshOperators, ::testing::ValuesIn(backend_variants()),
                         VariantName());

}  // namespace
}  // namespace scfd::test
