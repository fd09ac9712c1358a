// The GL backend's driver (docs/gpu.md §9): how kernel bodies run, and every operation that
// differs between gl-compute and gl-raster. ComputeDriver (compute_driver.hpp) runs bodies as
// compute shaders, reduces by workgroup partials and moves halo values through staging buffers;
// FragmentDriver (fragment_driver.hpp) draws bodies as fragment programs over texture fields,
// reduces by fold passes and writes halo receives and boundary values as GL_POINTS. A GlBackend
// owns one and never asks which one it has.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "backend/backend.hpp"
#include "backend/opengl/fields.hpp"
#include "gl/body.hpp"
#include "gl/context.hpp"
#include "topology/mesh.hpp"

namespace scfd::backend::opengl {

class GlBackend;
class GlScalars;

// download_indices keeps device copies of at most this many index lists (a run's halo plans
// pass one per entity kind), and the fragment driver as many point lists of upload_entries; the
// oldest is dropped when a new one would exceed it.
constexpr std::size_t kMaxIndexLists = 16;

// Backend::slot_op (op: its SlotOp) or slot_check_positive (op: check_positive): the new values
// of slots out .. out + count - 1 from slots a, b (and flag, tag), kernels/slot_ops.glsl.
struct SlotProgram {
  static constexpr std::uint32_t check_positive = 3;
  std::uint32_t op = 0;
  index out = 0, a = 0, b = 0, flag = 0;
  real tag = 0;
  index count = 1;
};

// The uniforms of slot_value.glsl for new value `which` of p.
inline void set_slot_uniforms(scfd::gl::Body& b, const SlotProgram& p, index which) {
  b.set("op", p.op);
  b.set("out_slot", static_cast<std::uint32_t>(p.out));
  b.set("which", static_cast<std::uint32_t>(which));
  b.set("a_slot", static_cast<std::uint32_t>(p.a));
  b.set("b_slot", static_cast<std::uint32_t>(p.b));
  b.set("flag", static_cast<std::uint32_t>(p.flag));
  b.set_real("tag", p.tag);
}

class Driver {
 public:
  Driver() = default;
  Driver(const Driver&) = delete;
  Driver& operator=(const Driver&) = delete;
  virtual ~Driver() = default;

  // The backend's name (Backend::name) and what device_info adds to the device's description.
  virtual std::string name() const = 0;
  virtual std::string device_note() const = 0;
  // The GL version the backend's context asks for (gl::Context::create).
  virtual int gl_version() const = 0;
  // Whether reductions accumulate in double for fields of precision p on device d (else float).
  virtual bool accumulates_fp64(scfd::gl::Precision p, const scfd::gl::DeviceInfo& d) const = 0;
  // How bodies are compiled, the backend's and its Operators'.
  virtual scfd::gl::BodyCompiler body_compiler() const = 0;
  // Called once by the constructor of `be` (which outlives the driver) with its context current,
  // before any call below: the driver keeps `be` to compile and run bodies.
  virtual void start(const GlBackend& be) = 0;
  // Starts building every kernel the driver may run without waiting for any
  // (Backend::start_kernel_builds); nothing where the driver builds its kernels otherwise.
  virtual void start_builds() {}

  // The Backend calls that differ, their arguments checked by GlBackend.
  // out[k] = x[indices[k]] (download_indices_begin): `indices` is the device copy of
  // out.size() > 0 indices. Returns whether out holds the values; if not, gather_end(out) (the
  // same span) waits for them and returns where they are (Backend::download_indices_end).
  virtual bool gather_begin(const Buffer& indices, const FieldStorage& x, std::span<real> out) = 0;
  virtual std::span<const real> gather_end(std::span<real> out) = 0;
  // x[offset + k] = values[k] (upload_range; values not empty).
  virtual void upload_range(std::span<const real> values, FieldStorage& x, std::size_t offset) = 0;
  // Backend::receive_buffer (n > 0); none by default.
  virtual std::span<real> receive_buffer(std::size_t n) {
    static_cast<void>(n);
    return {};
  }
  // x[indices[k]] = values[k] (upload_indices; values not empty, the first and last index in x;
  // the driver checks that the indices ascend when it first sees a list; list_id as for
  // Backend::download_indices_begin).
  virtual void upload_indices(std::span<const real> values, std::span<const index> indices,
                              FieldStorage& x, std::uint64_t list_id) = 0;
  // x = 0 but x[entries[k]] = values[k] (upload_entries).
  virtual void upload_entries(std::span<const index> entries, std::span<const real> values,
                              FieldStorage& x) = 0;
  // y = value (fill; y not empty).
  virtual void fill(FieldStorage& y, real value) = 0;
  // Reductions over entries [0, n): read back (n > 0), or into slot `slot` of s on the device.
  virtual real dot(const FieldStorage& x, const FieldStorage& y, index n) = 0;
  virtual real max_abs(const FieldStorage& x, index n) = 0;
  virtual void dot(const FieldStorage& x, const FieldStorage& y, index n, GlScalars& s,
                   index slot) = 0;
  // Backend::dots: s[first + i] = x_i·y over entries [0, n), on the device.
  virtual void dots(std::span<const FieldStorage* const> x, const FieldStorage& y, index n,
                    GlScalars& s, index first) = 0;
  // Backend::slot_op and slot_check_positive (slots checked by GlBackend).
  virtual void slot_op(GlScalars& s, const SlotProgram& p) = 0;
  // Backend::pcg_update.
  virtual void pcg_update(int k, GlScalars& s, const FieldStorage& p, const FieldStorage& q,
                          const FieldStorage& dinv, FieldStorage& x, FieldStorage& r,
                          FieldStorage& z, index n) = 0;
  // The second half of Backend::pcg_ranks_update in one pass (after p and q; the slots checked
  // by GlBackend): x += alpha p, r -= alpha q, with dinv z = dinv .* r and s[slot_rz] = r·z, and
  // s[slot_rr] = r·r. false: this driver does not fuse it, and GlBackend runs Backend's default
  // (the fragment driver, whose passes are one per output anyway).
  virtual bool pcg_ranks_update(real /*alpha*/, const FieldStorage& /*p*/,
                                const FieldStorage& /*q*/, const FieldStorage* /*dinv*/,
                                FieldStorage& /*x*/, FieldStorage& /*r*/, FieldStorage& /*z*/,
                                index /*n*/, GlScalars& /*s*/, index /*slot_rz*/,
                                index /*slot_rr*/) {
    return false;
  }
  // Backend::make_node_system.
  virtual std::unique_ptr<NodeSystem> make_node_system(const topology::Mesh& m, const Field& d,
                                                       real b, const Field& w,
                                                       const Field& fixed) = 0;
};

}  // namespace scfd::backend::opengl
