// xpay_slot.glsl: y <- x + c y with c = sign * s[slot], or sign / sqrt(s[slot]) with inverse_sqrt
// (0 where s[slot] is not > 0), read from the scalars on the device (Backend::xpay with
// Scalars); y is kept while s[gate] is not 0 (gate < 0: no gate). Twin:
// CpuBackend::xpay with Scalars. Element-wise over whole texels, as xpay.glsl.
// scfd: body texel y
// scfd: in x
// scfd: index acc scalars
uniform uint slot;
uniform int gate;
uniform real sign;
uniform uint inverse_sqrt;

realv texel(uint t) {
  if (gate >= 0 && scalars[uint(gate)] != acc(0)) return texel_y(t);
  acc v = scalars[slot];
  real c = inverse_sqrt == 0u ? sign * real(v) : (v > acc(0) ? sign / real(sqrt(v)) : real(0));
  // precise: no fused multiply-add, so fp64 matches the CPU loop bit for bit.
  precise realv r = texel_x(t) + c * texel_y(t);
  return r;
}
