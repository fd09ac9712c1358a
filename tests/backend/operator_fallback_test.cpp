// Backend's default operators (products with the mesh's operator matrices,
// backend/operator_matrices.hpp) against the cpu kernels they stand in for, on every test mesh:
// G, D, C and R give the kernels' bits (the same terms in the same order), and so does
// flux_sum_abs's host default; interpolation and
// integration agree to round-off (the kernels divide by the volume after the sum and add whole
// dot products). A backend that brings no kernel of its own computes what the cpu backend does.
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "test_meshes.hpp"

namespace scfd::test {
namespace {

using backend::Field;
using backend::Rows;

// The cpu backend with its operator kernels replaced by Backend's defaults.
class Fallback final : public backend::cpu::CpuBackend {
 public:
  void gradient(const Mesh& m, const Field& q, const Field& qb, Field& g,
                Rows rows) const override {
    backend::Backend::gradient(m, q, qb, g, rows);
  }
  void divergence(const Mesh& m, const Field& u, Field& d, Rows rows) const override {
    backend::Backend::divergence(m, u, d, rows);
  }
  void flux_sum_abs(const Mesh& m, const Field& u, Field& s) const override {
    backend::Backend::flux_sum_abs(m, u, s);
  }
  void curl(const Mesh& m, const Field& s, Field& u, Rows rows) const override {
    backend::Backend::curl(m, s, u, rows);
  }
  void rotation(const Mesh& m, const Field& u, Field& r, Rows rows) const override {
    backend::Backend::rotation(m, u, r, rows);
  }
  void interpolate(const Mesh& m, const Field& u, Field& v, Rows rows) const override {
    backend::Backend::interpolate(m, u, v, rows);
  }
  void integrate(const Mesh& m, const Field& v, Field& u, Rows rows) const override {
    backend::Backend::integrate(m, v, u, rows);
  }
  std::unique_ptr<backend::NodeSystem> make_node_system(const Mesh& m, const Field& d, real b,
                                                        const Field& w,
                                                        const Field& fixed) const override {
    return backend::Backend::make_node_system(m, d, b, w, fixed);
  }
  void node_system(const Mesh& m, const Field& d, real b, const Field& w, const Field& fixed,
                   const Field& x, Field& y) const override {
    backend::Backend::node_system(m, d, b, w, fixed, x, y);
  }
  void node_system_diagonal(const Mesh& m, const Field& d, real b, const Field& w,
                            const Field& fixed, Field& diag) const override {
    backend::Backend::node_system_diagonal(m, d, b, w, fixed, diag);
  }
  void node_laplacian(const Mesh& m, const Field& w, const Field& x, Field& y) const override {
    backend::Backend::node_laplacian(m, w, x, y);
  }
  void pcg_update(int k, backend::Scalars& s, const Field& p, const Field& q, const Field& dinv,
                  Field& x, Field& r, Field& z, index n) const override {
    backend::Backend::pcg_update(k, s, p, q, dinv, x, r, z, n);
  }
};

// PCG's fused update (cpu kernel) and its default (core operations with the scalars in slots):
// the same bits on the owned entries and in every slot but the default's work slot, for a sound
// iteration and for a breakdown (p·q < 0), from a consistent state (z = dinv .* r, r·z and r·r
// in their slots: after a breakdown the default recomputes z, r·z and r·r from the unchanged r,
// where the kernel keeps them).
TEST(KrylovFallback, PcgUpdateGivesTheKernelsBits) {
  using S = backend::PcgSlots;
  const backend::cpu::CpuBackend kernels;
  const Fallback fallback;
  constexpr index kSize = 1000, kOwned = 900;
  constexpr int kIteration = 3;
  for (const real pq : {0.7, -0.7}) {
    std::vector<real> results[2], scalars[2];
    int b = 0;
    for (const backend::Backend* be : {static_cast<const backend::Backend*>(&kernels),
                                       static_cast<const backend::Backend*>(&fallback)}) {
      std::vector<std::unique_ptr<Field>> f;  // p, q, dinv, x, r, z
      for (std::uint64_t k = 0; k < 6; ++k) {
        std::vector<real> v = random_field(kSize, k);
        if (k == 2)
          for (real& d : v) d = std::abs(d) + 0.5;  // dinv > 0
        f.push_back(be->make_field_from(v));
      }
      be->multiply(*f[2], *f[4], *f[5]);
      auto s = be->make_scalars(S::count);
      std::vector<real> slots(S::count, 0);
      slots[S::pq] = pq;
      slots[S::rz_before(kIteration)] = be->dot(*f[4], *f[5], kOwned);
      slots[S::rr] = be->dot(*f[4], *f[4], kOwned);
      be->write_scalars(slots, *s);
      be->pcg_update(kIteration, *s, *f[0], *f[1], *f[2], *f[3], *f[4], *f[5], kOwned);
      for (int k = 3; k < 6; ++k) {
        std::vector<real> v(kSize);
        be->download(*f[k], v);
        results[b].insert(results[b].end(), v.begin(), v.begin() + kOwned);
      }
      scalars[b].resize(S::count);
      be->read_scalars(*s, scalars[b]);
      scalars[b][S::work] = 0;
      ++b;
    }
    EXPECT_EQ(results[0], results[1]) << "pq = " << pq;
    EXPECT_EQ(scalars[0], scalars[1]) << "pq = " << pq;
    EXPECT_EQ(scalars[1][S::breakdown], pq > 0 ? 0 : kIteration + 1) << "pq = " << pq;
  }
}

class OperatorFallback : public MeshTest {
 protected:
  // The operator `apply` on the kernel backend and on the fallback, from the same random
  // inputs of the given sizes; returns both outputs.
  template <typename Apply>
  std::pair<std::vector<real>, std::vector<real>> both(std::vector<index> inputs, index output,
                                                       Apply apply) {
    std::vector<real> results[2];
    const backend::cpu::CpuBackend kernels;
    const Fallback fallback;
    const backend::Backend* backends[2] = {&kernels, &fallback};
    for (int b = 0; b < 2; ++b) {
      std::vector<std::unique_ptr<Field>> in;
      for (std::size_t k = 0; k < inputs.size(); ++k)
        in.push_back(backends[b]->make_field_from(random_field(inputs[k], 17 + k)));
      auto out = backends[b]->make_field_from(random_field(output, 99));  // not zeros
      // Inner rows, then the interface: every owned output once, as the halo overlap asks.
      apply(*backends[b], in, *out, Rows::inner);
      apply(*backends[b], in, *out, Rows::interface);
      results[b].resize(output);
      backends[b]->download(*out, results[b]);
    }
    return {results[0], results[1]};
  }
};

void expect_bits(const std::pair<std::vector<real>, std::vector<real>>& r,
                 const std::string& what) {
  ASSERT_EQ(r.first.size(), r.second.size());
  for (std::size_t i = 0; i < r.first.size(); ++i)
    ASSERT_EQ(std::bit_cast<std::uint64_t>(r.first[i]), std::bit_cast<std::uint64_t>(r.second[i]))
        << what << " differs at " << i << ": " << r.first[i] << " vs " << r.second[i];
}

void expect_close(const std::pair<std::vector<real>, std::vector<real>>& r,
                  const std::string& what) {
  const real scale = std::max(max_abs(r.first), real(1e-300));
  real err = 0;
  for (std::size_t i = 0; i < r.first.size(); ++i)
    err = std::max(err, std::abs(r.first[i] - r.second[i]) / scale);
  report(what, err);
  EXPECT_LT(err, kRoundOff) << what;
}

TEST_P(OperatorFallback, GradientDivergenceFluxSumCurlRotationGiveTheKernelsBits) {
  const Mesh& m = mesh();
  expect_bits(both({m.n_cells, m.n_boundary_faces()}, m.n_faces,
                   [&m](const auto& be, const auto& in, Field& out, Rows rows) {
                     be.gradient(m, *in[0], *in[1], out, rows);
                   }),
              label("gradient"));
  expect_bits(both({m.n_faces}, m.n_cells,
                   [&m](const auto& be, const auto& in, Field& out, Rows rows) {
                     be.divergence(m, *in[0], out, rows);
                   }),
              label("divergence"));
  expect_bits(both({m.n_faces}, m.n_cells,
                   [&m](const auto& be, const auto& in, Field& out, Rows) {
                     be.flux_sum_abs(m, *in[0], out);  // every owned cell (no rows)
                   }),
              label("flux_sum_abs"));
  expect_bits(both({m.n_curl()}, m.n_faces,
                   [&m](const auto& be, const auto& in, Field& out, Rows rows) {
                     be.curl(m, *in[0], out, rows);
                   }),
              label("curl"));
  expect_bits(both({m.n_faces}, m.n_curl(),
                   [&m](const auto& be, const auto& in, Field& out, Rows rows) {
                     be.rotation(m, *in[0], out, rows);
                   }),
              label("rotation"));
}

TEST_P(OperatorFallback, InterpolationAndIntegrationAgreeToRoundOff) {
  const Mesh& m = mesh();
  expect_close(both({m.n_faces}, 3 * m.n_cells,
                    [&m](const auto& be, const auto& in, Field& out, Rows rows) {
                      be.interpolate(m, *in[0], out, rows);
                    }),
               label("interpolate"));
  expect_close(both({3 * m.n_cells}, m.n_faces,
                    [&m](const auto& be, const auto& in, Field& out, Rows rows) {
                      be.integrate(m, *in[0], out, rows);
                    }),
               label("integrate"));
}

// The node systems assembled (the defaults) against the cpu kernels: round-off, with a random
// diagonal, weights and about a third of the nodes fixed (the kernels add b sum w_e, the matrix
// b w_e one edge at a time).
TEST_P(OperatorFallback, NodeSystemsAgreeToRoundOff) {
  const Mesh& m = mesh();
  std::vector<real> fixed = random_field(m.n_nodes, 5);
  for (real& f : fixed) f = f > 0.35 ? 1 : 0;
  const auto make = [&](const backend::Backend& be, int k) {
    switch (k) {
      case 0:
        return be.make_field_from(random_field(m.n_nodes, 1, 0.5, 1.5));  // d
      case 1:
        return be.make_field_from(random_field(m.n_edges, 2, 0.1, 1));  // w
      case 2:
        return be.make_field_from(fixed);
      default:
        return be.make_field_from(random_field(m.n_nodes, 3));  // x
    }
  };
  const auto node = [&](auto apply) {
    return both({}, m.n_nodes, [&](const auto& be, const auto&, Field& out, Rows rows) {
      if (rows == Rows::interface) return;  // each call below computes every owned row
      const auto d = make(be, 0), w = make(be, 1), f = make(be, 2), x = make(be, 3);
      apply(be, *d, *w, *f, *x, out);
    });
  };
  expect_close(node([&](const auto& be, const Field& d, const Field& w, const Field& f,
                        const Field& x, Field& y) { be.node_system(m, d, 0.7, w, f, x, y); }),
               label("node_system"));
  expect_close(node([&](const auto& be, const Field& d, const Field& w, const Field& f,
                        const Field& x, Field& y) {
                 auto a = be.make_node_system(m, d, 0.7, w, f);
                 a->apply(x, y, Rows::inner);
                 a->apply(x, y, Rows::interface);
               }),
               label("make_node_system"));
  expect_close(node([&](const auto& be, const Field&, const Field& w, const Field&, const Field& x,
                        Field& y) { be.node_laplacian(m, w, x, y); }),
               label("node_laplacian"));
  expect_close(node([&](const auto& be, const Field& d, const Field& w, const Field& f,
                        const Field&, Field& y) { be.node_system_diagonal(m, d, 0.7, w, f, y); }),
               label("node_system_diagonal"));
}

SCFD_INSTANTIATE_MESH_TESTS(OperatorFallback);

}  // namespace
}  // namespace scfd::test
