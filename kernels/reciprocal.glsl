// reciprocal.glsl: y <- 1 ./ x (the Jacobi preconditioner from a diagonal). Twin: CpuBackend::reciprocal.
// Element-wise over whole texels (gl/driver.hpp, body texel); the driver keeps the entries of the
// last texel past the field's size.
// scfd: body texel y
// scfd: in x

realv texel(uint t) {
  return realv(1) / texel_x(t);
}
