// The compute driver (see compute_driver.hpp). Each operation is one compute kernel of kernels/
// named after it (fill, dot, max_abs, pcg_update, download_indices, upload_range,
// upload_indices), the twin of
// the CpuBackend method of the same name.
//
// Reductions (dot, pcg_update, max_abs) are one dispatch each: every workgroup combines a fixed
// block of kReduceLocal * kReduceItems consecutive entries by a shared-memory tree into one
// partial, and the workgroup that finishes last (an atomic ticket on `counter`, kernels/
// reduce.glsl) combines the partials in a fixed order and writes the total (8 or 16 bytes) where
// the host reads it back, or into a slot of Scalars, which stay on the device. No sum depends on
// timing or on float atomics, so a reduction over the same data gives the same bits every run
// (docs/architecture.md §8.3); a maximum (max_abs) is moreover exact, so it equals the cpu's.
//
// Accumulator precision: sums and products are accumulated in double whenever the device has
// fp64 — also for fp32 fields. The product of two floats is exact in double, so an fp32 dot
// product then carries only the rounding of the fp32 vectors themselves, not a summation error
// that grows with n; this keeps PCG's scalars (alpha, beta, the residual that decides
// convergence) as good as the fp32 vectors allow. The cost is nil: the reductions are
// bandwidth-bound (2 flops per 8-28 bytes read). A device without fp64 accumulates in float.
//
// Programs are compiled on first use, so a process that only moves vectors compiles few kernels.
#include "backend/opengl/compute_driver.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "backend/opengl/gl_backend.hpp"
#include "backend/opengl/node_system.hpp"
#include "backend/opengl/scalars.hpp"
#include "core/error.hpp"

