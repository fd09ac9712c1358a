// upload_indices.glsl: x[first + i] <- values[map[i]] where map[i] >= 0, for i < count: the
// receive side of a halo exchange that carries some of a plan's ghosts (HaloPlan::narrowed), the
// values scattered into their entries. One invocation per texel of [first, first + count); the
// entries without a value (map -1) keep theirs. Twin: CpuBackend::upload_indices.
// scfd: kernel
// scfd: image x
// scfd: index real values
// scfd: index int map
uniform uint first;
uniform uint count;

void main() {
  uint t = first / VPT + scfd_gid();
  if (t * VPT >= first + count) return;
  realv v = texel_x(t);
  for (uint j = 0u; j < VPT; ++j) {
    uint i = t * VPT + j;
    if (i < first || i >= first + count) continue;
    int k = map[i - first];
    if (k >= 0) v = scfd_set(v, j, values[uint(k)]);
  }
  store_x(t, v);
}
