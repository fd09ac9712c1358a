// divergence.glsl: D, face -> cell (docs/architecture.md §2). Twin: backend/cpu/divergence.cpp.
//   d_c = sum over the local faces k of c of s(c,f) U_f   for the owned cells c < n,
// the sign folded into the face index (f for +1, ~f for -1), summed in the cpu's order.
//
// | binding / uniform   | type                | in/out | meaning                               |
// |---------------------|---------------------|--------|---------------------------------------|
// | buffer 0 cell_faces | int[(DIM+1) n]      | in     | face k of cell c at k n + c, signed   |
// | buffer 1 u_face     | real[n_faces]       | in     | face fluxes, ghosts included          |
// | buffer 2 d_cell     | real[n_cells]       | out    | the first n entries are written       |
// | uniform  n          | uint                | in     | owned cells                           |
// | define   DIM        | 2 or 3              |        | mesh dimension (default 3)            |
#include "common.glsl"

#ifndef DIM
#define DIM 3
#endif

layout(std430, binding = 0) readonly restrict buffer CellFaces { int cell_faces[]; };
layout(std430, binding = 1) readonly restrict buffer UFace { real u_face[]; };
layout(std430, binding = 2) writeonly restrict buffer DCell { real d_cell[]; };
uniform uint n;

void main() {
  uint c = scfd_gid();
  if (c >= n) return;
  // precise: no reassociation or fused multiply-add, so fp64 follows the cpu loop.
  precise real sum = real(0);
  for (uint k = 0u; k < uint(DIM + 1); ++k) {
    int e = cell_faces[k * n + c];
    real u = u_face[e >= 0 ? e : ~e];
    sum += e >= 0 ? u : -u;
  }
  d_cell[c] = sum;
}
