// curl.glsl: C, curl entity -> face (docs/architecture.md §2). Twin: backend/cpu/curl.cpp.
//   U_f = sum over the curl entities k of f of s(f,k) psi_k   for the owned faces f < n;
// curl entities are edges in 3D (3 per face) and nodes in 2D (2 per face). The sign is folded
// into the index (k for +1, ~k for -1).
//
// | binding / uniform   | type              | in/out | meaning                                 |
// |---------------------|-------------------|--------|-----------------------------------------|
// | buffer 0 face_curl  | int[W n]          | in     | entity k of face f at k n + f, signed   |
// | buffer 1 s          | real[n_curl]      | in     | streamfunction, ghosts included         |
// | buffer 2 u_face     | real[n_faces]     | out    | the first n entries are written         |
// | uniform  n          | uint              | in     | owned faces                             |
// | define   DIM        | 2 or 3            |        | mesh dimension (default 3); W = 3 or 2  |
#include "common.glsl"

#ifndef DIM
#define DIM 3
#endif
#if DIM == 3
#define CURL_WIDTH 3u
#else
#define CURL_WIDTH 2u
#endif

layout(std430, binding = 0) readonly restrict buffer FaceCurl { int face_curl[]; };
layout(std430, binding = 1) readonly restrict buffer S { real s[]; };
layout(std430, binding = 2) writeonly restrict buffer UFace { real u_face[]; };
uniform uint n;

void main() {
  uint f = scfd_gid();
  if (f >= n) return;
  precise real sum = real(0);  // precise: the cpu loop's order, no fusing
  for (uint k = 0u; k < CURL_WIDTH; ++k) {
    int e = face_curl[k * n + f];
    real v = s[e >= 0 ? e : ~e];
    sum += e >= 0 ? v : -v;
  }
  u_face[f] = sum;
}
