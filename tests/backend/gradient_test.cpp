// Tests of G (src/backend/cpu/gradient.cpp): a linear field q = a·x + b sampled at cell
// circumcentres (boundary values at face circumcentres) has g_f = a·(x_c2 - x_c1)
// = face_dist_f a·n_f exactly, because the segment joining the two circumcentres of a face is
// normal to it (Perot, J. Comput. Phys. 159 (2000) 58-89).
#include <cmath>
#include <vector>

#include "backend/cpu/operators.hpp"
#include "test_meshes.hpp"

namespace scfd::test {
namespace {

class Gradient : public MeshTest {};

TEST_P(Gradient, LinearFieldIsExact) {
  const Mesh& m = mesh();
  const Vec3 a = m.dim == 3 ? Vec3{0.3, -1.2, 0.7} : Vec3{0.3, -1.2, 0};
  const real b = 0.4;
  std::vector<real> q(m.n_cells), qb(m.n_boundary_faces()), g(m.n_faces);
  for (index c = 0; c < m.n_cells; ++c) q[c] = dot(a, m.cell_circumcentre[c]) + b;
  for (index f = m.n_interior_faces; f < m.n_faces; ++f)
    qb[f - m.n_interior_faces] = dot(a, face_circumcentre(m, f)) + b;
  backend::cpu::gradient(m, q, qb, g);

  // The error of a difference of two values is relative to the values, not to the difference.
  const real scale = std::max(max_abs(q), max_abs(qb));
  const real tiny = 1e-9 * mesh_size(m);
  real err = 0, err_normal = 0;
  for (index f = 0; f < m.n_faces; ++f) {
    const index c2 = m.face_cells[2 * f + 1];
    const Vec3 x2 = c2 != kNone ? m.cell_circumcentre[c2] : face_circumcentre(m, f);
    const real exact = dot(a, x2 - m.cell_circumcentre[m.face_cells[2 * f]]);
    err = std::max(err, std::abs(g[f] - exact) / scale);
    const real d = m.face_dist[f];
    if (std::abs(d) < tiny) continue;
    // g_f / face_dist_f = a·n_f, with the error it inherits from g_f.
    const real e = std::abs(g[f] / d - dot(a, m.face_normal[f])) * std::abs(d) / scale;
    err_normal = std::max(err_normal, e);
  }
  report(label("G q = a·(x_c2 - x_c1)"), err);
  report(label("G q / face_dist = a·n"), err_normal);
  EXPECT_LE(err, kRoundOff);
  EXPECT_LE(err_normal, kRoundOff);
}

SCFD_INSTANTIATE_MESH_TESTS(Gradient);

}  // namespace
}  // namespace scfd::test
