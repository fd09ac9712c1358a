// upload_range.glsl: x[offset + k] <- values[k] for k < count (the receive side of a halo
// exchange: ghost values into a field). One invocation per texel of the range; the other entries
// of its first and last texel are kept. Twin: CpuBackend::upload_range.
// scfd: kernel
// scfd: image x
// scfd: index real values
uniform uint offset;
uniform uint count;

void main() {
  uint t = offset / VPT + scfd_gid();
  if (t * VPT >= offset + count) return;
  realv v = texel_x(t);
  for (uint j = 0u; j < VPT; ++j) {
    uint i = t * VPT + j;
    if (i >= offset && i < offset + count) v = scfd_set(v, j, values[i - offset]);
  }
  store_x(t, v);
}
