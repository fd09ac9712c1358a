// integrate.glsl: cell vector -> face flux (docs/architecture.md §2).
// Twin: backend/cpu/integrate.cpp.
//   u_f = v_c1.(x_f - x_c1) - v_c2.(x_f - x_c2)  (interior),  u_f = v_c1.(x_f - x_c1)  (boundary)
// for the owned faces f < n; the differences x_f - x_c are precomputed on the host
// (backend/opengl/device_mesh.hpp) and the dot products summed in the cpu's order.
// scfd: body entry u_face
// scfd: in v_cell
// scfd: index int face_cells
// scfd: index real face_integ
#ifndef DIM
#define DIM 3
#endif

// v_c . (x_f - x_c), the difference read from planes first .. first + DIM - 1.
real half_dual_edge(uint c, uint f, uint first) {
  precise real d = load_v_cell(3u * c) * face_integ[first * n + f];
  d += load_v_cell(3u * c + 1u) * face_integ[(first + 1u) * n + f];
#if DIM == 3
  d += load_v_cell(3u * c + 2u) * face_integ[(first + 2u) * n + f];
#endif
  return d;
}

real entry(uint f) {
  int c1 = face_cells[f];
  int c2 = face_cells[n + f];
  precise real sum = half_dual_edge(uint(c1), f, 0u);
  if (c2 >= 0) sum -= half_dual_edge(uint(c2), f, uint(DIM));
  return sum;
}
