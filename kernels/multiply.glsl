// multiply.glsl: y <- a .* b (entry by entry). Twin: CpuBackend::multiply.
// Element-wise over whole texels (gl/driver.hpp, body texel); the driver keeps the entries of the
// last texel past the field's size.
// scfd: body texel y
// scfd: in a b

realv texel(uint t) {
  return texel_a(t) * texel_b(t);
}
