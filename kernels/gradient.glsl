// gradient.glsl: G, cell -> face (docs/architecture.md §2). Twin: backend/cpu/gradient.cpp.
//   g_f = q_c2 - q_c1 (interior faces),   g_f = q_boundary[f - n_interior] - q_c1 (boundary),
// for the owned faces f < n (boundary faces are owned faces n_interior .. n-1).
//
// | binding / uniform   | type             | in/out | meaning                                  |
// |---------------------|------------------|--------|------------------------------------------|
// | buffer 0 face_cells | int[2 n]         | in     | c1 at f, c2 at n + f (-1 on boundary)    |
// | buffer 1 q_cell     | real[n_cells]    | in     | cell values, ghosts included             |
// | buffer 2 q_boundary | real[n - n_int.] | in     | value in front of each boundary face     |
// | buffer 3 g_face     | real[n_faces]    | out    | the first n entries are written          |
// | uniform  n          | uint             | in     | owned faces                              |
// | uniform  n_interior | uint             | in     | owned interior faces                     |
#include "common.glsl"

layout(std430, binding = 0) readonly restrict buffer FaceCells { int face_cells[]; };
layout(std430, binding = 1) readonly restrict buffer QCell { real q_cell[]; };
layout(std430, binding = 2) readonly restrict buffer QBoundary { real q_boundary[]; };
layout(std430, binding = 3) writeonly restrict buffer GFace { real g_face[]; };
uniform uint n;
uniform uint n_interior;

void main() {
  uint f = scfd_gid();
  if (f >= n) return;
  int c1 = face_cells[f];
  int c2 = face_cells[n + f];
  real front;
  if (c2 >= 0)
    front = q_cell[c2];
  else
    front = q_boundary[f - n_interior];
  g_face[f] = front - q_cell[c1];
}
