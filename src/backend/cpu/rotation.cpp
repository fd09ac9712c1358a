// R, the discrete rotation of docs/architecture.md §2: face -> curl entity, R = C^T,
//   r_k = sum over the faces f around curl entity k of s(f,k) U_f,
// gathered through mesh.curl_faces (the transpose of face_curl, with the same signs). Applied to
// a gradient it sums differences of cell values around a closed dual loop, so R G = 0; it is the
// operator that removes the pressure in the exact fractional step, R A C psi = R r.
// Reference: W. Chang, F. Giraldo & J.B. Perot, "Analysis of an exact fractional step method",
// J. Comput. Phys. 180 (2002) 183-199.
#include "backend/cpu/checks.hpp"
#include "backend/cpu/operators.hpp"

namespace scfd::backend::cpu {

void rotation(const Mesh& m, std::span<const real> u_face, std::span<real> r, RowRange rows) {
  SCFD_CHECK_SIZE(u_face, m.n_faces, "rotation: u_face");
  SCFD_CHECK_SIZE(r, m.n_curl(), "rotation: r");
  SCFD_CHECK(
      m.curl_faces.n_rows() == m.n_curl() && m.curl_faces.sign.size() == m.curl_faces.item.size(),
      "rotation: curl_faces has {} rows, {} expected", m.curl_faces.n_rows(), m.n_curl());
  SCFD_CHECK(disjoint(r, u_face), "rotation: output aliases the input");
  const index* offset = m.curl_faces.offset.data();
  const index* face = m.curl_faces.item.data();
  const std::int8_t* sign = m.curl_faces.sign.data();
  for (index k = rows.begin; k < rows.stop(m.n_owned_curl()); ++k) {
    real sum = 0;
    for (index i = offset[k]; i < offset[k + 1]; ++i) sum += sign[i] * u_face[face[i]];
    r[k] = sum;
  }
}

}  // namespace scfd::backend::cpu
