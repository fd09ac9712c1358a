// constant.glsl: y <- value over the first n entries (the fragment driver's fill, after the
// texture is cleared to zeros; gl-compute fills with fill.glsl). Twin: CpuBackend::fill.
// scfd: body texel y
uniform real value;

realv texel(uint t) {
  return realv(value);
}
