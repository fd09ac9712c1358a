// Tests of interpolation (src/backend/cpu/interpolate.cpp): a constant velocity field given as
// face fluxes U_f = A_f u·n_f is reproduced exactly in every cell (sum_f A_f n_f (x_f - x_c)^T
// = V_c I), and interpolation is the V-weighted transpose of integration:
// sum_c V_c v_c·(I U)_c = sum_f U_f (J v)_f (Perot, J. Comput. Phys. 159 (2000) 58-89).
#include <cmath>
#include <vector>

#include "backend/cpu/operators.hpp"
#include "test_meshes.hpp"

namespace scfd::test {
namespace {

class Interpolate : public MeshTest {
 protected:
  // sum over the faces of c of |U_f| |x_f - x_c|: the magnitude of the terms that cancel.
  real term_scale(std::span<const real> u_face, index c) const {
    const Mesh& m = mesh();
    real s = 0;
    for (int k = 0; k < m.cell_width(); ++k) {
      const index f = m.cell_faces[c * m.cell_width() + k];
      s += std::abs(u_face[f]) * norm(m.face_centre[f] - m.cell_centre(c));
    }
    return s;
  }
};

TEST_P(Interpolate, ReproducesConstantVelocity) {
  const Mesh& m = mesh();
  const Vec3 u = m.dim == 3 ? Vec3{-0.6, 1.3, 0.45} : Vec3{-0.6, 1.3, 0};
  std::vector<real> flux(m.n_faces);
  for (index f = 0; f < m.n_faces; ++f) flux[f] = m.face_area[f] * dot(u, m.face_normal[f]);
  std::vector<Vec3> uc(m.n_cells);
  backend::cpu::interpolate(m, flux, uc);
  real err = 0, err_u = 0;
  for (index c = 0; c < m.n_cells; ++c) {
    const real diff = norm(uc[c] - u);
    err = std::max(err, diff * m.cell_volume[c] / term_scale(flux, c));
    err_u = std::max(err_u, diff / norm(u));
  }
  report(label("I (A u·n) = u, relative to the terms"), err);
  report(label("I (A u·n) = u, relative to |u|"), err_u);
  EXPECT_LE(err, kRoundOff);
}

TEST_P(Interpolate, IsWeightedTransposeOfIntegration) {
  const Mesh& m = mesh();
  const std::vector<real> u = random_field(m.n_faces, 31);
  const std::vector<Vec3> v = random_vectors(m.n_cells, m.dim, 32);
  std::vector<Vec3> iu(m.n_cells);
  std::vector<real> jv(m.n_faces);
  backend::cpu::interpolate(m, u, iu);
  backend::cpu::integrate(m, v, jv);
  real lhs = 0, scale = 0;
  for (index c = 0; c < m.n_cells; ++c) {
    lhs += m.cell_volume[c] * dot(v[c], iu[c]);
    scale += norm(v[c]) * term_scale(u, c);
  }
  const real err = std::abs(lhs - inner(u, jv)) / scale;
  report(label("<V v, I U> = <J v, U>"), err);
  EXPECT_LE(err, kRoundOff);
}

SCFD_INSTANTIATE_MESH_TESTS(Interpolate);

}  // namespace
}  // namespace scfd::test
