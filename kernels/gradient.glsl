// gradient.glsl: G, cell -> face (docs/architecture.md §2). Twin: backend/cpu/gradient.cpp.
//   g_f = q_c2 - q_c1 (interior faces),   g_f = q_boundary[f - n_interior] - q_c1 (boundary),
// for the owned faces f < n (boundary faces are owned faces n_interior .. n-1).
// face_cells: c1 at f, c2 at n + f (-1 on boundary faces).
// scfd: body entry g_face
// scfd: in q_cell q_boundary
// scfd: index int face_cells
uniform uint n_interior;

real entry(uint f) {
  int c1 = face_cells[f];
  int c2 = face_cells[n + f];
  real front = c2 >= 0 ? load_q_cell(uint(c2)) : load_q_boundary(f - n_interior);
  return front - load_q_cell(uint(c1));
}
