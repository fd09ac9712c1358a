// interpolate.glsl: face flux -> cell vector (docs/architecture.md §2).
// Twin: backend/cpu/interpolate.cpp.
//   u_c = sum over the local faces k of c of U_f a_ck,   a_ck = s(c,f) (x_f - x_c) / V_c,
// for the owned cells c < n; a_ck is precomputed on the host (backend/opengl/device_mesh.hpp), so a
// cell reads DIM+1 face ids, (DIM+1) DIM reals of geometry and DIM+1 fluxes.
// scfd: body entry3 u_cell
// scfd: in u_face
// scfd: index int cell_faces
// scfd: index real cell_interp
#ifndef DIM
#define DIM 3
#endif

real3 entry3(uint c) {
  precise real3 sum = real3(0);  // precise: no fusing, close to the cpu loop in fp64
  for (uint k = 0u; k < uint(DIM + 1); ++k) {
    int e = cell_faces[k * n + c];
    real u = load_u_face(uint(e >= 0 ? e : ~e));
    uint a = k * uint(DIM) * n + c;
    sum.x += u * cell_interp[a];
    sum.y += u * cell_interp[a + n];
#if DIM == 3
    sum.z += u * cell_interp[a + 2u * n];
#endif
  }
  return sum;
}
