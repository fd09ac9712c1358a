// interpolate.glsl: face flux -> cell vector (docs/architecture.md §2).
// Twin: backend/cpu/interpolate.cpp.
//   u_c = sum over the local faces k of c of U_f a_ck,   a_ck = s(c,f) (x_f - x_c) / V_c,
// for the owned cells c < n; a_ck is precomputed on the host (backend/gl/device_mesh.hpp), so a
// cell reads DIM+1 face ids, (DIM+1) DIM reals of geometry and DIM+1 fluxes.
//
// | binding / uniform    | type                 | in/out | meaning                               |
// |----------------------|----------------------|--------|---------------------------------------|
// | buffer 0 cell_faces  | int[(DIM+1) n]       | in     | face k of c at k n + c (~f: sign -1)  |
// | buffer 1 cell_interp | real[(DIM+1) DIM n]  | in     | component j of a_ck at (k DIM + j) n+c|
// | buffer 2 u_face      | real[n_faces]        | in     | face fluxes, ghosts included          |
// | buffer 3 u_cell      | real[3 n_cells]      | out    | x, y, z of the first n cells (z=0 2D) |
// | uniform  n           | uint                 | in     | owned cells                           |
// | define   DIM         | 2 or 3               |        | mesh dimension (default 3)            |
#include "common.glsl"

#ifndef DIM
#define DIM 3
#endif

layout(std430, binding = 0) readonly restrict buffer CellFaces { int cell_faces[]; };
layout(std430, binding = 1) readonly restrict buffer CellInterp { real cell_interp[]; };
layout(std430, binding = 2) readonly restrict buffer UFace { real u_face[]; };
layout(std430, binding = 3) writeonly restrict buffer UCell { real u_cell[]; };
uniform uint n;

void main() {
  uint c = scfd_gid();
  if (c >= n) return;
  precise real3 sum = real3(0);  // precise: no fusing, close to the cpu loop in fp64
  for (uint k = 0u; k < uint(DIM + 1); ++k) {
    int e = cell_faces[k * n + c];
    real u = u_face[e >= 0 ? e : ~e];
    uint a = k * uint(DIM) * n + c;
    sum.x += u * cell_interp[a];
    sum.y += u * cell_interp[a + n];
#if DIM == 3
    sum.z += u * cell_interp[a + 2u * n];
#endif
  }
  u_cell[3u * c] = sum.x;
  u_cell[3u * c + 1u] = sum.y;
  u_cell[3u * c + 2u] = sum.z;
}
