// Tests of C (src/backend/cpu/curl.cpp): D C = 0 for any streamfunction s (each edge of a cell
// is shared by two of its faces with opposite circulation), the reason the exact fractional step
// keeps D U at round-off (Chang, Giraldo & Perot, J. Comput. Phys. 180 (2002) 183-199).
#include <cmath>
#include <vector>

#include "backend/cpu/operators.hpp"
#include "test_meshes.hpp"

namespace scfd::test {
namespace {

class Curl : public MeshTest {};

TEST_P(Curl, DivergenceOfCurlIsZero) {
  const Mesh& m = mesh();
  for (std::uint64_t seed : {1, 2, 3}) {
    const std::vector<real> s = random_field(m.n_curl(), seed);
    std::vector<real> u(m.n_faces), d(m.n_cells);
    backend::cpu::curl(m, s, u);
    backend::cpu::divergence(m, u, d);
    const real err = max_abs(d) / max_abs(s);
    if (seed == 1) report(label("D C s = 0"), err);
    EXPECT_LE(err, kRoundOff) << "seed " << seed;
  }
}

TEST_P(Curl, CurlOfConstantIsZero) {
  // 2D: s constant on nodes gives zero flux (C has the constants as its null space). In 3D the
  // null space is the gradients of node fields (edge differences), tested the same way.
  const Mesh& m = mesh();
  std::vector<real> s(m.n_curl(), 0.75);
  if (m.dim == 3) {
    const std::vector<real> phi = random_field(m.n_nodes, 5);
    for (index e = 0; e < m.n_edges; ++e)
      s[e] = phi[m.edge_nodes[2 * e + 1]] - phi[m.edge_nodes[2 * e]];
  }
  std::vector<real> u(m.n_faces);
  backend::cpu::curl(m, s, u);
  const real err = max_abs(u) / max_abs(s);
  report(label("C (null space) = 0"), err);
  EXPECT_LE(err, kRoundOff);
}

SCFD_INSTANTIATE_MESH_TESTS(Curl);

}  // namespace
}  // namespace scfd::test
