// scfd: include-only
// reduce.glsl: the workgroup reduction shared by the reduction kernels (dot, pcg_update,
// max_abs): a sum, or a maximum where the kernel defines RED_MAX. Every reduction runs in a fixed
// order, so a run gives the same bits every time (docs/architecture.md §8.3):
// item -> invocation and invocation -> workgroup are fixed by the item index, each workgroup
// combines its LOCAL_SIZE values by a shared-memory tree, and the last workgroup combines the
// partials in index order. No float atomics (one integer ticket per workgroup). A maximum is
// exact in any order, so max_abs equals the cpu's bit for bit; a sum depends on its order, which
// is fixed.
//
// | name                     | kind     | meaning                                               |
// |--------------------------|----------|-------------------------------------------------------|
// | scfd_group()             | function | linear workgroup index (1D and 2D grids)              |
// | scfd_red_op(a, b)        | macro    | a + b, or max(a, b) with RED_MAX                      |
// | scfd_workgroup_reduce(v) | function | v combined over the workgroup by scfd_red_op; valid   |
// |                          |          | in invocation 0 only; every invocation must call it   |
// |                          |          | (it has barriers)                                     |
// | scfd_last_group()        | function | true in every invocation of the workgroup that comes  |
// |                          |          | last to it (of all the dispatch's); every invocation  |
// |                          |          | must call it, after invocation 0 stored its partial   |
// | scfd_reduce_partials(m)  | function | partial[0..m) combined in a fixed order (invocation   |
// |                          |          | lid takes lid, lid + LOCAL_SIZE, ..., then the tree); |
// |                          |          | valid in invocation 0; for the last group only        |
//
// One dispatch per reduction: each workgroup stores its partial, takes a ticket (an atomic
// counter: integers, so nothing about the sum depends on the order of arrival), and the workgroup
// holding the last ticket adds the partials in their fixed order and resets the counter. The
// result is the same bits as a second dispatch over the partials would give.
//
// Defined by the including kernel: red_t (the reduced type: acc or acc2), RED_MAX (optional),
// and SCFD_LAST_GROUP for scfd_last_group / scfd_reduce_partials, which use the buffers
// `// scfd: buffer red_t partial` and `// scfd: buffer uint scfd_counter` (one uint, 0 between
// dispatches).
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

#ifdef SCFD_LAST_GROUP
shared bool scfd_is_last;

bool scfd_last_group() {
  // Invocation 0's partial store is made visible to the other workgroups before its ticket.
  memoryBarrierBuffer();
  barrier();
  if (gl_LocalInvocationID.x == 0u) {
    uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    scfd_is_last = atomicAdd(scfd_counter[0], 1u) == groups - 1u;
  }
  memoryBarrierShared();
  barrier();
  return scfd_is_last;
}

red_t scfd_reduce_partials(uint m) {
  memoryBarrierBuffer();
  red_t s = red_t(0);
  for (uint i = gl_LocalInvocationID.x; i < m; i += LOCAL_SIZE) s = scfd_red_op(s, partial[i]);
  s = scfd_workgroup_reduce(s);
  if (gl_LocalInvocationID.x == 0u) scfd_counter[0] = 0u;  // for the next dispatch
  return s;
}
#endif
