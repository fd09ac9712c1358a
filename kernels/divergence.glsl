// divergence.glsl: D, face -> cell (docs/architecture.md §2). Twin: backend/cpu/divergence.cpp.
//   d_c = sum over the local faces k of c of s(c,f) U_f   for the owned cells c < n,
// the sign folded into the face index (f for +1, ~f for -1), summed in the cpu's order.
// cell_faces: DIM+1 planes of n.
// scfd: body entry d_cell
// scfd: in u_face
// scfd: index int cell_faces
#ifndef DIM
#define DIM 3
#endif

real entry(uint c) {
  // precise: no reassociation or fused multiply-add, so fp64 follows the cpu loop.
  precise real sum = real(0);
  for (uint k = 0u; k < uint(DIM + 1); ++k) {
    int e = cell_faces[k * n + c];
    real u = load_u_face(uint(e >= 0 ? e : ~e));
    sum += e >= 0 ? u : -u;
  }
  return sum;
}
