// Tests of integration (src/backend/cpu/integrate.cpp): a constant vector v integrates to
// v·(x_c2 - x_c1) on interior faces and v·(x_f - x_c1) on boundary faces, i.e. it equals
// G(v·x) with the boundary value sampled at the face centroid (Perot, J. Comput. Phys. 159
// (2000) 58-89).
#include <cmath>
#include <vector>

#include "backend/cpu/operators.hpp"
#include "test_meshes.hpp"

namespace scfd::test {
namespace {

class Integrate : public MeshTest {};

TEST_P(Integrate, ConstantVectorGivesDualEdge) {
  const Mesh& m = mesh();
  const Vec3 v = m.dim == 3 ? Vec3{0.9, 0.2, -1.4} : Vec3{0.9, 0.2, 0};
  std::vector<real> u(m.n_faces);
  backend::cpu::integrate(m, std::vector<Vec3>(m.n_cells, v), u);
  real err = 0;
  for (index f = 0; f < m.n_faces; ++f) {
    const index c1 = m.face_cells[2 * f], c2 = m.face_cells[2 * f + 1];
    const Vec3 x1 = m.cell_centre(c1);
    const Vec3 x2 = c2 != kNone ? m.cell_centre(c2) : m.face_centre[f];
    const Vec3 xf = m.face_centre[f];
    const real scale = norm(v) * (norm(xf - x1) + norm(xf - x2));
    err = std::max(err, std::abs(u[f] - dot(v, x2 - x1)) / scale);
  }
  report(label("J v = v·(x_c2 - x_c1)"), err);
  EXPECT_LE(err, kRoundOff);
}

TEST_P(Integrate, ConstantVectorEqualsGradientOfLinearField) {
  const Mesh& m = mesh();
  const Vec3 a = m.dim == 3 ? Vec3{-0.3, 0.8, 0.5} : Vec3{-0.3, 0.8, 0};
  std::vector<real> q(m.n_cells), qb(m.n_boundary_faces()), g(m.n_faces), j(m.n_faces);
  for (index c = 0; c < m.n_cells; ++c) q[c] = dot(a, m.cell_centre(c));
  for (index f = m.n_interior_faces; f < m.n_faces; ++f)
    qb[f - m.n_interior_faces] = dot(a, m.face_centre[f]);
  backend::cpu::gradient(m, q, qb, g);
  backend::cpu::integrate(m, std::vector<Vec3>(m.n_cells, a), j);
  real err = 0;
  for (index f = 0; f < m.n_faces; ++f) err = std::max(err, std::abs(g[f] - j[f]));
  err /= std::max(max_abs(q), max_abs(qb));
  report(label("J a = G (a·x)"), err);
  EXPECT_LE(err, kRoundOff);
}

SCFD_INSTANTIATE_MESH_TESTS(Integrate);

}  // namespace
}  // namespace scfd::test
