// scfd: include-only
// common.glsl: helpers shared by every compute kernel (included with #include "common.glsl").
//
// | name       | kind     | meaning                                                         |
// |------------|----------|-----------------------------------------------------------------|
// | scfd_gid() | function | global item index; correct for the 1D and the 2D grids that     |
// |            |          | Program::dispatch launches (2D above 65535 groups)              |
//
// Kernels must return when scfd_gid() >= their item count: the grid is rounded up.
// Host-provided: LOCAL_SIZE, real (float|double), real2..real4.

layout(local_size_x = LOCAL_SIZE) in;

uint scfd_gid() {
  return (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x +
         gl_LocalInvocationID.x;
}
