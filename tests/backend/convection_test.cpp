// Tests of the convection gather (src/backend/cpu/convection.cpp) and of the max_abs reduction,
// as the cpu backend runs them:
//  - a uniform velocity (U_f = A_f u·n_f, every cell velocity u, boundary velocity u) has zero
//    convective acceleration for the central and the upwind scheme;
//  - on random fluxes and velocities the gather equals a scatter over faces written
//    independently (each interior face adds its term to both cells, each boundary face to its
//    cell), for central, upwind and a blend;
//  - upwind only reads the cell a flux comes from: outflow faces add nothing;
//  - max_abs is the largest |x_i| over the first n entries.
#include <algorithm>
#include <cmath>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "backend/cpu/operators.hpp"
#include "test_meshes.hpp"

namespace scfd::test {
namespace {

using backend::cpu::convection;

// The scatter form of the convection operator (the reference).
std::vector<Vec3> convection_scatter(const Mesh& m, const std::vector<real>& u_face,
                                     const std::vector<Vec3>& u_cell,
                                     const std::vector<Vec3>& u_bnd, real beta) {
  std::vector<Vec3> sum(m.n_cells);
  for (index f = 0; f < m.n_faces; ++f) {
    const index c1 = m.face_cells[2 * f], c2 = m.face_cells[2 * f + 1];
    const real u = u_face[f];
    if (c2 == kNone) {
      if (u < 0) sum[c1] += u * (u_bnd[f - m.n_interior_faces] - u_cell[c1]);
      continue;
    }
    const Vec3 mid = 0.5 * (u_cell[c1] + u_cell[c2]);
    const Vec3 up = u > 0 ? u_cell[c1] : u_cell[c2];
    const Vec3 uf = (1 - beta) * mid + beta * up;
    sum[c1] += u * (uf - u_cell[c1]);   // leaves c1
    sum[c2] += -u * (uf - u_cell[c2]);  // enters c2
  }
  for (index c = 0; c < m.n_cells; ++c) sum[c] = sum[c] / m.cell_volume[c];
  return sum;
}

class Convection : public MeshTest {};

TEST_P(Convection, UniformVelocityHasNoAcceleration) {
  const Mesh& m = mesh();
  const Vec3 u = m.dim == 3 ? Vec3{0.3, -1.1, 0.7} : Vec3{0.3, -1.1, 0};
  std::vector<real> flux(m.n_faces);
  for (index f = 0; f < m.n_faces; ++f) flux[f] = m.face_area[f] * dot(u, m.face_normal[f]);
  const std::vector<Vec3> uc(m.n_cells, u), ub(m.n_boundary_faces(), u);
  for (real beta : {0.0, 1.0}) {
    std::vector<Vec3> n(m.n_cells);
    convection(m, flux, uc, ub, beta, n);
    real err = 0;
    for (const Vec3& x : n) err = std::max(err, norm(x));
    EXPECT_LE(err, kRoundOff * norm(u) * norm(u) * mesh_size(m) * 1e3) << label("beta") << beta;
  }
}

TEST_P(Convection, GatherEqualsScatter) {
  const Mesh& m = mesh();
  const std::vector<real> flux = random_field(m.n_faces, 41);
  const std::vector<Vec3> uc = random_vectors(m.n_cells, m.dim, 42);
  const std::vector<Vec3> ub = random_vectors(m.n_boundary_faces(), m.dim, 43);
  for (real beta : {0.0, 1.0, 0.3}) {
    std::vector<Vec3> n(m.n_cells);
    convection(m, flux, uc, ub, beta, n);
    const std::vector<Vec3> ref = convection_scatter(m, flux, uc, ub, beta);
    real err = 0, scale = 0;
    for (index c = 0; c < m.n_cells; ++c) {
      err = std::max(err, norm(n[c] - ref[c]) * m.cell_volume[c]);
      scale = std::max(scale, norm(ref[c]) * m.cell_volume[c]);
    }
    report(label("convection gather vs scatter"), err / scale);
    EXPECT_LE(err, kRoundOff * scale) << "beta " << beta;
  }
}

TEST_P(Convection, UpwindIgnoresOutflowFaces) {
  const Mesh& m = mesh();
  // All fluxes leave cell 0 (sign chosen per face): upwind gives no acceleration there, whatever
  // the neighbours' velocities.
  std::vector<real> flux = random_field(m.n_faces, 51, 0.1, 1);
  for (int k = 0; k < m.cell_width(); ++k) flux[m.cell_faces[k]] *= m.cell_face_sign[k];
  const std::vector<Vec3> uc = random_vectors(m.n_cells, m.dim, 52);
  const std::vector<Vec3> ub = random_vectors(m.n_boundary_faces(), m.dim, 53);
  std::vector<Vec3> n(m.n_cells);
  convection(m, flux, uc, ub, 1.0, n);
  EXPECT_EQ(norm(n[0]), 0.0);
}

TEST_P(Convection, MaxAbsOnTheCpuBackend) {
  const Mesh& m = mesh();
  std::vector<real> x = random_field(m.n_faces, 71);
  x[m.n_faces / 2] = -3.5;  // the largest magnitude, negative
  const backend::cpu::CpuBackend be;
  auto f = be.make_field(m.n_faces);
  be.upload(x, *f);
  EXPECT_EQ(be.max_abs(*f, m.n_faces), 3.5);
  EXPECT_EQ(be.max_abs(*f, m.n_faces / 2), max_abs(std::span<const real>(x).first(m.n_faces / 2)));
}

SCFD_INSTANTIATE_MESH_TESTS(Convection);

}  // namespace
}  // namespace scfd::test
