// rotation.glsl: R = C^T, face -> curl entity (docs/architecture.md §2).
// Twin: backend/cpu/rotation.cpp.
//   r_k = sum over the faces f around curl entity k of s(f,k) U_f   for the owned entities k < n,
// gathered through the SELL rows of curl_faces (sell.glsl), sign folded into the face index.
//
// | binding / uniform | type             | in/out | meaning                                      |
// |-------------------|------------------|--------|----------------------------------------------|
// | buffer 0 slice    | uint[]           | in     | SELL slice starts (sell.glsl)                |
// | buffer 1 length   | uint[]           | in     | SELL row lengths (sell.glsl)                 |
// | buffer 2 faces    | int[padded]      | in     | face of each entry, ~face for sign -1        |
// | buffer 3 u_face   | real[n_faces]    | in     | face fluxes, ghosts included                 |
// | buffer 4 r        | real[n_curl]     | out    | the first n entries are written              |
// | uniform  n        | uint             | in     | owned curl entities (edges 3D, nodes 2D)     |
#include "common.glsl"

#define SELL_SLICE_BINDING 0
#define SELL_LENGTH_BINDING 1
#include "sell.glsl"

layout(std430, binding = 2) readonly restrict buffer Faces { int faces[]; };
layout(std430, binding = 3) readonly restrict buffer UFace { real u_face[]; };
layout(std430, binding = 4) writeonly restrict buffer R { real r[]; };
uniform uint n;

void main() {
  uint i = scfd_gid();
  if (i >= n) return;
  uint at = sell_first(i);
  uint len = sell_length(i);
  precise real sum = real(0);  // precise: the cpu loop's order, no fusing
  for (uint k = 0u; k < len; ++k, at += SELL_C) {
    int e = faces[at];
    real u = u_face[e >= 0 ? e : ~e];
    sum += e >= 0 ? u : -u;
  }
  r[i] = sum;
}
