// Interpolation of docs/architecture.md §2: face flux -> cell vector,
//   u_c = (1/V_c) sum over the faces f of c of s(c,f) U_f (x_f - x_c),
// x_f the face centroid, x_c the cell's dual vertex Mesh::cell_centre (2D circumcentre, 3D
// centroid), s(c,f) = +1 where n_f points out of c.
// Because sum_f s(c,f) A_f n_f (x_f - x_c)^T = V_c I on any closed simplex (the divergence theorem
// applied to the linear field x - x_c), it reproduces a constant velocity exactly when
// U_f = A_f u·n_f. It is the V-weighted transpose of integration:
// sum_c V_c v_c·(I U)_c = sum_f U_f (J v)_f. First order accurate.
// Reference: J.B. Perot, "Conservation properties of unstructured staggered mesh schemes",
// J. Comput. Phys. 159 (2000) 58-89, eq. for the cell velocity reconstruction.
#include "backend/cpu/checks.hpp"
#include "backend/cpu/operators.hpp"

namespace scfd::backend::cpu {

void interpolate(const Mesh& m, std::span<const real> u_face, std::span<Vec3> u_cell,
                 RowRange rows) {
  SCFD_CHECK_SIZE(u_face, m.n_faces, "interpolate: u_face");
  SCFD_CHECK_SIZE(u_cell, m.n_cells, "interpolate: u_cell");
  SCFD_CHECK(disjoint(u_cell, u_face), "interpolate: output aliases the input");
  const int w = m.cell_width();
  const index* cell_faces = m.cell_faces.data();
  const std::int8_t* sign = m.cell_face_sign.data();
  for (index c = rows.begin; c < rows.stop(m.n_owned_cells); ++c) {
    const Vec3 xc = m.cell_centre(c);
    Vec3 sum{};
    for (int k = 0; k < w; ++k) {
      const std::size_t i = static_cast<std::size_t>(c) * w + k;
      const index f = cell_faces[i];
      sum += (sign[i] * u_face[f]) * (m.face_centre[f] - xc);
    }
    u_cell[c] = sum / m.cell_volume[c];
  }
}

}  // namespace scfd::backend::cpu
