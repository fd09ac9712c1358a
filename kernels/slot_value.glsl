// slot_value.glsl: Backend::slot_op and slot_check_positive: entry 0 is the new value of slot
// out_slot + which (slot_ops.glsl), which the driver then copies into the slot; the body is
// compiled in the scalars' precision (`acc` is `real`), so the copy is exact. Twins:
// CpuBackend::slot_op, slot_check_positive.
// scfd: body entry v
// scfd: index acc scalars
#include "slot_ops.glsl"
uniform uint out_slot;
uniform uint which;

real entry(uint j) { return real(slot_value(out_slot, which)); }
