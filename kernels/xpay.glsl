// xpay.glsl: y <- x + a y (the search-direction update of PCG). Twin: CpuBackend::xpay.
// Element-wise over whole texels (gl/driver.hpp, body texel); the driver keeps the entries of the
// last texel past the field's size.
// scfd: body texel y
// scfd: in x
uniform real a;
realv texel(uint t) {
  precise realv r = texel_x(t) + a * texel_y(t);  // precise: no fused multiply-add
  return r;
}
