// axpy.glsl: y <- y + a x (the vector update of PCG). Twin: CpuBackend::axpy.
// Element-wise over whole texels (gl/driver.hpp, body texel); the driver keeps the entries of the
// last texel past the field's size.
// scfd: body texel y
// scfd: in x
uniform real a;
realv texel(uint t) {
  // precise: no fused multiply-add, so fp64 matches the CPU loop bit for bit.
  precise realv r = texel_y(t) + a * texel_x(t);
  return r;
}
