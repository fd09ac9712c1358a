// download_indices.glsl: send[k] <- x[indices[k]] for k < n: packs the send buffer of a halo
// exchange on the GPU (docs/architecture.md §5) so that one contiguous read-back follows.
// Twin: CpuBackend::download_indices. The host checks 0 <= indices[k] < size of x.
// scfd: kernel
// scfd: in x
// scfd: index int indices
// scfd: buffer real send
uniform uint n;

void main() {
  uint k = scfd_gid();
  if (k >= n) return;
  send[k] = load_x(uint(indices[k]));
}
