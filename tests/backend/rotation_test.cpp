// Tests of R (src/backend/cpu/rotation.cpp): R = C^T (<R U, s> = <U, C s> for random U, s) and
// R G = 0 for any cell field q with one constant boundary value on every boundary face: around
// each curl entity the gradients telescope over a closed loop of cells, the exterior acting as
// one extra cell (Chang, Giraldo & Perot, J. Comput. Phys. 180 (2002) 183-199).
#include <cmath>
#include <vector>

#include "backend/cpu/operators.hpp"
#include "test_meshes.hpp"

namespace scfd::test {
namespace {

class Rotation : public MeshTest {};

TEST_P(Rotation, IsCurlTranspose) {
  const Mesh& m = mesh();
  const std::vector<real> u = random_field(m.n_faces, 21);
  const std::vector<real> s = random_field(m.n_curl(), 22);
  std::vector<real> ru(m.n_curl()), cs(m.n_faces);
  backend::cpu::rotation(m, u, ru);
  backend::cpu::curl(m, s, cs);
  real scale = 0;
  for (index k = 0; k < m.n_curl(); ++k) scale += std::abs(ru[k] * s[k]);
  const real err = std::abs(inner(ru, s) - inner(u, cs)) / scale;
  report(label("<R U, s> = <U, C s>"), err);
  EXPECT_LE(err, kRoundOff);
}

TEST_P(Rotation, RotationOfGradientIsZero) {
  const Mesh& m = mesh();
  for (std::uint64_t seed : {1, 2, 3}) {
    const std::vector<real> q = random_field(m.n_cells, seed);
    const std::vector<real> qb(m.n_boundary_faces(), 0.37 * static_cast<real>(seed));
    std::vector<real> g(m.n_faces), r(m.n_curl());
    backend::cpu::gradient(m, q, qb, g);
    backend::cpu::rotation(m, g, r);
    const real err = max_abs(r) / std::max(max_abs(q), max_abs(qb));
    if (seed == 1) report(label("R G q = 0"), err);
    EXPECT_LE(err, kRoundOff) << "seed " << seed;
  }
}

SCFD_INSTANTIATE_MESH_TESTS(Rotation);

}  // namespace
}  // namespace scfd::test
