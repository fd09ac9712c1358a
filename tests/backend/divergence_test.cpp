// Tests of D (src/backend/cpu/divergence.cpp): the divergence theorem per cell (a constant field
// has zero net flux; a linear field u = u0 + M x with U_f = A_f u(x_f)·n_f gives
// D U = V_c tr M), and D = -G^T in the unweighted sense: <D U, q> = -<U, G q> for q_b = 0
// (Perot, J. Comput. Phys. 159 (2000) 58-89).
#include <cmath>
#include <vector>

#include "backend/cpu/operators.hpp"
#include "test_meshes.hpp"

namespace scfd::test {
namespace {

class Divergence : public MeshTest {
 protected:
  // Largest |D U - V_c div u| over cells, relative to the sum of |U_f| over the faces of c.
  real cell_error(std::span<const real> u_face, real div_u) const {
    const Mesh& m = mesh();
    std::vector<real> d(m.n_cells);
    backend::cpu::divergence(m, u_face, d);
    real err = 0;
    for (index c = 0; c < m.n_cells; ++c) {
      real scale = 0;
      for (int k = 0; k < m.cell_width(); ++k)
        scale += std::abs(u_face[m.cell_faces[c * m.cell_width() + k]]);
      err = std::max(err, std::abs(d[c] - m.cell_volume[c] * div_u) / scale);
    }
    return err;
  }
};

TEST_P(Divergence, ConstantFieldHasNoNetFlux) {
  const Mesh& m = mesh();
  const Vec3 u = m.dim == 3 ? Vec3{1.1, -0.4, 0.8} : Vec3{1.1, -0.4, 0};
  std::vector<real> flux(m.n_faces);
  for (index f = 0; f < m.n_faces; ++f) flux[f] = m.face_area[f] * dot(u, m.face_normal[f]);
  const real err = cell_error(flux, 0);
  report(label("D (A u·n) = 0, constant u"), err);
  EXPECT_LE(err, kRoundOff);
}

// flux_sum_abs is the divergence without the signs: for fluxes of one sign per cell it is the
// divergence's magnitude, and |D U|_c <= s_c always.
TEST_P(Divergence, FluxSumAbsBoundsTheDivergence) {
  const Mesh& m = mesh();
  std::vector<real> flux(m.n_faces), d(m.n_cells), s(m.n_cells);
  for (index f = 0; f < m.n_faces; ++f) flux[f] = std::sin(1.7 * f + 0.3);
  backend::cpu::divergence(m, flux, d);
  backend::cpu::flux_sum_abs(m, flux, s);
  for (index c = 0; c < m.n_cells; ++c) {
    real sum = 0;
    for (int k = 0; k < m.cell_width(); ++k)
      sum += std::abs(flux[m.cell_faces[c * m.cell_width() + k]]);
    EXPECT_EQ(s[c], sum) << "cell " << c;
    EXPECT_LE(std::abs(d[c]), s[c]) << "cell " << c;
  }
}

TEST_P(Divergence, LinearFieldGivesVolumeTimesDivergence) {
  const Mesh& m = mesh();
  const real mm[3][3] = {{0.7, -0.3, 0.2}, {0.5, 1.3, -0.6}, {-0.1, 0.4, -0.9}};
  const Vec3 u0{0.2, -0.5, 0.3};
  const real div_u = m.dim == 3 ? mm[0][0] + mm[1][1] + mm[2][2] : mm[0][0] + mm[1][1];
  std::vector<real> flux(m.n_faces);
  for (index f = 0; f < m.n_faces; ++f) {
    const Vec3 x = m.face_centre[f];
    Vec3 u = u0;
    for (int i = 0; i < m.dim; ++i)
      for (int j = 0; j < m.dim; ++j) u[i] += mm[i][j] * x[j];
    // The centroid value times the area is the exact integral of a linear field over the face.
    flux[f] = m.face_area[f] * dot(u, m.face_normal[f]);
  }
  const real err = cell_error(flux, div_u);
  report(label("D U = V div u, linear u"), err);
  EXPECT_LE(err, kRoundOff);
}

TEST_P(Divergence, IsMinusGradientTranspose) {
  const Mesh& m = mesh();
  const std::vector<real> u = random_field(m.n_faces, 11);
  const std::vector<real> q = random_field(m.n_cells, 12);
  const std::vector<real> qb(m.n_boundary_faces(), 0.0);
  std::vector<real> du(m.n_cells), gq(m.n_faces);
  backend::cpu::divergence(m, u, du);
  backend::cpu::gradient(m, q, qb, gq);
  real scale = 0;
  for (index f = 0; f < m.n_faces; ++f) scale += std::abs(u[f] * gq[f]);
  const real err = std::abs(inner(du, q) + inner(u, gq)) / scale;
  report(label("<D U, q> = -<U, G q>"), err);
  EXPECT_LE(err, kRoundOff);
}

SCFD_INSTANTIATE_MESH_TESTS(Divergence);

}  // namespace
}  // namespace scfd::test
