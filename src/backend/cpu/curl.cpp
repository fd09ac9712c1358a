// C, the discrete curl of docs/architecture.md §2: curl entity -> face,
//   U_f = sum over the curl entities k of f of s(f,k) psi_k,
// with psi a streamfunction on edges (3D: U_f is the circulation of the vector potential around
// f, Stokes' theorem) or on nodes (2D: U_f = psi(x1) - psi(x0), the flux of (dpsi/dy, -dpsi/dx)
// through f). The signs are mesh.face_curl_sign. D C = 0 exactly, which is what makes the exact
// fractional step divergence free to round-off.
// Reference: W. Chang, F. Giraldo & J.B. Perot, "Analysis of an exact fractional step method",
// J. Comput. Phys. 180 (2002) 183-199; J.B. Perot, "Conservation properties of unstructured
// staggered mesh schemes", J. Comput. Phys. 159 (2000) 58-89.
#include "backend/cpu/checks.hpp"
#include "backend/cpu/operators.hpp"

namespace scfd::backend::cpu {

void curl(const Mesh& m, std::span<const real> s, std::span<real> u_face, RowRange rows) {
  SCFD_CHECK_SIZE(s, m.n_curl(), "curl: s");
  SCFD_CHECK_SIZE(u_face, m.n_faces, "curl: u_face");
  SCFD_CHECK(disjoint(u_face, s), "curl: output aliases the input");
  const int w = m.curl_width();
  const index* face_curl = m.face_curl.data();
  const std::int8_t* sign = m.face_curl_sign.data();
  for (index f = rows.begin; f < rows.stop(m.n_owned_faces); ++f) {
    real sum = 0;
    for (int k = 0; k < w; ++k) {
      const std::size_t i = static_cast<std::size_t>(f) * w + k;
      sum += sign[i] * s[face_curl[i]];
    }
    u_face[f] = sum;
  }
}

}  // namespace scfd::backend::cpu
