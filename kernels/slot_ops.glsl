// scfd: include-only
// slot_ops.glsl: arithmetic on the slots of Scalars (Backend::slot_op, backend::SlotOp, and
// Backend::slot_check_positive) as their cpu twins in backend/cpu/cpu_backend.cpp compute it. The
// including kernel declares `scalars` (acc) and gets these uniforms:
uniform uint op;      // 0 divide, 1 divide_if_positive, 2 multiply, 3 check_positive
uniform uint a_slot;  // the operands' slots
uniform uint b_slot;
uniform uint flag;    // check_positive: the first of its three slots
uniform real tag;     // check_positive: the value of s[flag] it records

// The new value of slot out (ops 0-2), or of slot flag + which (op 3), from the current slots.
acc slot_value(uint out_slot, uint which) {
  acc x = scalars[a_slot], y = scalars[b_slot];
  if (op == 0u) return y != acc(0) ? x / y : acc(0);
  if (op == 1u) return y > acc(0) ? x / y : acc(0);
  if (op == 2u) return x != acc(0) && y != acc(0) ? x * y : acc(0);
  if (scalars[flag] != acc(0) || (x > acc(0) && y > acc(0))) return scalars[flag + which];
  return which == 0u ? acc(tag) : (which == 1u ? x : y);
}
