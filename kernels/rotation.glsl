// rotation.glsl: R = C^T, face -> curl entity (docs/architecture.md §2).
// Twin: backend/cpu/rotation.cpp.
//   r_k = sum over the faces f around curl entity k of s(f,k) U_f   for the owned entities k < n,
// gathered through the SELL rows of curl_faces (sell.glsl), sign folded into the face index.
// scfd: body entry r
// scfd: in u_face
// scfd: index uint sell_slice sell_len
// scfd: index int faces
#include "sell.glsl"

real entry(uint i) {
  uint at = sell_first(i);
  uint len = sell_length(i);
  precise real sum = real(0);  // precise: the cpu loop's order, no fusing
  for (uint k = 0u; k < len; ++k, at += SELL_C) {
    int e = faces[at];
    real u = load_u_face(uint(e >= 0 ? e : ~e));
    sum += e >= 0 ? u : -u;
  }
  return sum;
}
