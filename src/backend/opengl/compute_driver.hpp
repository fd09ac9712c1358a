// The compute driver of the GL backend, gl-compute (docs/architecture.md §3): bodies and kernels
// are compute shaders (gl/driver.hpp) on a GL 4.3 context, over buffer or texture fields.
// Reductions are one dispatch each into a buffer read back or a slot of Scalars, pcg_update is one
// fused pass, halo values cross through host-visible
// buffers waited on with fences, and node systems are assembled on the
// device.
#pragma once

#include <array>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backend/opengl/driver.hpp"
#include "gl/program.hpp"
#include "gl/sync.hpp"

namespace scfd::backend::opengl {

class ComputeDriver final : public Driver {
 public:
  std::string name() const override { return "gl-compute"; }
  std::string device_note() const override { return ""; }
  int gl_version() const override { return 43; }
  // In double whenever the device has fp64, also for fp32 fields (see compute_driver.cpp).
  bool accumulates_fp64(scfd::gl::Precision, const scfd::gl::DeviceInfo& d) const override {
    return d.fp64;
  }
  scfd::gl::BodyCompiler body_compiler() const override { return scfd::gl::compile_compute_body; }
  void start(const GlBackend& be) override;
  // The Operators' kernels, every other body (GlBackend::body), the kernels with their own main
  // (program) and the slot body, each as its first use would build it.
  void start_builds() override;

  // The gather writes into a host-visible buffer of its own per `out` (a halo plan's send
  // buffer), followed by a fence; gather_end waits on the fence and returns that buffer's
  // memory (fp64; halo messages are sent from it) or converts it into out (fp32).
  bool gather_begin(const Buffer& indices, const FieldStorage& x, std::span<real> out) override;
  std::span<const real> gather_end(std::span<real> out) override;
  void upload_range(std::span<const real> values, FieldStorage& x, std::size_t offset) override;
  // fp64 on GL >= 4.4: a staging buffer's mapped memory, set aside until an upload takes it.
  std::span<real> receive_buffer(std::size_t n) override;
  void upload_indices(std::span<const real> values, std::span<const index> indices, FieldStorage& x,
                      std::uint64_t list_id) override;
  // One upload of the whole field.
  void upload_entries(std::span<const index> entries, std::span<const real> values,
                      FieldStorage& x) override;
  void fill(FieldStorage& y, real value) override;
  real dot(const FieldStorage& x, const FieldStorage& y, index n) override;
  real max_abs(const FieldStorage& x, index n) override;
  void dots(std::span<const FieldStorage* const> x, const FieldStorage& y, index n, GlScalars& s,
            index first) override;
  void dot(const FieldStorage& x, const FieldStorage& y, index n, GlScalars& s,
           index slot) override;
  void slot_op(GlScalars& s, const SlotProgram& p) override;
  bool pcg_ranks_update(real alpha, const FieldStorage& p, const FieldStorage& q,
                        const FieldStorage* dinv, FieldStorage& x, FieldStorage& r, FieldStorage& z,
                        index n, GlScalars& s, index slot_rz, index slot_rr) override;
  void pcg_update(int k, GlScalars& s, const FieldStorage& p, const FieldStorage& q,
                  const FieldStorage& dinv, FieldStorage& x, FieldStorage& r, FieldStorage& z,
                  index n) override;
  // An AssembledNodeSystem (node_system.hpp).
  std::unique_ptr<NodeSystem> make_node_system(const topology::Mesh& m, const Field& d, real b,
                                               const Field& w, const Field& fixed) override;

 private:
  // A kernel with its own main, compiled on first use, with the accumulator types as defines;
  // reductions also get their geometry.
  scfd::gl::Program& program(const std::string& key);
  scfd::gl::Body& slot_body();  // slot_value.glsl for the scalars (acc precision, a buffer)
  // Runs reduction `prog`, bound with `partials` and `counter` as its first buffers, over n
  // entries (kBlock texels per workgroup; at least one workgroup, which writes the total of
  // nothing), with `partials` grown to `components` accumulators per workgroup first.
  void reduce(scfd::gl::Program& prog, index n, int components);
  // The total a reduction left in the result buffer.
  real read_result() const;

  const GlBackend* be_ = nullptr;
  std::map<std::string, scfd::gl::Program, std::less<>> programs_;  // kernels with their own main
  Buffer partials_;  // first-pass sums, grown on demand
  Buffer counter_;   // the reductions' workgroup tickets: one uint, 0 between dispatches
  // Host-visible (gl::Buffer::host_visible): the host reads them after a fence, not a read-back.
  Buffer result_;  // the reduced total read back by dot and max_abs
  // Gathers (download_indices) by their output span: the host-visible buffer the kernel writes,
  // grown on demand, and the fence behind it while one is pending (the last kMaxIndexLists
  // outputs; one pending per output).
  struct Send {
    const real* key = nullptr;
    std::size_t n = 0;  // values of the pending gather
    Buffer buffer;
    scfd::gl::Fence done;
  };
  std::deque<Send> sends_;
  // upload_range's inputs, host-visible, used in turn: the host writes one after the fence
  // placed behind the last kernel that read it (almost always passed), so an upload never
  // waits for the work queued before it.
  // A buffer handed out by receive_buffer is set aside until the upload of its values, and the
  // others are used in turn meanwhile.
  struct Staging {
    Buffer buffer;
    scfd::gl::Fence read;
    bool handed_out = false;
  };
  std::array<Staging, 8> receive_;
  std::size_t next_receive_ = 0;
  // The next staging buffer not handed out, its last upload finished.
  Staging& next_staging();
  // The staging buffer holding `values` (upload_range, upload_indices): the one receive_buffer
  // handed out for them, or the next one with the values written into it.
  Staging& stage(std::span<const real> values);
  // upload_indices: for each index list (the last kMaxIndexLists), the position of each entry of
  // [first, first + count) in the list, or -1 (kernels/upload_indices.glsl's map). A list with
  // an id (Backend::download_indices_begin) is found by it, any other by its data pointer and
  // its contents.
  struct ScatterMap {
    const index* key = nullptr;  // data pointer of the list it was made from
    std::uint64_t id = 0;
    std::vector<index> host;  // the list, to detect one edited in place (none with an id)
    std::size_t entries = 0;  // the list's size
    Buffer map;
    std::size_t first = 0, count = 0;
  };
  ScatterMap& scatter_map(std::span<const index> indices, std::uint64_t id);
  std::deque<ScatterMap> scatter_maps_;
  // slot_op: slot_value.glsl in the scalars' precision and its one-entry outputs (first use)
  std::unique_ptr<scfd::gl::Body> slot_body_;  // slot_body()
  std::array<FieldStorage, 3> slot_fields_;
};

}  // namespace scfd::backend::opengl
