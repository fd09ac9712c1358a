// integrate.glsl: cell vector -> face flux (docs/architecture.md §2).
// Twin: backend/cpu/integrate.cpp.
//   u_f = v_c1.(x_f - x_c1) - v_c2.(x_f - x_c2)  (interior),  u_f = v_c1.(x_f - x_c1)  (boundary)
// for the owned faces f < n; the differences x_f - x_c are precomputed on the host
// (backend/gl/device_mesh.hpp) and the dot products summed in the cpu's order.
//
// | binding / uniform   | type               | in/out | meaning                                |
// |---------------------|--------------------|--------|----------------------------------------|
// | buffer 0 face_cells | int[2 n]           | in     | c1 at f, c2 at n + f (-1 on boundary)  |
// | buffer 1 face_integ | real[2 DIM n]      | in     | (x_f - x_c1)_j at j n + f,             |
// |                     |                    |        | (x_f - x_c2)_j at (DIM + j) n + f      |
// | buffer 2 v_cell     | real[3 n_cells]    | in     | x, y, z per cell, ghosts included      |
// | buffer 3 u_face     | real[n_faces]      | out    | the first n entries are written        |
// | uniform  n          | uint               | in     | owned faces                            |
// | define   DIM        | 2 or 3             |        | mesh dimension (default 3)             |
#include "common.glsl"

#ifndef DIM
#define DIM 3
#endif

layout(std430, binding = 0) readonly restrict buffer FaceCells { int face_cells[]; };
layout(std430, binding = 1) readonly restrict buffer FaceInteg { real face_integ[]; };
layout(std430, binding = 2) readonly restrict buffer VCell { real v_cell[]; };
layout(std430, binding = 3) writeonly restrict buffer UFace { real u_face[]; };
uniform uint n;

// v_c . (x_f - x_c), the difference read from planes first .. first + DIM - 1.
real half_dual_edge(uint c, uint f, uint first) {
  precise real d = v_cell[3u * c] * face_integ[first * n + f];
  d += v_cell[3u * c + 1u] * face_integ[(first + 1u) * n + f];
#if DIM == 3
  d += v_cell[3u * c + 2u] * face_integ[(first + 2u) * n + f];
#endif
  return d;
}

void main() {
  uint f = scfd_gid();
  if (f >= n) return;
  int c1 = face_cells[f];
  int c2 = face_cells[n + f];
  precise real sum = half_dual_edge(uint(c1), f, 0u);
  if (c2 >= 0) sum -= half_dual_edge(uint(c2), f, uint(DIM));
  u_face[f] = sum;
}
