// The GL backend's Scalars and the Krylov updates that read them on the device (see scalars.hpp):
// pcg_direction and the BiCGStab steps are bodies that take their coefficients from the slots.
#include "backend/opengl/scalars.hpp"

#include <cstdint>
#include <vector>

#include "backend/opengl/gl_backend.hpp"
#include "core/error.hpp"
#include "gl/sync.hpp"

namespace scfd::backend::opengl {

namespace gl = scfd::gl;

GlScalars& gl_scalars(Scalars& s) {
  auto* g = dynamic_cast<GlScalars*>(&s);
  SCFD_CHECK(g != nullptr, "scalars of another backend were passed to the gl-compute backend");
  return *g;
}
const GlScalars& gl_scalars(const Scalars& s) {
  const auto* g = dynamic_cast<const GlScalars*>(&s);
  SCFD_CHECK(g != nullptr, "scalars of another backend were passed to the gl-compute backend");
  return *g;
}

std::unique_ptr<Scalars> GlBackend::make_scalars(index n) const {
  auto s = std::make_unique<GlScalars>(n, acc_precision());
  write_scalars(std::vector<real>(static_cast<std::size_t>(n), 0), *s);
  return s;
}

void GlBackend::read_scalars(const Scalars& sf, std::span<real> out) const {
  const GlScalars& s = gl_scalars(sf);
  SCFD_CHECK(out.size() == static_cast<std::size_t>(s.size()), "read {} scalars into {}", s.size(),
             out.size());
  s.buffer().copy_to(s.staging(), 0, 0, s.buffer().size());
  read_reals(s.staging(), out, s.acc());  // waits for the copy (a fence, not a read-back)
}

void GlBackend::write_scalars(std::span<const real> in, Scalars& sf) const {
  GlScalars& s = gl_scalars(sf);
  SCFD_CHECK(in.size() == static_cast<std::size_t>(s.size()), "write {} scalars into {}", in.size(),
             s.size());
  // Kernels read and write the slots, and a copy must not overtake their writes
  // (FieldStorage::upload): wait for them (after a global sum, the GPU is idle already).
  scfd::gl::wait_for_gpu();
  write_reals(s.staging(), in, 0, s.acc());
  s.staging().copy_to(s.buffer(), 0, 0, s.buffer().size());
}

void GlBackend::slot_op(Scalars& s, index out, index a, SlotOp op, index b) const {
  GlScalars& g = gl_scalars(s);
  for (const index i : {out, a, b})
    SCFD_CHECK(i >= 0 && i < g.size(), "slot {} of {} scalars", i, g.size());
  driver().slot_op(g, SlotProgram{static_cast<std::uint32_t>(op), out, a, b, 0, 0, 1});
}

void GlBackend::slot_check_positive(Scalars& s, index a, index b, index flag, real tag) const {
  GlScalars& g = gl_scalars(s);
  for (const index i : {a, b, flag, flag + 2})
    SCFD_CHECK(i >= 0 && i < g.size(), "slot {} of {} scalars", i, g.size());
  driver().slot_op(g, SlotProgram{SlotProgram::check_positive, flag, a, b, flag, tag, 3});
}

void GlBackend::slot_update(const char* kernel, const Scalars& s, SlotCoefficient a, const Field& x,
                            Field& y) const {
  check_same_size(x, y);
  const GlScalars& g = gl_scalars(s);
  SCFD_CHECK(a.slot >= 0 && a.slot < g.size() && a.gate < g.size(), "slot {} (gate {}) of {}",
             a.slot, a.gate, g.size());
  if (y.size() == 0) return;
  gl::Body& prog = body(kernel);
  prog.bind({&g.buffer()}, {&storage(x)}, {&storage(y)});
  prog.set("slot", u32(a.slot));
  prog.set("gate", static_cast<std::int32_t>(a.gate));
  prog.set_real("sign", a.sign);
  prog.set("inverse_sqrt", a.inverse_sqrt ? 1u : 0u);
  prog.run(static_cast<std::size_t>(y.size()));
}

void GlBackend::axpy(const Scalars& s, SlotCoefficient a, const Field& x, Field& y) const {
  slot_update("axpy_slot", s, a, x, y);
}

void GlBackend::xpay(const Field& x, const Scalars& s, SlotCoefficient a, Field& y) const {
  slot_update("xpay_slot", s, a, x, y);
}

// Four terms per kernel (kernels/axpys.glsl), the unused inputs bound to the first.
void GlBackend::axpys(const Scalars& s, index first, real sign, std::span<const Field* const> x,
                      Field& y) const {
  const GlScalars& g = gl_scalars(s);
  SCFD_CHECK(first >= 0 && first + static_cast<index>(x.size()) <= g.size(),
             "axpys from slots {}..{} of {}", first, first + static_cast<index>(x.size()),
             g.size());
  for (const Field* f : x) check_same_size(*f, y);
  if (y.size() == 0) return;
  constexpr std::size_t kPer = 4;
  gl::Body& prog = body("axpys");
  for (std::size_t i = 0; i < x.size(); i += kPer) {
    const std::size_t count = std::min(kPer, x.size() - i);
    const auto in = [&](std::size_t k) { return &storage(*x[i + (k < count ? k : 0)]); };
    prog.bind({&g.buffer()}, {in(0), in(1), in(2), in(3)}, {&storage(y)});
    prog.set("first", u32(first + static_cast<index>(i)));
    prog.set("count", u32(count));
    prog.set_real("sign", sign);
    prog.run(static_cast<std::size_t>(y.size()));
  }
}

void GlBackend::pcg_direction(int k, Scalars& sf, const Field& z, Field& p) const {
  check_same_size(z, p);
  if (p.size() == 0) return;
  gl::Body& prog = body("pcg_direction");
  prog.bind({&gl_scalars(sf).buffer()}, {&storage(z)}, {&storage(p)});
  prog.set("s_rz", u32(PcgSlots::rz_before(k)));
  prog.set("s_rz_new", u32(PcgSlots::rz_after(k)));
  prog.run(static_cast<std::size_t>(p.size()));
}

void GlBackend::bicgstab_direction(int k, Scalars& sf, const Field& r, const Field& v,
                                   Field& p) const {
  check_same_size(r, p);
  check_same_size(v, p);
  if (p.size() == 0) return;
  gl::Body& prog = body("bicgstab_direction");
  prog.bind({&gl_scalars(sf).buffer()}, {&storage(r), &storage(v)}, {&storage(p)});
  prog.set("s_rho", u32(BicgstabSlots::rho_now(k)));
  prog.set("s_rho_prev", u32(BicgstabSlots::rho_before(k)));
  prog.run(static_cast<std::size_t>(p.size()));
}

void GlBackend::bicgstab_half(int k, Scalars& sf, const Field& r, const Field& v, Field& y) const {
  check_same_size(r, y);
  check_same_size(v, y);
  if (y.size() == 0) return;
  gl::Body& prog = body("bicgstab_half");
  prog.bind({&gl_scalars(sf).buffer()}, {&storage(r), &storage(v)}, {&storage(y)});
  prog.set("s_rho", u32(BicgstabSlots::rho_now(k)));
  prog.run(static_cast<std::size_t>(y.size()));
}

void GlBackend::bicgstab_update(int k, Scalars& sf, const Field& p_hat, const Field& s_hat,
                                const Field& y, const Field& t, Field& x, Field& r) const {
  for (const Field* f : {&p_hat, &s_hat, &y, &t, static_cast<const Field*>(&r)})
    check_same_size(*f, x);
  if (x.size() == 0) return;
  gl::Body& px = body("bicgstab_x");
  px.bind({&gl_scalars(sf).buffer()}, {&storage(p_hat), &storage(s_hat)}, {&storage(x)});
  px.set("s_rho", u32(BicgstabSlots::rho_now(k)));
  px.run(static_cast<std::size_t>(x.size()));
  gl::Body& pr = body("bicgstab_r");
  pr.bind({&gl_scalars(sf).buffer()}, {&storage(y), &storage(t)}, {&storage(r)});
  pr.run(static_cast<std::size_t>(r.size()));
}

}  // namespace scfd::backend::opengl
