// scale.glsl: y <- a x. Twin: CpuBackend::scale.
// Element-wise over whole texels (gl/driver.hpp, body texel); the driver keeps the entries of the
// last texel past the field's size.
// scfd: body texel y
// scfd: in x
uniform real a;
realv texel(uint t) {
  return a * texel_x(t);
}
