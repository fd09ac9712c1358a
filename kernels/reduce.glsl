// scfd: include-only
// reduce.glsl: the workgroup reduction shared by the reduction kernels (dot, pcg_update,
// max_abs, reduce_partials): a sum, or a maximum where the kernel defines RED_MAX. Every
// reduction runs in a fixed order, so a run gives the same bits every time
// (docs/architecture.md §8.3):
// item -> invocation and invocation -> workgroup are fixed by the item index, each workgroup
// combines its LOCAL_SIZE values by a shared-memory tree, and one final workgroup combines the
// partials (reduce_partials.glsl). No atomics. A maximum is exact in any order, so max_abs equals
// the cpu's bit for bit; a sum depends on its order, which is fixed.
//
// | name                     | kind     | meaning                                               |
// |--------------------------|----------|-------------------------------------------------------|
// | scfd_group()             | function | linear workgroup index (1D and 2D grids)              |
// | scfd_red_op(a, b)        | macro    | a + b, or max(a, b) with RED_MAX                      |
// | scfd_workgroup_reduce(v) | function | v combined over the workgroup by scfd_red_op; valid   |
// |                          |          | in invocation 0 only; every invocation must call it   |
// |                          |          | (it has barriers)                                     |
//
// Defined by the including kernel: red_t (the reduced type: acc or acc2), RED_MAX (optional).
// Host-provided: LOCAL_SIZE (a power of two); acc, acc2 (the accumulator types: double/dvec2
// whenever the device has fp64, also for fp32 fields; without a host definition, real/real2).

#if (LOCAL_SIZE & (LOCAL_SIZE - 1)) != 0
#error "reduce.glsl needs a power-of-two LOCAL_SIZE"
#endif

#ifndef acc
#define acc real
#define acc2 real2
#endif

#ifdef RED_MAX
#define scfd_red_op(a, b) max(a, b)
#else
#define scfd_red_op(a, b) ((a) + (b))
#endif

shared red_t scfd_red[LOCAL_SIZE];

uint scfd_group() {
  return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
}

red_t scfd_workgroup_reduce(red_t v) {
  uint lid = gl_LocalInvocationID.x;
  scfd_red[lid] = v;
  for (uint s = LOCAL_SIZE / 2; s > 0; s >>= 1) {
    memoryBarrierShared();
    barrier();
    if (lid < s) scfd_red[lid] = scfd_red_op(scfd_red[lid], scfd_red[lid + s]);
  }
  memoryBarrierShared();
  barrier();
  return scfd_red[0];
}
