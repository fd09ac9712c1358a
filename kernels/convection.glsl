// convection.glsl: convective acceleration at cells, 3 reals per cell (ns-classical;
// docs/architecture.md §2). Twin: backend/cpu/convection.cpp (the specification; its header
// states the scheme):
//   n_c = (1/V_c) sum over the local faces k of c of s(c,f) U_f (u_f - u_c),
// u_f = (1 - upwind) (u_c + u_o)/2 + upwind (s U_f > 0 ? u_c : u_o) across an interior face (u_o
// the cell on the other side); on a boundary face u_f = u_c where the flux leaves and u_boundary
// where it enters. For the owned cells c < n, summed in the cpu's order; all three components
// in 2D as well (z is carried through as on the cpu).
//
// | binding / uniform        | type               | in/out | meaning                              |
// |--------------------------|--------------------|--------|--------------------------------------|
// | buffer 0 cell_faces      | int[(DIM+1) n]     | in     | face k of c at k n + c (~f: sign -1) |
// | buffer 1 cell_neighbours | int[(DIM+1) n]     | in     | cell across face k, ~b on a boundary |
// | buffer 2 cell_inv_volume | real[n]            | in     | 1 / V_c                              |
// | buffer 3 u_face          | real[n_faces]      | in     | face fluxes U_f, ghosts included     |
// | buffer 4 u_cell          | real[3 n_cells]    | in     | cell velocities, ghosts included     |
// | buffer 5 u_boundary      | real[3 n_boundary] | in     | velocity of owned boundary face b    |
// | buffer 6 n_cell          | real[3 n_cells]    | out    | x, y, z of the first n cells         |
// | uniform  upwind          | real               | in     | 0 central ... 1 first-order upwind   |
// | uniform  n               | uint               | in     | owned cells                          |
// | define   DIM             | 2 or 3             |        | mesh dimension (default 3)           |
#include "common.glsl"

#ifndef DIM
#define DIM 3
#endif

layout(std430, binding = 0) readonly restrict buffer CellFaces { int cell_faces[]; };
layout(std430, binding = 1) readonly restrict buffer CellNeighbours { int cell_neighbours[]; };
layout(std430, binding = 2) readonly restrict buffer CellInvVolume { real cell_inv_volume[]; };
layout(std430, binding = 3) readonly restrict buffer UFace { real u_face[]; };
layout(std430, binding = 4) readonly restrict buffer UCell { real u_cell[]; };
layout(std430, binding = 5) readonly restrict buffer UBoundary { real u_boundary[]; };
layout(std430, binding = 6) writeonly restrict buffer NCell { real n_cell[]; };
uniform real upwind;
uniform uint n;

real3 cell_vector(uint c) {
  return real3(u_cell[3u * c], u_cell[3u * c + 1u], u_cell[3u * c + 2u]);
}

void main() {
  uint c = scfd_gid();
  if (c >= n) return;
  real3 uc = cell_vector(c);
  // precise: no reassociation or fused multiply-add, so fp64 follows the cpu loop.
  precise real3 sum = real3(0);
  for (uint k = 0u; k < uint(DIM + 1); ++k) {
    int e = cell_faces[k * n + c];
    real u = u_face[e >= 0 ? e : ~e];
    real flux = e >= 0 ? u : -u;  // s(c,f) U_f: the flux leaving c
    int o = cell_neighbours[k * n + c];
    precise real3 uf;
    if (o < 0) {
      uint b = uint(~o);
      uf = flux > real(0) ? uc
                          : real3(u_boundary[3u * b], u_boundary[3u * b + 1u],
                                  u_boundary[3u * b + 2u]);
    } else {
      real3 other = cell_vector(uint(o));
      uf = (real(1) - upwind) * (real(0.5) * (uc + other)) + upwind * (flux > real(0) ? uc : other);
    }
    sum += flux * (uf - uc);
  }
  sum *= cell_inv_volume[c];
  n_cell[3u * c] = sum.x;
  n_cell[3u * c + 1u] = sum.y;
  n_cell[3u * c + 2u] = sum.z;
}
