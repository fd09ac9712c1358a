// Tests of the assembled node system (src/backend/cpu/node_system.cpp): node_system_apply after
// node_system_assemble is node_system (to round-off: the sums run in another order), its diagonal
// is node_system_diagonal bit for bit, Dirichlet rows are identity rows and Dirichlet columns are
// dropped, and the coefficients are symmetric (entry i -> j equals entry j -> i).
#include <algorithm>
#include <cmath>
#include <vector>

#include "backend/cpu/node_system.hpp"
#include "test_meshes.hpp"

namespace scfd::test {
namespace {

class NodeSystemAssembled : public MeshTest {};

TEST_P(NodeSystemAssembled, EqualsNodeSystemWithDirichletNodes) {
  const Mesh& m = mesh();
  const auto nn = static_cast<std::size_t>(m.n_nodes);
  const std::vector<real> x = random_field(nn, 51), w = random_field(m.n_edges, 52, 0.5, 1.5),
                          d = random_field(nn, 53, 0.5, 1.5);
  std::vector<real> fixed = random_field(nn, 54, 0, 1);
  for (real& f : fixed) f = f < 0.2 ? 1 : 0;
  const real b = 0.7;
  std::vector<real> coef(static_cast<std::size_t>(backend::cpu::node_system_entries(m))),
      diag(static_cast<std::size_t>(m.n_owned_nodes));
  backend::cpu::node_system_assemble(m, d, b, w, fixed, coef, diag);

  std::vector<real> want(nn), got(nn), want_diag(nn);
  backend::cpu::node_system(m, d, b, w, fixed, x, want);
  backend::cpu::node_system_apply(m, coef, diag, x, got);
  backend::cpu::node_system_diagonal(m, d, b, w, fixed, want_diag);
  real scale = 0, err = 0;
  for (std::size_t i = 0; i < diag.size(); ++i) {
    scale = std::max(scale, std::abs(want[i]));
    err = std::max(err, std::abs(got[i] - want[i]));
    EXPECT_EQ(diag[i], want_diag[i]) << label("diagonal") << " at node " << i;
  }
  report(label("node_system_apply vs node_system"), err / scale);
  EXPECT_LE(err, 1e-13 * scale) << label("node_system_apply");

  // Per entry: 0 in fixed rows and toward fixed neighbours, else -b w_e, the same both ways.
  const auto& ne = m.node_edges;
  for (index i = 0; i < m.n_owned_nodes; ++i) {
    for (index k = ne.offset[i]; k < ne.offset[i + 1]; ++k) {
      const index e = ne.item[k];
      const index j = m.edge_nodes[2 * e] == i ? m.edge_nodes[2 * e + 1] : m.edge_nodes[2 * e];
      const bool free = fixed[i] == 0 && fixed[j] == 0;
      EXPECT_EQ(coef[k], free ? -b * w[e] : 0) << label("coefficient") << " of " << i << "-" << j;
      if (j >= m.n_owned_nodes) continue;
      const auto back = std::find(ne.row(j).begin(), ne.row(j).end(), e) - ne.row(j).begin();
      EXPECT_EQ(coef[k], coef[ne.offset[j] + back]) << label("symmetry") << " of edge " << e;
    }
  }
}

SCFD_INSTANTIATE_MESH_TESTS(NodeSystemAssembled);

}  // namespace
}  // namespace scfd::test
