// Tests of the node Laplacian (src/backend/cpu/node_laplacian.cpp): K is symmetric, K 1 = 0,
// positive semi-definite, zero on linear fields at interior nodes, its diagonal is
// node_laplacian_diagonal, and it equals the P1 stiffness matrix
//   K_ij = sum_c k_c V_c grad(phi_i)·grad(phi_j)
// assembled here independently, cell by cell, with grad(phi_k) = n / ((x_k - x_a)·n), n a normal
// of the face opposite node k (Perot & Subramanian, J. Comput. Phys. 224 (2007) 59-81).
#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include "backend/cpu/operators.hpp"
#include "test_meshes.hpp"
#include "topology/p1.hpp"

namespace scfd::test {
namespace {

using Sparse = std::map<std::pair<index, index>, real>;

// Gradients of the hat functions of cell c and its volume, by the height formula.
real hat_gradients(const Mesh& m, index c, Vec3 g[4]) {
  const int w = m.cell_width();
  Vec3 x[4];
  for (int k = 0; k < w; ++k) x[k] = m.node_x[m.cell_nodes[c * w + k]];
  for (int k = 0; k < w; ++k) {
    const Vec3 xa = x[(k + 1) % w], xb = x[(k + 2) % w];
    Vec3 n;
    if (m.dim == 2) {
      n = {xb.y - xa.y, xa.x - xb.x, 0};
    } else {
      n = cross(xb - xa, x[(k + 3) % w] - xa);
    }
    g[k] = n / dot(x[k] - xa, n);
  }
  const Vec3 e1 = x[1] - x[0], e2 = x[2] - x[0];
  return m.dim == 2 ? std::abs(cross(e1, e2).z) / 2 : std::abs(dot(e1, cross(e2, x[3] - x[0]))) / 6;
}

Sparse assemble_p1(const Mesh& m, std::span<const real> k) {
  Sparse a;
  const int w = m.cell_width();
  for (index c = 0; c < m.n_cells; ++c) {
    Vec3 g[4];
    const real v = hat_gradients(m, c, g);
    for (int i = 0; i < w; ++i)
      for (int j = 0; j < w; ++j)
        a[{m.cell_nodes[c * w + i], m.cell_nodes[c * w + j]}] += k[c] * v * dot(g[i], g[j]);
  }
  return a;
}

// sum_c k_c V_c |grad t_h|^2: the energy <K t, t> of the P1 interpolant of t.
real energy(const Mesh& m, std::span<const real> k, std::span<const real> t) {
  real e = 0;
  for (index c = 0; c < m.n_cells; ++c) {
    Vec3 g[4], grad{};
    const real v = hat_gradients(m, c, g);
    for (int i = 0; i < m.cell_width(); ++i) grad += t[m.cell_nodes[c * m.cell_width() + i]] * g[i];
    e += k[c] * v * dot(grad, grad);
  }
  return e;
}

class NodeLaplacian : public MeshTest {
 protected:
  std::vector<real> apply(std::span<const real> w, std::span<const real> t) const {
    std::vector<real> out(mesh().n_nodes);
    backend::cpu::node_laplacian(mesh(), w, t, out);
    return out;
  }
  // Largest relative difference between the edge weights and -K_ij, the diagonal and K_ii,
  // relative to the larger diagonal entry of the row(s); also checks K has no other entries.
  real compare_with_p1(std::span<const real> w, std::span<const real> k) const {
    const Mesh& m = mesh();
    const Sparse a = assemble_p1(m, k);
    std::vector<real> diag(m.n_nodes);
    backend::cpu::node_laplacian_diagonal(m, w, diag);
    EXPECT_EQ(a.size(), static_cast<std::size_t>(m.n_nodes + 2 * m.n_edges));
    real err = 0;
    for (index i = 0; i < m.n_nodes; ++i)
      err = std::max(err, std::abs(diag[i] - a.at({i, i})) / a.at({i, i}));
    for (index e = 0; e < m.n_edges; ++e) {
      const index i = m.edge_nodes[2 * e], j = m.edge_nodes[2 * e + 1];
      const real scale = std::max(a.at({i, i}), a.at({j, j}));
      err = std::max(err, std::abs(w[e] + a.at({i, j})) / scale);
      err = std::max(err, std::abs(a.at({i, j}) - a.at({j, i})) / scale);
    }
    return err;
  }
};

TEST_P(NodeLaplacian, IsSymmetricPositiveSemiDefiniteWithConstantNullSpace) {
  const Mesh& m = mesh();
  const std::vector<real>& w = m.edge_stiffness;
  const std::vector<real> a = random_field(m.n_nodes, 41), b = random_field(m.n_nodes, 42);
  const std::vector<real> ka = apply(w, a), kb = apply(w, b);
  real scale = 0, row_scale = 0;
  for (index e = 0; e < m.n_edges; ++e) {
    const index i = m.edge_nodes[2 * e], j = m.edge_nodes[2 * e + 1];
    scale += std::abs(w[e]) * (std::abs(a[i]) + std::abs(a[j])) * (std::abs(b[i]) + std::abs(b[j]));
    row_scale = std::max(row_scale, std::abs(w[e]));
  }
  const real sym = std::abs(inner(ka, b) - inner(a, kb)) / scale;
  report(label("<K a, b> = <a, K b>"), sym);
  EXPECT_LE(sym, kRoundOff);
  const real k1 = max_abs(apply(w, std::vector<real>(m.n_nodes, 2.5))) / (2.5 * row_scale);
  EXPECT_LE(k1, kRoundOff);
  // <K a, a> is the P1 energy of a, >= 0 even where some edge weights are negative.
  const std::vector<real> ones(m.n_cells, 1.0);
  const real e = energy(m, ones, a);
  const real kaa = inner(ka, a);
  report(label("<K a, a> = energy"), std::abs(kaa - e) / e);
  EXPECT_GE(kaa, 0);
  EXPECT_LE(std::abs(kaa - e), 1e-11 * e);
}

TEST_P(NodeLaplacian, LinearFieldIsHarmonicAtInteriorNodes) {
  const Mesh& m = mesh();
  const Vec3 g = m.dim == 3 ? Vec3{0.4, -0.9, 1.3} : Vec3{0.4, -0.9, 0};
  std::vector<real> t(m.n_nodes);
  for (index i = 0; i < m.n_nodes; ++i) t[i] = dot(g, m.node_x[i]) + 3.0;
  const std::vector<real> kt = apply(m.edge_stiffness, t);
  std::vector<real> scale(m.n_nodes, 0.0);
  for (index e = 0; e < m.n_edges; ++e) {
    const index i = m.edge_nodes[2 * e], j = m.edge_nodes[2 * e + 1];
    const real s = std::abs(m.edge_stiffness[e] * (t[i] - t[j]));
    scale[i] += s;
    scale[j] += s;
  }
  const std::vector<bool> interior = interior_nodes(m);
  real err = 0;
  for (index i = 0; i < m.n_nodes; ++i)
    if (interior[i]) err = std::max(err, std::abs(kt[i]) / scale[i]);
  report(label("K (g·x) = 0 at interior nodes"), err);
  EXPECT_LE(err, kRoundOff);
}

TEST_P(NodeLaplacian, EqualsP1StiffnessMatrix) {
  const Mesh& m = mesh();
  const real err_mesh = compare_with_p1(m.edge_stiffness, std::vector<real>(m.n_cells, 1.0));
  report(label("mesh.edge_stiffness = P1 (k = 1)"), err_mesh);
  EXPECT_LE(err_mesh, kRoundOff);
  std::vector<real> w(m.n_edges);
  topology::edge_weights(m, std::vector<real>(m.n_cells, 1.0), w);
  real err_k1 = 0;
  for (index e = 0; e < m.n_edges; ++e)
    err_k1 = std::max(err_k1, std::abs(w[e] - m.edge_stiffness[e]));
  err_k1 /= max_abs(m.edge_stiffness);
  report(label("edge_weights(1) = edge_stiffness"), err_k1);
  EXPECT_LE(err_k1, kRoundOff);
}

TEST_P(NodeLaplacian, CellConductivityMatchesP1Assembly) {
  const Mesh& m = mesh();
  // Piecewise constant: 1 on one side of the domain, 50 on the other; then random in [0.1, 10).
  std::vector<real> k(m.n_cells);
  real lo = m.node_x[0].x, hi = lo;
  for (const Vec3& x : m.node_x) lo = std::min(lo, x.x), hi = std::max(hi, x.x);
  const real mid = 0.5 * (lo + hi);
  for (index c = 0; c < m.n_cells; ++c) k[c] = m.cell_centroid[c].x < mid ? 1.0 : 50.0;
  for (const std::vector<real>& kc : {k, random_field(m.n_cells, 43, 0.1, 10)}) {
    std::vector<real> w(m.n_edges);
    topology::edge_weights(m, kc, w);
    const real err = compare_with_p1(w, kc);
    report(label("edge_weights(k) = P1(k)"), err);
    EXPECT_LE(err, kRoundOff);
    const std::vector<real> a = random_field(m.n_nodes, 44);
    const real e = energy(m, kc, a), kaa = inner(apply(w, a), a);
    EXPECT_GE(kaa, 0);
    EXPECT_LE(std::abs(kaa - e), 1e-11 * e);
  }
}

SCFD_INSTANTIATE_MESH_TESTS(NodeLaplacian);

}  // namespace
}  // namespace scfd::test
