// "Operator results at np = 2, 3, 4 equal the serial ones on owned entities": each cpu operator
// (backend/cpu/operators.hpp) applied to a rank's mesh, with every local input (owned and ghost)
// taken from one global random field through the gids, gives on the owned outputs the global
// result at the same gids (to 1e-13 relative; the gathers read the same values in the same order,
// so the match is in fact exact). This is what the complete owned stencils buy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "backend/cpu/operators.hpp"
#include "partition/extract.hpp"
#include "partition/fixtures.hpp"
#include "topology/p1.hpp"

namespace scfd::partition::testing {
namespace {

namespace cpu = backend::cpu;

std::vector<real> random_field(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<real> u(-1, 1);
  std::vector<real> v(n);
  for (real& x : v) x = u(rng);
  return v;
}

template <typename T>
std::vector<T> by_gid(const std::vector<T>& global, const std::vector<index>& gid) {
  std::vector<T> out;
  out.reserve(gid.size());
  for (index g : gid) out.push_back(global[static_cast<std::size_t>(g)]);
  return out;
}

// Largest |local[i] - global[gid[i]]| over the owned outputs, relative to max |global|.
real owned_error(const std::vector<real>& local, const std::vector<real>& global,
                 const std::vector<index>& gid, index n_owned) {
  real scale = 0, err = 0;
  for (real x : global) scale = std::max(scale, std::abs(x));
  for (index i = 0; i < n_owned; ++i)
    err =
        std::max(err, std::abs(local[static_cast<std::size_t>(i)] -
                               global[static_cast<std::size_t>(gid[static_cast<std::size_t>(i)])]));
  return scale > 0 ? err / scale : err;
}

std::vector<real> components(const std::vector<Vec3>& v) {
  std::vector<real> out;
  for (const Vec3& x : v) out.insert(out.end(), {x.x, x.y, x.z});
  return out;
}

// Vec3 outputs compared component by component.
real owned_error(const std::vector<Vec3>& local, const std::vector<Vec3>& global,
                 const std::vector<index>& gid, index n_owned) {
  std::vector<index> gid3;
  for (index g : gid)
    for (index k = 0; k < 3; ++k) gid3.push_back(3 * g + k);
  return owned_error(components(local), components(global), gid3, 3 * n_owned);
}

constexpr real kTol = 1e-13;

class PartitionOperators : public ::testing::TestWithParam<MeshParts> {};

TEST_P(PartitionOperators, OwnedResultsEqualSerial) {
  const auto& [name, np] = GetParam();
  const Mesh& G = test_mesh(name);
  const std::size_t nc = static_cast<std::size_t>(G.n_cells),
                    nf = static_cast<std::size_t>(G.n_faces);
  const std::vector<real> q = random_field(nc, 1), qb = random_field(nf, 2),
                          u = random_field(nf, 3);
  const std::vector<real> s = random_field(static_cast<std::size_t>(G.n_curl()), 4);
  const std::vector<real> t = random_field(static_cast<std::size_t>(G.n_nodes), 5);
  std::vector<real> k_cell = random_field(nc, 6);
  for (real& k : k_cell) k += 2;
  std::vector<Vec3> v(nc);
  for (std::size_t c = 0; c < nc; ++c) v[c] = {q[c], u[c], G.dim == 3 ? qb[c] : 0};
  const std::vector<real> q_boundary(qb.begin() + G.n_interior_faces, qb.end());

  std::vector<real> g_G(nf), d_G(nc), c_G(nf), r_G(s.size()), l_G(t.size()), ig_G(nf),
      w_G(G.n_edges);
  std::vector<Vec3> ip_G(nc);
  cpu::gradient(G, q, q_boundary, g_G);
  cpu::divergence(G, u, d_G);
  cpu::curl(G, s, c_G);
  cpu::rotation(G, u, r_G);
  cpu::node_laplacian(G, G.edge_stiffness, t, l_G);
  cpu::interpolate(G, u, ip_G);
  cpu::integrate(G, v, ig_G);
  topology::edge_weights(G, k_cell, w_G);

  for (int rank = 0; rank < np; ++rank) {
    SCOPED_TRACE("rank " + std::to_string(rank));
    const Mesh m = extract_local(G, test_parts(name, np), rank);
    const std::vector<index>& curl_gid = m.dim == 3 ? m.edge_gid : m.node_gid;
    std::vector<real> qb_local;
    for (index f = m.n_interior_faces; f < m.n_owned_faces; ++f)
      qb_local.push_back(qb[static_cast<std::size_t>(m.face_gid[static_cast<std::size_t>(f)])]);
    const std::size_t lc = static_cast<std::size_t>(m.n_cells),
                      lf = static_cast<std::size_t>(m.n_faces);
    std::vector<real> g_L(lf), d_L(lc), c_L(lf), r_L(curl_gid.size()), l_L(m.node_gid.size());
    std::vector<real> ig_L(lf), w_L(m.edge_gid.size());
    std::vector<Vec3> ip_L(lc);
    cpu::gradient(m, by_gid(q, m.cell_gid), qb_local, g_L);
    cpu::divergence(m, by_gid(u, m.face_gid), d_L);
    cpu::curl(m, by_gid(s, curl_gid), c_L);
    cpu::rotation(m, by_gid(u, m.face_gid), r_L);
    cpu::node_laplacian(m, m.edge_stiffness, by_gid(t, m.node_gid), l_L);
    cpu::interpolate(m, by_gid(u, m.face_gid), ip_L);
    cpu::integrate(m, by_gid(v, m.cell_gid), ig_L);
    topology::edge_weights(m, by_gid(k_cell, m.cell_gid), w_L);
    EXPECT_LE(owned_error(g_L, g_G, m.face_gid, m.n_owned_faces), kTol) << "gradient";
    EXPECT_LE(owned_error(d_L, d_G, m.cell_gid, m.n_owned_cells), kTol) << "divergence";
    EXPECT_LE(owned_error(c_L, c_G, m.face_gid, m.n_owned_faces), kTol) << "curl";
    EXPECT_LE(owned_error(r_L, r_G, curl_gid, m.n_owned_curl()), kTol) << "rotation";
    EXPECT_LE(owned_error(l_L, l_G, m.node_gid, m.n_owned_nodes), kTol) << "node_laplacian";
    EXPECT_LE(owned_error(ip_L, ip_G, m.cell_gid, m.n_owned_cells), kTol) << "interpolate";
    EXPECT_LE(owned_error(ig_L, ig_G, m.face_gid, m.n_owned_faces), kTol) << "integrate";
    EXPECT_LE(owned_error(w_L, w_G, m.edge_gid, m.n_owned_edges), kTol) << "edge weights";
  }
}

SCFD_INSTANTIATE_PARTITION_TESTS(PartitionOperators);

}  // namespace
}  // namespace scfd::partition::testing
