// bicgstab_direction.glsl: the search direction of BiCGStab iteration k (solvers/bicgstab.cpp),
// p <- r + beta (p - omega v), beta = (rho_k / rho_{k-1}) (alpha_{k-1} / omega_{k-1}) (0 when a
// divisor is 0), every scalar taken from the scalars on the device (backend::BicgstabSlots).
// Twin: CpuBackend::bicgstab_direction. Element-wise over whole texels, as xpay.glsl.
// scfd: body texel p
// scfd: in r v
// scfd: index acc scalars
#include "bicgstab_slots.glsl"
uniform uint s_rho;       // slot of rho_k
uniform uint s_rho_prev;  // slot of rho_{k-1}

realv texel(uint t) {
  acc rho = scalars[s_rho], rho_prev = scalars[s_rho_prev];
  acc omega_acc = bicgstab_omega();
  real omega = real(omega_acc);
  // beta 0 (p = r) when rho_{k-1} or omega_{k-1} is 0, as the twin.
  real beta = rho_prev != acc(0) && omega_acc != acc(0)
                  ? real((rho / rho_prev) * (bicgstab_alpha(s_rho_prev) / omega_acc))
                  : real(0);
  // precise: no fused multiply-add, so fp64 matches the cpu's axpy and xpay bit for bit.
  precise realv d = texel_p(t) - omega * texel_v(t);
  precise realv p = texel_r(t) + beta * d;
  return p;
}
