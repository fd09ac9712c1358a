// fill.glsl: y <- value over the first n entries and 0 in every other entry of the texture (the
// padding), so a new field is all zeros there. Twin: CpuBackend::fill.
// One invocation per texel of the whole texture.
// scfd: kernel
// scfd: image y
uniform real value;
uniform uint n;       // entries
uniform uint texels;  // width * height of y's texture

void main() {
  uint t = scfd_gid();
  if (t >= texels) return;
  realv v = realv(0);
  for (uint k = 0u; k < VPT; ++k)
    if (t * VPT + k < n) v = scfd_set(v, k, value);
  store_y(t, v);
}
