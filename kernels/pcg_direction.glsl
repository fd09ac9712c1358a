// pcg_direction.glsl: the search direction after PCG iteration k, p <- z + beta p with
// beta = s[rz_after(k)] / s[rz_before(k)] taken from the scalars on the device (0 when the
// divisor is not > 0: the solve has broken down and pcg_update no longer moves x).
// Twin: CpuBackend::pcg_direction. Element-wise over whole texels, as xpay.glsl.
// scfd: body texel p
// scfd: in z
// scfd: index acc scalars
uniform uint s_rz;      // slot of r·z before iteration k
uniform uint s_rz_new;  // slot of r·z after it

realv texel(uint t) {
  acc rz = scalars[s_rz];
  real beta = rz > acc(0) ? real(scalars[s_rz_new] / rz) : real(0);
  precise realv r = texel_z(t) + beta * texel_p(t);  // precise: no fused multiply-add
  return r;
}
