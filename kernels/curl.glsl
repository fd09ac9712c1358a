// curl.glsl: C, curl entity -> face (docs/architecture.md §2). Twin: backend/cpu/curl.cpp.
//   U_f = sum over the curl entities k of f of s(f,k) psi_k   for the owned faces f < n;
// curl entities are edges in 3D (3 per face) and nodes in 2D (2 per face). The sign is folded
// into the index (k for +1, ~k for -1). face_curl: CURL_WIDTH planes of n.
// scfd: body entry u_face
// scfd: in s
// scfd: index int face_curl
#ifndef DIM
#define DIM 3
#endif
#if DIM == 3
#define CURL_WIDTH 3u
#else
#define CURL_WIDTH 2u
#endif

real entry(uint f) {
  precise real sum = real(0);  // precise: the cpu loop's order, no fusing
  for (uint k = 0u; k < CURL_WIDTH; ++k) {
    int e = face_curl[k * n + f];
    real v = load_s(uint(e >= 0 ? e : ~e));
    sum += e >= 0 ? v : -v;
  }
  return sum;
}
