// bicgstab_half.glsl: the half step of BiCGStab iteration k, y <- r - alpha_k v, alpha_k from the
// scalars on the device (backend::BicgstabSlots). Twin: CpuBackend::bicgstab_half. Element-wise
// over whole texels.
// scfd: body texel y
// scfd: in r v
// scfd: index acc scalars
#include "bicgstab_slots.glsl"
uniform uint s_rho;  // slot of rho_k

realv texel(uint t) {
  real alpha = real(bicgstab_alpha(s_rho));
  precise realv y = texel_r(t) - alpha * texel_v(t);  // precise: as the cpu's axpy
  return y;
}
