// flux_sum_abs.glsl: the total flux through the faces of a cell, face -> cell, for the Courant
// number Co_c = dt s_c / (2 V_c). Twin: backend/cpu/divergence.cpp (flux_sum_abs).
//   s_c = sum over the local faces k of c of |U_f|   for the owned cells c < n,
// in the cpu's order (the sign folded into the face index, as for divergence.glsl, is dropped).
//
// | binding / uniform   | type                | in/out | meaning                               |
// |---------------------|---------------------|--------|---------------------------------------|
// | buffer 0 cell_faces | int[(DIM+1) n]      | in     | face k of cell c at k n + c, signed   |
// | buffer 1 u_face     | real[n_faces]       | in     | face fluxes, ghosts included          |
// | buffer 2 s_cell     | real[n_cells]       | out    | the first n entries are written       |
// | uniform  n          | uint                | in     | owned cells                           |
// | define   DIM        | 2 or 3              |        | mesh dimension (default 3)            |
#include "common.glsl"

#ifndef DIM
#define DIM 3
#endif

layout(std430, binding = 0) readonly restrict buffer CellFaces { int cell_faces[]; };
layout(std430, binding = 1) readonly restrict buffer UFace { real u_face[]; };
layout(std430, binding = 2) writeonly restrict buffer SCell { real s_cell[]; };
uniform uint n;

void main() {
  uint c = scfd_gid();
  if (c >= n) return;
  precise real sum = real(0);  // precise: the cpu loop's order, no fusing
  for (uint k = 0u; k < uint(DIM + 1); ++k) {
    int e = cell_faces[k * n + c];
    sum += abs(u_face[e >= 0 ? e : ~e]);
  }
  s_cell[c] = sum;
}
