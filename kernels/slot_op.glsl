// slot_op.glsl: Backend::slot_op and slot_check_positive on the compute driver, one invocation
// that reads the slots it needs (slot_ops.glsl) and then writes `count` of them from out_slot on
// (1, or 3 for check_positive). Twins: CpuBackend::slot_op, slot_check_positive.
// scfd: kernel
// scfd: buffer acc scalars
#include "slot_ops.glsl"
uniform uint out_slot;
uniform uint count;

void main() {
  if (scfd_gid() != 0u) return;
  acc v[3];
  for (uint j = 0u; j < count; ++j) v[j] = slot_value(out_slot, j);
  for (uint j = 0u; j < count; ++j) scalars[out_slot + j] = v[j];
}
