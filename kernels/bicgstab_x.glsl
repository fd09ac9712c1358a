// bicgstab_x.glsl: the solution update of BiCGStab iteration k, x <- (x + alpha_k p_hat) +
// omega_k s_hat (two roundings, as two axpys), scalars from the device
// (backend::BicgstabSlots). Twin: CpuBackend::bicgstab_update. Element-wise over whole texels.
// scfd: body texel x
// scfd: in p_hat s_hat
// scfd: index acc scalars
#include "bicgstab_slots.glsl"
uniform uint s_rho;  // slot of rho_k

realv texel(uint t) {
  real alpha = real(bicgstab_alpha(s_rho)), omega = real(bicgstab_omega());
  precise realv x = texel_x(t) + alpha * texel_p_hat(t);
  precise realv y = x + omega * texel_s_hat(t);
  return y;
}
