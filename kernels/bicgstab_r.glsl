// bicgstab_r.glsl: the residual update of BiCGStab iteration k, r <- y - omega_k t (y: the half
// step's vector), omega_k from the scalars on the device (backend::BicgstabSlots). Twin:
// CpuBackend::bicgstab_update. Element-wise over whole texels.
// scfd: body texel r
// scfd: in y t
// scfd: index acc scalars
#include "bicgstab_slots.glsl"

realv texel(uint i) {
  real omega = real(bicgstab_omega());
  precise realv r = texel_y(i) - omega * texel_t(i);  // precise: as the cpu's axpy
  return r;
}