namespace scfd::backend::opengl {

namespace gl = scfd::gl;
using gl::Precision;

namespace {

// Reduction geometry: 256 invocations x 4 entries per first-pass workgroup. At 1M entries the
// first pass has 1024 workgroups (enough to fill a large GPU) and the second pass adds 1024
// partials in one workgroup.
constexpr unsigned kReduceLocal = 256;
constexpr unsigned kReduceItems = 4;
constexpr std::size_t kBlock = std::size_t{kReduceLocal} * kReduceItems;

void reserve(Buffer& b, std::size_t bytes) {
  if (b.size() < bytes) b = Buffer(bytes);
}

void reserve_host_visible(Buffer& b, std::size_t bytes) {
  if (b.size() < bytes) b = Buffer::host_visible(bytes);
}

// The texels a kernel writes to cover entries [first, first + count).
std::size_t texels_of(std::size_t first, std::size_t count, std::size_t per_texel) {
  return (first + count - 1) / per_texel - first / per_texel + 1;
}

}  // namespace

void ComputeDriver::start(const GlBackend& be) {
  be_ = &be;
  partials_ = Buffer(2 * sizeof(double));
  counter_ = Buffer::from<std::uint32_t>(std::vector<std::uint32_t>{0});
  result_ = Buffer::host_visible(sizeof(double));
}

namespace {

// The kernels with their own main that program() builds.
constexpr std::array<std::string_view, 9> kProgramKernels = {
    "dot",         "dots",       "download_indices", "fill",
    "max_abs",     "pcg_update", "pcg_ranks_update", "upload_indices",
    "upload_range"};

}  // namespace

void ComputeDriver::start_builds() {
  be_->ops();
  for (std::string kernel : gl::compilable_kernels()) {
    kernel.resize(kernel.size() - std::string_view(".glsl").size());
    if (gl::parse_spec(kernel, gl::embedded_text(kernel + ".glsl")).is_body()) be_->body(kernel);
  }
  for (const std::string_view kernel : kProgramKernels) program(std::string(kernel));
  slot_body();
}

gl::Body& ComputeDriver::slot_body() {
  if (!slot_body_)
    slot_body_ = gl::compile_compute_body("slot_value", be_->acc_precision(), be_->acc_defines(),
                                          gl::Storage::buffer);
  return *slot_body_;
}

gl::Program& ComputeDriver::program(const std::string& key) {
  if (auto it = programs_.find(key); it != programs_.end()) return it->second;
  SCFD_CHECK(
      std::find(kProgramKernels.begin(), kProgramKernels.end(), key) != kProgramKernels.end(),
      "kernels/{}.glsl is not among the compute driver's programs", key);
  gl::Defines defines = be_->acc_defines();
  if (key == "dot" || key == "dots" || key == "pcg_update" || key == "pcg_ranks_update" ||
      key == "max_abs") {
    defines.emplace_back("LOCAL_SIZE", std::to_string(kReduceLocal));
    defines.emplace_back("ITEMS", std::to_string(kReduceItems));
  }
  return programs_
      .emplace(key, gl::start_compute(key, be_->gl_precision(), defines, be_->storage_kind()))
      .first->second;
}

void ComputeDriver::reduce(gl::Program& prog, index n, int components) {
  const std::size_t per_texel = be_->gl_precision() == Precision::fp64 ? 2 : 4;
  const std::size_t texels = (static_cast<std::size_t>(n) + per_texel - 1) / per_texel;
  const std::size_t groups = std::max<std::size_t>((texels + kBlock - 1) / kBlock, 1);
  reserve(partials_,
          groups * static_cast<std::size_t>(components) * real_bytes(be_->acc_precision()));
  partials_.bind(0);  // re-bound: reserve may have replaced the buffer
  prog.set("n", u32(n));
  prog.dispatch(groups * kReduceLocal);
}

real ComputeDriver::read_result() const {
  real v = 0;
  read_reals(result_, std::span<real>(&v, 1), be_->acc_precision());
  return v;
}

bool ComputeDriver::gather_begin(const Buffer& indices, const FieldStorage& x,
                                 std::span<real> out) {
  auto it = std::find_if(sends_.begin(), sends_.end(),
                         [&](const Send& s) { return s.key == out.data(); });
  if (it == sends_.end()) {
    if (sends_.size() >= kMaxIndexLists) {  // forget the oldest output with nothing pending
      const auto idle = std::find_if(sends_.begin(), sends_.end(),
                                     [](const Send& s) { return !s.done.placed(); });
      if (idle != sends_.end()) sends_.erase(idle);
    }
    it = sends_.insert(sends_.end(), Send{});
    it->key = out.data();
  }
  SCFD_CHECK(!it->done.placed(), "download_indices_begin: a gather into this output is pending");
  reserve_host_visible(it->buffer, out.size() * real_bytes(be_->gl_precision()));
  gl::Program& prog = program("download_indices");
  prog.bind({&indices, &it->buffer}, {&x}, {});
  prog.set("n", static_cast<std::uint32_t>(out.size()));
  prog.dispatch(out.size());
  it->done.place_for_host();  // the GPU starts on the gather while the host queues what follows
  it->n = out.size();
  return false;
}

std::span<const real> ComputeDriver::gather_end(std::span<real> out) {
  auto it = std::find_if(sends_.begin(), sends_.end(),
                         [&](const Send& s) { return s.key == out.data(); });
  SCFD_CHECK(it != sends_.end() && it->n == out.size(),
             "download_indices_end without its begin ({} values)", out.size());
  it->done.wait();
  it->n = 0;
  const std::byte* at = it->buffer.mapped();
  if (at == nullptr) {  // below GL 4.4: a read-back
    read_reals(it->buffer, out, be_->gl_precision());
  } else if (be_->gl_precision() == Precision::fp64) {  // the values as the gather wrote them
    return {reinterpret_cast<const real*>(at), out.size()};
  } else {  // no further wait: work queued after the gather may still be running
    for (std::size_t k = 0; k < out.size(); ++k) {
      float v = 0;
      std::memcpy(&v, at + k * sizeof(float), sizeof v);
      out[k] = static_cast<real>(v);
    }
  }
  return out;
}

ComputeDriver::Staging& ComputeDriver::next_staging() {
  std::size_t tried = 0;
  while (receive_[next_receive_].handed_out) {
    SCFD_CHECK(++tried < receive_.size(),
               "gl-compute: all {} staging buffers are handed out to receives not yet uploaded",
               receive_.size());
    next_receive_ = (next_receive_ + 1) % receive_.size();
  }
  Staging& s = receive_[next_receive_];
  next_receive_ = (next_receive_ + 1) % receive_.size();
  s.read.wait();
  return s;
}

std::span<real> ComputeDriver::receive_buffer(std::size_t n) {
  if (be_->gl_precision() != Precision::fp64 || gl::gl_version() < 44) return {};
  Staging& s = next_staging();
  reserve_host_visible(s.buffer, n * sizeof(real));
  s.handed_out = true;
  return {reinterpret_cast<real*>(s.buffer.mapped()), n};
}

ComputeDriver::Staging& ComputeDriver::stage(std::span<const real> values) {
  for (Staging& s : receive_) {
    if (s.handed_out && reinterpret_cast<const real*>(s.buffer.mapped()) == values.data()) {
      SCFD_CHECK(values.size_bytes() <= s.buffer.size(),
                 "an upload of {} values from a receive buffer of {} bytes", values.size(),
                 s.buffer.size());
      s.handed_out = false;
      return s;  // received in place: nothing to write
    }
  }
  Staging& s = next_staging();
  reserve_host_visible(s.buffer, values.size() * real_bytes(be_->gl_precision()));
  write_reals(s.buffer, values, 0, be_->gl_precision());
  return s;
}

void ComputeDriver::upload_range(std::span<const real> values, FieldStorage& x,
                                 std::size_t offset) {
  // Through a staging buffer and a kernel for both storages: a transfer straight into a field's
  // buffer would have to wait for the kernels before it (see FieldStorage::upload).
  Staging& s = stage(values);
  gl::Program& prog = program("upload_range");
  prog.bind({&s.buffer}, {}, {&x});
  prog.set("offset", static_cast<std::uint32_t>(offset));
  prog.set("count", static_cast<std::uint32_t>(values.size()));
  prog.dispatch(texels_of(offset, values.size(), x.layout().per_texel));
  s.read.place();
}

ComputeDriver::ScatterMap& ComputeDriver::scatter_map(std::span<const index> indices,
                                                      std::uint64_t id) {
  auto it = std::find_if(scatter_maps_.begin(), scatter_maps_.end(), [&](const ScatterMap& m) {
    return id != 0 ? m.id == id
                   : m.id == 0 && m.key == indices.data() && m.entries == indices.size();
  });
  if (it != scatter_maps_.end() &&
      (id != 0 || std::equal(it->host.begin(), it->host.end(), indices.begin()))) {
    SCFD_CHECK(it->entries == indices.size(), "index list {} had {} entries, now {}", id,
               it->entries, indices.size());
    return *it;
  }
  if (it == scatter_maps_.end()) {
    if (scatter_maps_.size() == kMaxIndexLists) scatter_maps_.pop_front();
    it = scatter_maps_.insert(scatter_maps_.end(), ScatterMap{});
  }
  for (std::size_t k = 1; k < indices.size(); ++k)
    SCFD_CHECK(indices[k - 1] < indices[k], "upload_indices: index {} after {}", indices[k],
               indices[k - 1]);
  it->key = indices.data();
  it->id = id;
  it->entries = indices.size();
  if (id == 0) it->host.assign(indices.begin(), indices.end());
  it->first = static_cast<std::size_t>(indices.front());
  it->count = static_cast<std::size_t>(indices.back() - indices.front()) + 1;
  std::vector<index> map(it->count, -1);
  for (std::size_t k = 0; k < indices.size(); ++k)
    map[static_cast<std::size_t>(indices[k]) - it->first] = static_cast<index>(k);
  it->map = Buffer::from<index>(map);
  return *it;
}

void ComputeDriver::upload_indices(std::span<const real> values, std::span<const index> indices,
                                   FieldStorage& x, std::uint64_t list_id) {
  const ScatterMap& m = scatter_map(indices, list_id);
  Staging& s = stage(values);
  gl::Program& prog = program("upload_indices");
  prog.bind({&s.buffer, &m.map}, {}, {&x});
  prog.set("first", static_cast<std::uint32_t>(m.first));
  prog.set("count", static_cast<std::uint32_t>(m.count));
  prog.dispatch(texels_of(m.first, m.count, x.layout().per_texel));
  s.read.place();
}

void ComputeDriver::upload_entries(std::span<const index> entries, std::span<const real> values,
                                   FieldStorage& x) {
  std::vector<real> host(x.size(), 0);
  for (std::size_t k = 0; k < entries.size(); ++k)
    host[static_cast<std::size_t>(entries[k])] = values[k];
  x.upload(host);
}

void ComputeDriver::fill(FieldStorage& y, real value) {
  gl::Program& prog = program("fill");
  const std::size_t texels = y.texels();
  prog.bind({}, {}, {&y});
  prog.set_real("value", value);
  prog.set("n", static_cast<std::uint32_t>(y.size()));
  prog.set("texels", static_cast<std::uint32_t>(texels));
  prog.dispatch(texels);
}

real ComputeDriver::dot(const FieldStorage& x, const FieldStorage& y, index n) {
  gl::Program& prog = program("dot");
  prog.bind({&partials_, &counter_, &result_}, {&x, &y}, {});
  prog.set("slot", 0u);
  reduce(prog, n, 1);
  return read_result();
}

real ComputeDriver::max_abs(const FieldStorage& x, index n) {
  gl::Program& prog = program("max_abs");
  prog.bind({&partials_, &counter_, &result_}, {&x}, {});
  reduce(prog, n, 1);
  return read_result();
}

void ComputeDriver::dot(const FieldStorage& x, const FieldStorage& y, index n, GlScalars& s,
                        index slot) {
  gl::Program& prog = program("dot");
  prog.bind({&partials_, &counter_, &s.buffer()}, {&x, &y}, {});
  prog.set("slot", u32(slot));
  reduce(prog, n, 1);
}

// Four dot products per dispatch (kernels/dots.glsl), the unused inputs bound to x_0.
void ComputeDriver::dots(std::span<const FieldStorage* const> x, const FieldStorage& y, index n,
                         GlScalars& s, index first) {
  constexpr std::size_t kPer = 4;
  gl::Program& prog = program("dots");
  for (std::size_t i = 0; i < x.size(); i += kPer) {
    const std::size_t count = std::min(kPer, x.size() - i);
    const auto in = [&](std::size_t k) { return x[i + (k < count ? k : 0)]; };
    prog.bind({&partials_, &counter_, &s.buffer()}, {in(0), in(1), in(2), in(3), &y}, {});
    prog.set("slot", u32(first + static_cast<index>(i)));
    prog.set("count", u32(count));
    reduce(prog, n, static_cast<int>(count));
  }
}

// As the fragment driver: each new slot value is entry 0 of a one-entry field written by
// slot_value.glsl (all before any is stored, so each reads the slots as they were), here a
// storage buffer in the scalars' precision (the body compiled for it), copied into its slot.
// A kernel that wrote the slots itself (a single invocation dividing two doubles read from the
// same buffer) gave float's quotient on an H100 (driver 580), where this body gives the double.
void ComputeDriver::slot_op(GlScalars& s, const SlotProgram& p) {
  SCFD_CHECK(s.acc() == be_->acc_precision(), "slot operation on scalars of another precision");
  gl::Body& body = slot_body();
  for (index j = 0; j < p.count; ++j) {
    auto& out = slot_fields_[static_cast<std::size_t>(j)];
    if (out.size() == 0 || out.precision() != s.acc())
      out = FieldStorage(1, s.acc(), gl::Storage::buffer, be_->device().max_texture_size);
    body.bind({&s.buffer()}, {}, {&out});
    set_slot_uniforms(body, p, j);
    body.run(1);
  }
  const std::size_t bytes = real_bytes(s.acc());
  for (index j = 0; j < p.count; ++j)
    slot_fields_[static_cast<std::size_t>(j)].buffer().copy_to(
        s.buffer(), 0, static_cast<std::size_t>(p.out + j) * bytes, bytes);
}

void ComputeDriver::pcg_update(int k, GlScalars& s, const FieldStorage& p, const FieldStorage& q,
                               const FieldStorage& dinv, FieldStorage& x, FieldStorage& r,
                               FieldStorage& z, index n) {
  gl::Program& prog = program("pcg_update");
  prog.bind({&partials_, &counter_, &s.buffer()}, {&p, &q, &dinv}, {&x, &r, &z});
  prog.set("s_rz", u32(PcgSlots::rz_before(k)));
  prog.set("s_rz_new", u32(PcgSlots::rz_after(k)));
  prog.set("k", static_cast<std::uint32_t>(k));
  reduce(prog, n, 2);
}

bool ComputeDriver::pcg_ranks_update(real alpha, const FieldStorage& p, const FieldStorage& q,
                                     const FieldStorage* dinv, FieldStorage& x, FieldStorage& r,
                                     FieldStorage& z, index n, GlScalars& s, index slot_rz,
                                     index slot_rr) {
  gl::Program& prog = program("pcg_ranks_update");
  prog.bind({&partials_, &counter_, &s.buffer()}, {&p, &q, dinv != nullptr ? dinv : &p},
            {&x, &r, &z});
  prog.set_real("alpha", alpha);
  prog.set("jacobi", dinv != nullptr ? 1u : 0u);
  prog.set("s_rz", u32(slot_rz));
  prog.set("s_rr", u32(slot_rr));
  reduce(prog, n, 2);
  return true;
}

std::unique_ptr<NodeSystem> ComputeDriver::make_node_system(const topology::Mesh& m, const Field& d,
                                                            real b, const Field& w,
                                                            const Field& fixed) {
  return std::make_unique<AssembledNodeSystem>(*be_, m, d, b, w, fixed);
}

}  // namespace scfd::backend::opengl
