// flux_sum_abs.glsl: the total flux through the faces of a cell, face -> cell, for the Courant
// number Co_c = dt s_c / (2 V_c). Twin: backend/cpu/divergence.cpp (flux_sum_abs).
//   s_c = sum over the local faces k of c of |U_f|   for the owned cells c < n,
// in the cpu's order (the sign folded into the face index, as for divergence.glsl, is dropped).
// scfd: body entry s_cell
// scfd: in u_face
// scfd: index int cell_faces
#ifndef DIM
#define DIM 3
#endif

real entry(uint c) {
  precise real sum = real(0);  // precise: the cpu loop's order, no fusing
  for (uint k = 0u; k < uint(DIM + 1); ++k) {
    int e = cell_faces[k * n + c];
    sum += abs(load_u_face(uint(e >= 0 ? e : ~e)));
  }
  return sum;
}
