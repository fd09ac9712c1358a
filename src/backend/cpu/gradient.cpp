// G, the discrete gradient of docs/architecture.md §2: cell -> face,
//   g_f = q_c2 - q_c1 (interior faces),   g_f = q_b,f - q_c1 (boundary faces),
// with c1 behind the face normal and c2 in front of it; on a boundary face the boundary value
// q_b sits in front. G is the signed incidence matrix of the dual mesh, so G = -D^T once the
// boundary values are moved to the right-hand side, and R G = 0 when q_b is uniform (the exterior
// then acts as one extra cell). Divided by face_dist it is the normal derivative, exact for a
// linear field sampled at circumcentres.
// Reference: J.B. Perot, "Conservation properties of unstructured staggered mesh schemes",
// J. Comput. Phys. 159 (2000) 58-89; J.B. Perot & V. Subramanian, "Discrete calculus methods
// for diffusion", J. Comput. Phys. 224 (2007) 59-81.
#include "backend/cpu/checks.hpp"
#include "backend/cpu/operators.hpp"

namespace scfd::backend::cpu {

void gradient(const Mesh& m, std::span<const real> q_cell, std::span<const real> q_boundary,
              std::span<real> g_face, RowRange rows) {
  SCFD_CHECK_SIZE(q_cell, m.n_cells, "gradient: q_cell");
  SCFD_CHECK_SIZE(q_boundary, m.n_boundary_faces(), "gradient: q_boundary");
  SCFD_CHECK_SIZE(g_face, m.n_faces, "gradient: g_face");
  SCFD_CHECK(disjoint(g_face, q_cell) && disjoint(g_face, q_boundary),
             "gradient: output aliases an input");
  const index* face_cells = m.face_cells.data();
  for (index f = rows.begin; f < rows.stop(m.n_owned_faces); ++f) {
    const index c1 = face_cells[2 * f];
    const index c2 = face_cells[2 * f + 1];
    const real front = c2 != kNone ? q_cell[c2] : q_boundary[f - m.n_interior_faces];
    g_face[f] = front - q_cell[c1];
  }
}

}  // namespace scfd::backend::cpu
