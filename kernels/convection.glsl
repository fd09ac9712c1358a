// convection.glsl: convective acceleration at cells, 3 reals per cell (ns-classical;
// docs/architecture.md §2). Twin: backend/cpu/convection.cpp (the specification; its header
// states the scheme):
//   n_c = (1/V_c) sum over the local faces k of c of s(c,f) U_f (u_f - u_c),
// u_f = (1 - upwind) (u_c + u_o)/2 + upwind (s U_f > 0 ? u_c : u_o) across an interior face (u_o
// the cell on the other side); on a boundary face u_f = u_c where the flux leaves and u_boundary
// where it enters. For the owned cells c < n, summed in the cpu's order; all three components
// in 2D as well (z is carried through as on the cpu).
// cell_neighbours: DIM+1 planes of n, the other cell or ~b (b: index into u_boundary).
// scfd: body entry3 n_cell
// scfd: in u_face u_cell u_boundary
// scfd: index int cell_faces cell_neighbours
// scfd: index real cell_inv_volume
#ifndef DIM
#define DIM 3
#endif
uniform real upwind;

real3 cell_vector(uint c) {
  return real3(load_u_cell(3u * c), load_u_cell(3u * c + 1u), load_u_cell(3u * c + 2u));
}

real3 entry3(uint c) {
  real3 uc = cell_vector(c);
  // precise: no reassociation or fused multiply-add, so fp64 follows the cpu loop.
  precise real3 sum = real3(0);
  for (uint k = 0u; k < uint(DIM + 1); ++k) {
    int e = cell_faces[k * n + c];
    real u = load_u_face(uint(e >= 0 ? e : ~e));
    real flux = e >= 0 ? u : -u;  // s(c,f) U_f: the flux leaving c
    int o = cell_neighbours[k * n + c];
    precise real3 uf;
    if (o < 0) {
      uint b = uint(~o);
      uf = flux > real(0) ? uc
                          : real3(load_u_boundary(3u * b), load_u_boundary(3u * b + 1u),
                                  load_u_boundary(3u * b + 2u));
    } else {
      real3 other = cell_vector(uint(o));
      uf = (real(1) - upwind) * (real(0.5) * (uc + other)) + upwind * (flux > real(0) ? uc : other);
    }
    sum += flux * (uf - uc);
  }
  sum *= cell_inv_volume[c];
  return sum;
}
