// axpys.glsl: y <- y + c_0 x0 + ... + c_(count-1) x(count-1), c_k = sign * s[first + k] read from
// the scalars on the device (Backend::axpys, GMRES's Gram-Schmidt), count 1-4; inputs past count
// are bound but not read. The terms are added one at a time in order, each rounded as
// axpy_slot.glsl rounds it, so this equals count calls of that kernel bit for bit. Twin:
// CpuBackend::axpy with Scalars, once per x_k (Backend::axpys). Element-wise over whole texels.
// scfd: body texel y
// scfd: in x0 x1 x2 x3
// scfd: index acc scalars
uniform uint first;
uniform uint count;
uniform real sign;

realv texel(uint t) {
  // precise: no fused multiply-add, so fp64 matches the CPU loop bit for bit.
  precise realv r = texel_y(t);
  r = r + (sign * real(scalars[first])) * texel_x0(t);
  if (count > 1u) r = r + (sign * real(scalars[first + 1u])) * texel_x1(t);
  if (count > 2u) r = r + (sign * real(scalars[first + 2u])) * texel_x2(t);
  if (count > 3u) r = r + (sign * real(scalars[first + 3u])) * texel_x3(t);
  return r;
}
