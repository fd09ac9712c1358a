// scfd: include-only
// bicgstab_slots.glsl: the slots of a BiCGStab solve's scalars (backend::BicgstabSlots in
// backend/backend.hpp, which says what each holds) and alpha_k, omega_k formed from them as the
// cpu twins in backend/cpu/cpu_backend.cpp form them. The including kernel declares
// `// scfd: index acc scalars`.
const uint BI_R0V = 3u;
const uint BI_TS = 4u;
const uint BI_TT = 5u;

// alpha of the iteration whose r0·r is in slot s_rho (rho / r0·v), 0 when r0·v is 0 (a
// breakdown the solver restarts from at its next check).
acc bicgstab_alpha(uint s_rho) {
  acc r0v = scalars[BI_R0V];
  return r0v != acc(0) ? scalars[s_rho] / r0v : acc(0);
}
// omega = t·s / t·t, 0 when t·t is not > 0.
acc bicgstab_omega() {
  acc tt = scalars[BI_TT];
  return tt > acc(0) ? scalars[BI_TS] / tt : acc(0);
}
