// gather.glsl: y_k = x[indices[k]] for k < n (the fragment driver's halo send; gl-compute packs
// with download_indices.glsl into a storage buffer). Twin: CpuBackend::download_indices.
// scfd: body entry y
// scfd: in x
// scfd: index int indices

real entry(uint k) {
  return load_x(uint(indices[k]));
}
