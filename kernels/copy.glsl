// copy.glsl: y <- x (also the copy ceiling that `streamcfd bench` measures). Twin: CpuBackend::copy.
// Element-wise over whole texels (gl/driver.hpp, body texel); the driver keeps the entries of the
// last texel past the field's size.
// scfd: body texel y
// scfd: in x

realv texel(uint t) {
  return texel_x(t);
}
