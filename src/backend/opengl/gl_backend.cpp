// The gl-compute backend (see gl_backend.hpp). Each Backend call is one compute kernel of kernels/
// named after it (fill, copy, axpy, xpay, scale, multiply, reciprocal, dot, max_abs, pcg_update,
// pcg_direction, download_indices), the twin of the CpuBackend method of the same name; operators
// go through Operators on a DeviceMesh cached per Mesh.
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
#include "backend/opengl/gl_backend.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <list>
#include <map>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "gl/point_writer.hpp"
#include "gl/raster_reducer.hpp"

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

// download_indices keeps device copies of at most this many index lists (a run's halo plans
// pass one per entity kind); the oldest is dropped when a new one would exceed it.
constexpr std::size_t kMaxIndexLists = 16;

std::size_t real_bytes(Precision p) {
  return p == Precision::fp64 ? sizeof(double) : sizeof(float);
}

std::uint32_t u32(index n) {
  return static_cast<std::uint32_t>(n);
}

// Writes host values into `b` from element `first` on, rounded to float for fp32 buffers.
void write_reals(Buffer& b, std::span<const real> v, std::size_t first, Precision p) {
  if (p == Precision::fp64) {
    b.upload<real>(v, first);
    return;
  }
  std::vector<float> f(v.size());
  std::transform(v.begin(), v.end(), f.begin(), [](real x) { return static_cast<float>(x); });
  b.upload<float>(f, first);
}

// Reads the first out.size() elements of `b` into host values.
void read_reals(const Buffer& b, std::span<real> out, Precision p) {
  if (p == Precision::fp64) {
    b.download_bytes(out.data(), out.size_bytes(), 0);
    return;
  }
  std::vector<float> f(out.size());
  b.download_bytes(f.data(), f.size() * sizeof(float), 0);
  std::copy(f.begin(), f.end(), out.begin());
}

// Scalars in a storage buffer of accumulators: `acc` is fp64 (double) or, on a device without
// fp64, fp32 (float).
class GlScalars final : public Scalars {
 public:
  GlScalars(index n, Precision acc)
      : n_(n),
        acc_(acc),
        buffer_(static_cast<std::size_t>(std::max<index>(n, 1)) * real_bytes(acc)) {}
  index size() const override { return n_; }
  Precision acc() const { return acc_; }
  Buffer& buffer() { return buffer_; }
  const Buffer& buffer() const { return buffer_; }

 private:
  index n_;
  Precision acc_;
  Buffer buffer_;
};

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

void check_same_size(const Field& a, const Field& b) {
  SCFD_CHECK(a.size() == b.size(), "field sizes differ: {} vs {}", a.size(), b.size());
}

// A device copy of an index list given to download_indices, with the host copy it was made from.
struct IndexList {
  const index* key = nullptr;  // data pointer of the span it was made from
  std::vector<index> host;
  Buffer device;
  index max = -1;  // largest index (all are >= 0)
};

}  // namespace

GlField::GlField(index n, Precision p, gl::Storage s, int max_texture_size,
                 std::shared_ptr<std::size_t> held)
    : n_(n), storage_(static_cast<std::size_t>(n), p, s, max_texture_size), held_(std::move(held)) {
  *held_ += storage_.bytes();
}

GlField::~GlField() {
  *held_ -= storage_.bytes();
}

FieldStorage& storage(Field& f) {
  auto* g = dynamic_cast<GlField*>(&f);
  SCFD_CHECK(g != nullptr, "a field of another backend was passed to the gl-compute backend");
  return g->storage();
}
const FieldStorage& storage(const Field& f) {
  const auto* g = dynamic_cast<const GlField*>(&f);
  SCFD_CHECK(g != nullptr, "a field of another backend was passed to the gl-compute backend");
  return g->storage();
}

struct GlBackend::State {
  // Declared first: destroyed last, so every buffer and program below is freed in its context.
  gl::Context context;
  Precision precision;
  gl::Storage storage;
  gl::Driver driver;
  // Reductions accumulate in double (see the top of this file); under the fragment driver in
  // the fields' precision (its passes store partial sums in fields).
  bool acc_fp64;
  std::map<std::string, gl::Program, std::less<>> programs;  // kernels with their own main
  std::map<std::string, std::unique_ptr<gl::Body>, std::less<>> bodies;
  std::unique_ptr<Operators> operators;
  std::vector<std::unique_ptr<DeviceMesh>> meshes;
  Buffer partials;  // first-pass sums, grown on demand
  Buffer counter;   // the reductions' workgroup tickets: one uint, 0 between dispatches
  Buffer result;    // the reduced total read back by dot and max_abs
  Buffer send;      // download_indices output, grown on demand
  Buffer receive;   // upload_range input, grown on demand
  std::vector<IndexList> index_lists;
  // The fragment driver's reductions, halo receives (a point list per range written) and halo
  // sends (a field per send size).
  std::unique_ptr<gl::RasterReducer> reducer;
  std::unique_ptr<gl::PointWriter> points;
  std::vector<std::pair<std::array<std::size_t, 3>, gl::PointWriter::Points>> point_lists;
  std::map<std::size_t, FieldStorage> send_fields;
  struct EntryPoints {  // a point list of upload_entries (boundary values)
    const index* key = nullptr;
    std::size_t width = 0;
    std::vector<index> host;
    gl::PointWriter::Points points;
  };
  std::list<EntryPoints> entry_lists;  // a list: references to its elements stay valid
  // FieldStorage bytes of the live fields (GlField adds and removes its own); shared, so a field
  // that outlives the backend by mistake does not write into freed memory.
  std::shared_ptr<std::size_t> field_bytes = std::make_shared<std::size_t>(0);
  std::size_t system_bytes = 0;  // coefficients of the live assembled node systems

  State(gl::Context c, Precision p, gl::Storage s, gl::Driver d)
      : context(std::move(c)),
        precision(p),
        storage(s),
        driver(d),
        acc_fp64(d == gl::Driver::raster ? p == Precision::fp64 : context.info().fp64),
        partials(2 * sizeof(double)),
        counter(Buffer::from<std::uint32_t>(std::vector<std::uint32_t>{0})),
        result(sizeof(double)) {}

  gl::Defines acc_defines() const {
    return {{"acc", acc_fp64 ? "double" : "float"}, {"acc2", acc_fp64 ? "dvec2" : "vec2"}};
  }

  // The body of that name for the backend's driver, compiled on first use.
  gl::Body& body(const std::string& key) {
    if (auto it = bodies.find(key); it != bodies.end()) return *it->second;
    return *bodies.emplace(key, gl::compile_body(key, driver, precision, acc_defines(), storage))
                .first->second;
  }

  bool raster() const { return driver == gl::Driver::raster; }

  gl::RasterReducer& raster_reducer() {
    if (!reducer)
      reducer = std::make_unique<gl::RasterReducer>(precision, context.info().max_texture_size);
    return *reducer;
  }

  // The point list of `entries` in fields of `layout`, built once per list: the key is the span's
  // data pointer, size and the layout's width; a hit is used only if its entries still equal the
  // span's (as device_indices).
  gl::PointWriter::Points& entry_points(std::span<const index> entries,
                                        const gl::TextureLayout& layout) {
    if (!points) points = std::make_unique<gl::PointWriter>(precision);
    for (EntryPoints& e : entry_lists)
      if (e.key == entries.data() && e.width == layout.width && e.host.size() == entries.size() &&
          std::equal(e.host.begin(), e.host.end(), entries.begin()))
        return e.points;
    std::vector<std::size_t> at(entries.begin(), entries.end());
    if (entry_lists.size() == kMaxIndexLists) entry_lists.pop_front();
    entry_lists.push_back({entries.data(), layout.width,
                           std::vector<index>(entries.begin(), entries.end()),
                           points->points(at, layout)});
    return entry_lists.back().points;
  }

  // The point list of entries [offset, offset + count) in fields of `layout`, built once.
  gl::PointWriter::Points& point_list(const gl::TextureLayout& layout, std::size_t offset,
                                      std::size_t count) {
    if (!points) points = std::make_unique<gl::PointWriter>(precision);
    const std::array<std::size_t, 3> key = {layout.width, offset, count};
    for (auto& [k, list] : point_lists)
      if (k == key) return list;
    std::vector<std::size_t> entries(count);
    for (std::size_t k = 0; k < count; ++k) entries[k] = offset + k;
    point_lists.emplace_back(key, points->points(entries, layout));
    return point_lists.back().second;
  }

  // A kernel with its own main (compute driver only), compiled on first use, with the
  // accumulator types as defines; reductions also get their geometry.
  gl::Program& program(const std::string& key) {
    SCFD_CHECK(!raster(), "kernels/{}: not under the fragment driver", key);
    if (auto it = programs.find(key); it != programs.end()) return it->second;
    gl::Defines defines = acc_defines();
    if (key == "dot" || key == "pcg_update" || key == "max_abs") {
      defines.emplace_back("LOCAL_SIZE", std::to_string(kReduceLocal));
      defines.emplace_back("ITEMS", std::to_string(kReduceItems));
    }
    return programs.emplace(key, gl::compile_compute(key, precision, defines, storage))
        .first->second;
  }

  Operators& ops() {
    if (!operators) operators = std::make_unique<Operators>(precision, storage, driver);
    return *operators;
  }

  static void reserve(Buffer& b, std::size_t bytes) {
    if (b.size() < bytes) b = Buffer(bytes);
  }

  // The total a reduction left in the result buffer.
  real read_result() const {
    real v = 0;
    read_reals(result, std::span<real>(&v, 1), acc_precision());
    return v;
  }

  Precision acc_precision() const { return acc_fp64 ? Precision::fp64 : Precision::fp32; }

  // Runs reduction `prog`, bound with `partials` and `counter` as its first buffers, over n
  // entries (kBlock texels per workgroup; at least one workgroup, which writes the total of
  // nothing), with `partials` grown to `components` accumulators per workgroup first.
  void reduce(gl::Program& prog, index n, int components) {
    const std::size_t per_texel = precision == Precision::fp64 ? 2 : 4;
    const std::size_t texels = (static_cast<std::size_t>(n) + per_texel - 1) / per_texel;
    const std::size_t groups = std::max<std::size_t>((texels + kBlock - 1) / kBlock, 1);
    reserve(partials, groups * static_cast<std::size_t>(components) * real_bytes(acc_precision()));
    partials.bind(0);  // re-bound: reserve may have replaced the buffer
    prog.set("n", u32(n));
    prog.dispatch(groups * kReduceLocal);
  }

  // The device copy of `indices`. The key is the span's data pointer and size; a hit is used
  // only if the cached host copy still equals the span (a memcmp of 4 bytes per index, far
  // cheaper than the read-back of 4-8 bytes per index that follows), so a list edited in place
  // or a new list at a reused address is re-uploaded, never used stale.
  const IndexList& device_indices(std::span<const index> indices) {
    auto it = std::find_if(index_lists.begin(), index_lists.end(), [&](const IndexList& l) {
      return l.key == indices.data() && l.host.size() == indices.size();
    });
    if (it != index_lists.end() &&
        std::memcmp(it->host.data(), indices.data(), indices.size_bytes()) == 0)
      return *it;
    if (it == index_lists.end()) {
      if (index_lists.size() == kMaxIndexLists) index_lists.erase(index_lists.begin());
      it = index_lists.insert(index_lists.end(), IndexList{});
    }
    const auto [lo, hi] = std::minmax_element(indices.begin(), indices.end());
    SCFD_CHECK(*lo >= 0, "download_indices: negative index {}", *lo);
    it->key = indices.data();
    it->host.assign(indices.begin(), indices.end());
    it->device = Buffer::from<index>(indices);
    it->max = *hi;
    return *it;
  }
};

GlBackend::GlBackend(Precision p, gl::Storage storage, int device, bool debug, gl::Driver driver,
                     std::string_view device_origin)
    : precision_(p),
      storage_(storage),
      driver_(driver),
      state_(std::make_unique<State>(
          gl::Context::create(device, debug, driver == gl::Driver::raster ? 33 : 43, device_origin),
          p, storage, driver)) {
  SCFD_CHECK(driver == gl::Driver::compute || storage == gl::Storage::texture,
             "the fragment driver draws into texture fields");
  if (p == Precision::fp64) gl::require_fp64(state_->context.info());
}

GlBackend::~GlBackend() = default;

const gl::DeviceInfo& GlBackend::device() const {
  return state_->context.info();
}

DeviceInfo GlBackend::device_info() const {
  const gl::DeviceInfo& d = device();
  return {d.index,
          d.vendor,
          d.renderer,
          d.version,
          fmt::format("{}, {} fields{}", gl::describe(d), gl::to_string(storage_),
                      driver_ == gl::Driver::raster ? ", fragment programs" : ""),
          d.memory_bytes};
}

std::string GlBackend::precision() const {
  return std::string(gl::to_string(precision_));
}

void GlBackend::finish() const {
  gl::finish();
}

std::size_t GlBackend::device_bytes() const {
  std::size_t bytes = *state_->field_bytes + state_->system_bytes;
  for (const auto& m : state_->meshes) bytes += m->bytes();
  return bytes;
}

std::unique_ptr<Field> GlBackend::make_field(index n) const {
  SCFD_CHECK(n >= 0, "field of {} entries", n);
  auto f = std::make_unique<GlField>(n, precision_, storage_,
                                     state_->context.info().max_texture_size, state_->field_bytes);
  fill(*f, 0);  // new GL storage is undefined; a new Field holds zeros
  return f;
}

void GlBackend::upload(std::span<const real> host, Field& f) const {
  SCFD_CHECK(host.size() == static_cast<std::size_t>(f.size()),
             "upload of {} values into a field of {}", host.size(), f.size());
  storage(f).upload(host);
}

void GlBackend::download(const Field& f, std::span<real> host) const {
  SCFD_CHECK(host.size() == static_cast<std::size_t>(f.size()),
             "download of a field of {} into {} values", f.size(), host.size());
  storage(f).download(host);
}

void GlBackend::download_indices(const Field& x, std::span<const index> indices,
                                 std::span<real> out) const {
  SCFD_CHECK(indices.size() == out.size(), "gather of {} indices into {}", indices.size(),
             out.size());
  if (indices.empty()) return;
  const IndexList& list = state_->device_indices(indices);
  SCFD_CHECK(list.max < x.size(), "download_indices: index {} in a field of {}", list.max,
             x.size());
  if (state_->raster()) {  // gathered into a field of the send's size, read back whole
    auto it = state_->send_fields.find(indices.size());
    if (it == state_->send_fields.end())
      it = state_->send_fields
               .emplace(indices.size(), FieldStorage(indices.size(), precision_, storage_,
                                                     state_->context.info().max_texture_size))
               .first;
    gl::Body& prog = state_->body("gather");
    prog.bind({&list.device}, {&storage(x)}, {&it->second});
    prog.run(indices.size());
    it->second.download(out);
    return;
  }
  State::reserve(state_->send, indices.size() * real_bytes(precision_));
  gl::Program& prog = state_->program("download_indices");
  prog.bind({&list.device, &state_->send}, {&storage(x)}, {});
  prog.set("n", static_cast<std::uint32_t>(indices.size()));
  prog.dispatch(indices.size());
  read_reals(state_->send, out, precision_);
}

void GlBackend::upload_range(std::span<const real> values, Field& x, index offset) const {
  SCFD_CHECK(offset >= 0 && offset + values.size() <= static_cast<std::size_t>(x.size()),
             "upload of {} at {} into {}", values.size(), offset, x.size());
  if (values.empty()) return;
  if (state_->raster()) {  // one GL_POINT per entry (the thesis's halo receive)
    FieldStorage& f = storage(x);
    gl::PointWriter::Points& list =
        state_->point_list(f.layout(), static_cast<std::size_t>(offset), values.size());
    state_->points->write(list, values, f);
    return;
  }
  // Through a staging buffer and a kernel for both storages: a transfer straight into a field's
  // buffer would have to wait for the kernels before it (see FieldStorage::upload).
  State::reserve(state_->receive, values.size() * real_bytes(precision_));
  write_reals(state_->receive, values, 0, precision_);
  const std::size_t per_texel = storage(x).layout().per_texel;
  const auto first = static_cast<std::size_t>(offset);
  const std::size_t texels = (first + values.size() - 1) / per_texel - first / per_texel + 1;
  gl::Program& prog = state_->program("upload_range");
  prog.bind({&state_->receive}, {}, {&storage(x)});
  prog.set("offset", u32(offset));
  prog.set("count", static_cast<std::uint32_t>(values.size()));
  prog.dispatch(texels);
}

void GlBackend::upload_entries(std::span<const index> entries, std::span<const real> values,
                               Field& x) const {
  SCFD_CHECK(entries.size() == values.size(), "{} values for {} entries", values.size(),
             entries.size());
  for (const index e : entries)
    SCFD_CHECK(e >= 0 && e < x.size(), "upload_entries: entry {} of a field of {}", e, x.size());
  FieldStorage& f = storage(x);
  if (state_->raster()) {  // a clear, then one GL_POINT per value
    if (x.size() == 0) return;
    gl::clear_texture(f);
    if (entries.empty()) return;
    gl::PointWriter::Points& list = state_->entry_points(entries, f.layout());
    state_->points->write(list, values, f);
    return;
  }
  std::vector<real> host(static_cast<std::size_t>(x.size()), 0);
  for (std::size_t k = 0; k < entries.size(); ++k)
    host[static_cast<std::size_t>(entries[k])] = values[k];
  f.upload(host);
}

void GlBackend::fill(Field& y, real value) const {
  if (y.size() == 0) return;
  if (state_->raster()) {  // zeros everywhere (padding too), then the value over the entries
    gl::clear_texture(storage(y));
    if (value == 0) return;
    gl::Body& prog = state_->body("constant");
    prog.bind({}, {}, {&storage(y)});
    prog.set_real("value", value);
    prog.run(static_cast<std::size_t>(y.size()));
    return;
  }
  gl::Program& prog = state_->program("fill");
  const std::size_t texels = storage(y).texels();
  prog.bind({}, {}, {&storage(y)});
  prog.set_real("value", value);
  prog.set("n", u32(y.size()));
  prog.set("texels", static_cast<std::uint32_t>(texels));
  prog.dispatch(texels);
}

void GlBackend::copy(const Field& x, Field& y) const {
  check_same_size(x, y);
  if (y.size() == 0) return;
  gl::Body& prog = state_->body("copy");
  prog.bind({}, {&storage(x)}, {&storage(y)});
  prog.run(static_cast<std::size_t>(y.size()));
}

real GlBackend::dot(const Field& x, const Field& y, index n) const {
  check_same_size(x, y);
  SCFD_CHECK(n >= 0 && n <= x.size(), "dot over {} of {} entries", n, x.size());
  if (n == 0) return 0;
  if (state_->raster())
    return state_->raster_reducer().reduce(gl::RasterReducer::Op::dot, storage(x), &storage(y),
                                           static_cast<std::size_t>(n));
  gl::Program& prog = state_->program("dot");
  prog.bind({&state_->partials, &state_->counter, &state_->result}, {&storage(x), &storage(y)}, {});
  prog.set("slot", 0u);
  state_->reduce(prog, n, 1);
  return state_->read_result();
}

real GlBackend::max_abs(const Field& x, index n) const {
  SCFD_CHECK(n >= 0 && n <= x.size(), "max_abs over {} of {} entries", n, x.size());
  if (n == 0) return 0;
  if (state_->raster())
    return state_->raster_reducer().reduce(gl::RasterReducer::Op::max_abs, storage(x), nullptr,
                                           static_cast<std::size_t>(n));
  gl::Program& prog = state_->program("max_abs");
  prog.bind({&state_->partials, &state_->counter, &state_->result}, {&storage(x)}, {});
  state_->reduce(prog, n, 1);
  return state_->read_result();
}

// The element-wise kernels with one scalar: field x, output y (updated), uniform a.
void GlBackend::scalar_update(const char* kernel, real a, const Field& x, Field& y) const {
  check_same_size(x, y);
  if (y.size() == 0) return;
  gl::Body& prog = state_->body(kernel);
  prog.bind({}, {&storage(x)}, {&storage(y)});
  prog.set_real("a", a);
  prog.run(static_cast<std::size_t>(y.size()));
}

void GlBackend::axpy(real a, const Field& x, Field& y) const {
  scalar_update("axpy", a, x, y);
}

void GlBackend::xpay(const Field& x, real a, Field& y) const {
  scalar_update("xpay", a, x, y);
}

void GlBackend::scale(real a, const Field& x, Field& y) const {
  scalar_update("scale", a, x, y);
}

void GlBackend::multiply(const Field& a, const Field& b, Field& y) const {
  check_same_size(a, y);
  check_same_size(b, y);
  if (y.size() == 0) return;
  gl::Body& prog = state_->body("multiply");
  prog.bind({}, {&storage(a), &storage(b)}, {&storage(y)});
  prog.run(static_cast<std::size_t>(y.size()));
}

void GlBackend::reciprocal(const Field& x, Field& y) const {
  check_same_size(x, y);
  if (y.size() == 0) return;
  gl::Body& prog = state_->body("reciprocal");
  prog.bind({}, {&storage(x)}, {&storage(y)});
  prog.run(static_cast<std::size_t>(y.size()));
}

std::unique_ptr<Scalars> GlBackend::make_scalars(index n) const {
  auto s = std::make_unique<GlScalars>(n, state_->acc_precision());
  write_scalars(std::vector<real>(static_cast<std::size_t>(n), 0), *s);
  return s;
}

void GlBackend::read_scalars(const Scalars& sf, std::span<real> out) const {
  const GlScalars& s = gl_scalars(sf);
  SCFD_CHECK(out.size() == static_cast<std::size_t>(s.size()), "read {} scalars into {}", s.size(),
             out.size());
  read_reals(s.buffer(), out, s.acc());
}

void GlBackend::write_scalars(std::span<const real> in, Scalars& sf) const {
  GlScalars& s = gl_scalars(sf);
  SCFD_CHECK(in.size() == static_cast<std::size_t>(s.size()), "write {} scalars into {}", in.size(),
             s.size());
  finish();  // kernels write the scalars: the transfer must not overtake them
             // (FieldStorage::upload)
  write_reals(s.buffer(), in, 0, s.acc());
}

void GlBackend::dot(const Field& x, const Field& y, index n, Scalars& sf, index slot) const {
  check_same_size(x, y);
  SCFD_CHECK(n >= 0 && n <= x.size(), "dot over {} of {} entries", n, x.size());
  GlScalars& s = gl_scalars(sf);
  SCFD_CHECK(slot >= 0 && slot < s.size(), "dot into slot {} of {} scalars", slot, s.size());
  if (state_->raster()) {
    state_->raster_reducer().reduce_into(gl::RasterReducer::Op::dot, storage(x), &storage(y),
                                         static_cast<std::size_t>(n), s.buffer(),
                                         static_cast<std::size_t>(slot) * real_bytes(s.acc()));
    return;
  }
  gl::Program& prog = state_->program("dot");
  prog.bind({&state_->partials, &state_->counter, &s.buffer()}, {&storage(x), &storage(y)}, {});
  prog.set("slot", u32(slot));
  state_->reduce(prog, n, 1);
}

void GlBackend::pcg_update(int k, Scalars& sf, const Field& p, const Field& q, const Field& dinv,
                           Field& x, Field& r, Field& z, index n) const {
  check_same_size(p, x);
  check_same_size(q, x);
  check_same_size(dinv, x);
  check_same_size(r, x);
  check_same_size(z, x);
  SCFD_CHECK(n >= 0 && n <= x.size(), "pcg_update over {} of {} entries", n, x.size());
  GlScalars& s = gl_scalars(sf);
  SCFD_CHECK(s.size() >= PcgSlots::count, "PCG scalars: {} of {}", s.size(), PcgSlots::count);
  if (state_->raster()) {
    raster_pcg_update(k, s, p, q, dinv, x, r, z, n);
    return;
  }
  gl::Program& prog = state_->program("pcg_update");
  prog.bind({&state_->partials, &state_->counter, &s.buffer()},
            {&storage(p), &storage(q), &storage(dinv)}, {&storage(x), &storage(r), &storage(z)});
  prog.set("s_rz", u32(PcgSlots::rz_before(k)));
  prog.set("s_rz_new", u32(PcgSlots::rz_after(k)));
  prog.set("k", static_cast<std::uint32_t>(k));
  state_->reduce(prog, n, 2);
}

// The fragment driver's PCG update, the thesis's way: the scalars are read back (alpha and the
// breakdown test on the host), the three vector updates are element-wise bodies over the first n
// entries, and r·z and r·r are fold reductions into their slots. The same updates as
// pcg_update.glsl, bit for bit: x + alpha p, r + (-alpha) q (= r - alpha q), dinv .* r.
void GlBackend::raster_pcg_update(int k, Scalars& sf, const Field& p, const Field& q,
                                  const Field& dinv, Field& x, Field& r, Field& z, index n) const {
  GlScalars& s = gl_scalars(sf);
  std::vector<real> v(static_cast<std::size_t>(s.size()));
  read_scalars(s, v);
  const std::optional<real> step = PcgSlots::alpha(v, k);
  if (!step) {
    write_scalars(v, s);
    return;
  }
  const real alpha = *step;
  const auto update = [&](const char* kernel, real a, const Field& in, Field& out) {
    gl::Body& prog = state_->body(kernel);
    prog.bind({}, {&storage(in)}, {&storage(out)});
    prog.set_real("a", a);
    prog.run(static_cast<std::size_t>(n));
  };
  update("axpy", alpha, p, x);
  update("axpy", -alpha, q, r);
  gl::Body& mul = state_->body("multiply");
  mul.bind({}, {&storage(dinv), &storage(r)}, {&storage(z)});
  mul.run(static_cast<std::size_t>(n));
  const std::size_t bytes = real_bytes(s.acc());
  gl::RasterReducer& reduce = state_->raster_reducer();
  reduce.reduce_into(gl::RasterReducer::Op::dot, storage(r), &storage(z),
                     static_cast<std::size_t>(n), s.buffer(),
                     static_cast<std::size_t>(PcgSlots::rz_after(k)) * bytes);
  reduce.reduce_into(gl::RasterReducer::Op::dot, storage(r), &storage(r),
                     static_cast<std::size_t>(n), s.buffer(),
                     static_cast<std::size_t>(PcgSlots::rr) * bytes);
}

void GlBackend::pcg_direction(int k, const Scalars& sf, const Field& z, Field& p) const {
  check_same_size(z, p);
  if (p.size() == 0) return;
  gl::Body& prog = state_->body("pcg_direction");
  prog.bind({&gl_scalars(sf).buffer()}, {&storage(z)}, {&storage(p)});
  prog.set("s_rz", u32(PcgSlots::rz_before(k)));
  prog.set("s_rz_new", u32(PcgSlots::rz_after(k)));
  prog.run(static_cast<std::size_t>(p.size()));
}

void GlBackend::bicgstab_direction(int k, const Scalars& sf, const Field& r, const Field& v,
                                   Field& p) const {
  check_same_size(r, p);
  check_same_size(v, p);
  if (p.size() == 0) return;
  gl::Body& prog = state_->body("bicgstab_direction");
  prog.bind({&gl_scalars(sf).buffer()}, {&storage(r), &storage(v)}, {&storage(p)});
  prog.set("s_rho", u32(BicgstabSlots::rho_now(k)));
  prog.set("s_rho_prev", u32(BicgstabSlots::rho_before(k)));
  prog.run(static_cast<std::size_t>(p.size()));
}

void GlBackend::bicgstab_half(int k, const Scalars& sf, const Field& r, const Field& v,
                              Field& y) const {
  check_same_size(r, y);
  check_same_size(v, y);
  if (y.size() == 0) return;
  gl::Body& prog = state_->body("bicgstab_half");
  prog.bind({&gl_scalars(sf).buffer()}, {&storage(r), &storage(v)}, {&storage(y)});
  prog.set("s_rho", u32(BicgstabSlots::rho_now(k)));
  prog.run(static_cast<std::size_t>(y.size()));
}

void GlBackend::bicgstab_update(int k, const Scalars& sf, const Field& p_hat, const Field& s_hat,
                                const Field& y, const Field& t, Field& x, Field& r) const {
  for (const Field* f : {&p_hat, &s_hat, &y, &t, static_cast<const Field*>(&r)})
    check_same_size(*f, x);
  if (x.size() == 0) return;
  gl::Body& px = state_->body("bicgstab_x");
  px.bind({&gl_scalars(sf).buffer()}, {&storage(p_hat), &storage(s_hat)}, {&storage(x)});
  px.set("s_rho", u32(BicgstabSlots::rho_now(k)));
  px.run(static_cast<std::size_t>(x.size()));
  gl::Body& pr = state_->body("bicgstab_r");
  pr.bind({&gl_scalars(sf).buffer()}, {&storage(y), &storage(t)}, {&storage(r)});
  pr.run(static_cast<std::size_t>(r.size()));
}

const DeviceMesh& GlBackend::device_mesh(const topology::Mesh& m) const {
  auto& meshes = state_->meshes;
  for (auto& d : meshes) {
    if (&d->mesh() != &m) continue;
    // Same object, other entity counts: the mesh was rebuilt in place.
    if (!d->matches(m)) d = std::make_unique<DeviceMesh>(m, precision_);
    return *d;
  }
  meshes.push_back(std::make_unique<DeviceMesh>(m, precision_));
  return *meshes.back();
}

RowRange GlBackend::range(Rows rows, index n_inner, index n_owned) const {
  return row_range(rows, n_inner, n_owned, row_alignment());
}

void GlBackend::gradient(const topology::Mesh& m, const Field& q_cell, const Field& q_boundary,
                         Field& g_face, Rows rows) const {
  state_->ops().gradient(device_mesh(m), storage(q_cell), storage(q_boundary), storage(g_face),
                         range(rows, m.n_inner_faces, m.n_owned_faces));
}

void GlBackend::divergence(const topology::Mesh& m, const Field& u_face, Field& d_cell,
                           Rows rows) const {
  state_->ops().divergence(device_mesh(m), storage(u_face), storage(d_cell),
                           range(rows, m.n_inner_cells, m.n_owned_cells));
}

void GlBackend::flux_sum_abs(const topology::Mesh& m, const Field& u_face, Field& s_cell) const {
  state_->ops().flux_sum_abs(device_mesh(m), storage(u_face), storage(s_cell));
}

void GlBackend::curl(const topology::Mesh& m, const Field& s, Field& u_face, Rows rows) const {
  state_->ops().curl(device_mesh(m), storage(s), storage(u_face),
                     range(rows, m.n_inner_faces, m.n_owned_faces));
}

void GlBackend::rotation(const topology::Mesh& m, const Field& u_face, Field& r, Rows rows) const {
  state_->ops().rotation(device_mesh(m), storage(u_face), storage(r),
                         range(rows, m.n_inner_curl(), m.n_owned_curl()));
}

void GlBackend::interpolate(const topology::Mesh& m, const Field& u_face, Field& u_cell,
                            Rows rows) const {
  state_->ops().interpolate(device_mesh(m), storage(u_face), storage(u_cell),
                            range(rows, m.n_inner_cells, m.n_owned_cells));
}

void GlBackend::integrate(const topology::Mesh& m, const Field& v_cell, Field& u_face,
                          Rows rows) const {
  state_->ops().integrate(device_mesh(m), storage(v_cell), storage(u_face),
                          range(rows, m.n_inner_faces, m.n_owned_faces));
}

void GlBackend::convection(const topology::Mesh& m, const Field& u_face, const Field& u_cell,
                           const Field& u_boundary, real upwind, Field& n_cell, Rows rows) const {
  state_->ops().convection(device_mesh(m), storage(u_face), storage(u_cell), storage(u_boundary),
                           upwind, storage(n_cell), range(rows, m.n_inner_cells, m.n_owned_cells));
}

void GlBackend::node_system(const topology::Mesh& m, const Field& d, real b, const Field& w,
                            const Field& fixed, const Field& x, Field& y) const {
  state_->ops().node_system(device_mesh(m), storage(d), b, storage(w), storage(fixed), storage(x),
                            storage(y));
}

// The assembled node system on the device: a coefficient per SELL entry of node_edges and a
// diagonal per owned node. It looks its device mesh up at every apply (a lookup in a short list):
// a mesh rebuilt in place gets a new DeviceMesh, whose entry count the size checks compare with.
class GlNodeSystem final : public NodeSystem {
 public:
  GlNodeSystem(const GlBackend& be, const topology::Mesh& m, const Field& d, real b, const Field& w,
               const Field& fixed)
      : be_(be), m_(m), b_(b) {
    if (be.state_->raster()) {       // the fragment driver has no assembly kernel: copies, applied
      d_ = be.make_field(d.size());  // matrix-free by node_system.glsl
      w_ = be.make_field(w.size());
      fixed_ = be.make_field(fixed.size());
      be.copy(d, *d_);
      be.copy(w, *w_);
      be.copy(fixed, *fixed_);
      return;
    }
    coef_ = Buffer(Operators::node_system_entries(be.device_mesh(m)) * real_bytes(be.precision_));
    diag_ = Buffer(static_cast<std::size_t>(m.n_owned_nodes) * real_bytes(be.precision_));
    be.state_->ops().node_system_assemble(be.device_mesh(m), storage(d), b, storage(w),
                                          storage(fixed), coef_, diag_);
    be_.state_->system_bytes += coef_.size() + diag_.size();
  }
  ~GlNodeSystem() override { be_.state_->system_bytes -= coef_.size() + diag_.size(); }
  GlNodeSystem(const GlNodeSystem&) = delete;
  GlNodeSystem& operator=(const GlNodeSystem&) = delete;
  void apply(const Field& x, Field& y, Rows rows) const override {
    const RowRange r = be_.range(rows, m_.n_inner_nodes, m_.n_owned_nodes);
    Operators& ops = be_.state_->ops();
    if (d_) {
      ops.node_system(be_.device_mesh(m_), storage(*d_), b_, storage(*w_), storage(*fixed_),
                      storage(x), storage(y), r);
      return;
    }
    ops.node_system_apply(be_.device_mesh(m_), coef_, diag_, storage(x), storage(y), r);
  }

 private:
  const GlBackend& be_;
  const topology::Mesh& m_;
  real b_;
  Buffer coef_, diag_;                    // assembled (compute driver)
  std::unique_ptr<Field> d_, w_, fixed_;  // the system's data (fragment driver)
};

std::unique_ptr<NodeSystem> GlBackend::make_node_system(const topology::Mesh& m, const Field& d,
                                                        real b, const Field& w,
                                                        const Field& fixed) const {
  return std::make_unique<GlNodeSystem>(*this, m, d, b, w, fixed);
}

// A sparse matrix on the device in the SELL layout (SellMatrix), counted in device_bytes; one
// with long rows as its split (backend/sparse_matrix.hpp): the chunks, their sums and a field for
// the chunk sums.
class GlMatrix final : public Matrix {
 public:
  GlMatrix(const GlBackend& be, const SparseMatrix& a)
      : be_(be), rows_(a.rows), cols_(a.cols), inner_(inner_rows(a)) {
    if (const std::optional<RowSplit> split = split_long_rows(a)) {
      sell_ = make_sell_matrix(split->chunks, be.precision_);
      sum_ = make_sell_matrix(split->sum, be.precision_);
      chunk_sums_ = be.make_field(split->chunks.rows);
      inner_ = 0;  // the interface part computes every row through the split
    } else {
      sell_ = make_sell_matrix(a, be.precision_);
    }
    be_.state_->system_bytes += bytes();
  }
  ~GlMatrix() override { be_.state_->system_bytes -= bytes(); }
  GlMatrix(const GlMatrix&) = delete;
  GlMatrix& operator=(const GlMatrix&) = delete;
  index rows() const override { return rows_; }
  index cols() const override { return cols_; }

  // y = A x as `kind` says (Operators::sparse) on `rows`, through the split if there is one.
  void product(Operators::Sparse kind, const Field& x, const Field* b, const Field* z,
               const Field* w, Field& y, Rows rows = Rows::all) const {
    const auto opt = [](const Field* f) { return f != nullptr ? &storage(*f) : nullptr; };
    Operators& ops = be_.state_->ops();
    const RowRange r = be_.range(rows, inner_, rows_);
    if (!sum_) {
      ops.sparse(kind, sell_, storage(x), opt(b), opt(z), opt(w), storage(y), nullptr, r);
      return;
    }
    if (r.begin == r.stop(rows_)) return;
    FieldStorage& t = storage(*chunk_sums_);
    ops.sparse(Operators::Sparse::apply, sell_, storage(x), nullptr, nullptr, nullptr, t);
    ops.sparse(kind, *sum_, t, opt(b), opt(z), opt(w), storage(y), &storage(x));
  }

 private:
  std::size_t bytes() const { return sell_.bytes() + (sum_ ? sum_->bytes() : 0); }
  const GlBackend& be_;
  index rows_, cols_;
  index inner_;      // leading rows without a ghost column (0 with a split)
  SellMatrix sell_;  // the matrix, or its chunks
  std::optional<SellMatrix> sum_;
  std::unique_ptr<Field> chunk_sums_;
};

namespace {
const GlMatrix& gl_matrix(const Matrix& a) {
  const auto* g = dynamic_cast<const GlMatrix*>(&a);
  SCFD_CHECK(g != nullptr, "a matrix of another backend was passed to the gl-compute backend");
  return *g;
}
}  // namespace

std::unique_ptr<Matrix> GlBackend::make_matrix(const SparseMatrix& a) const {
  return std::make_unique<GlMatrix>(*this, a);
}

void GlBackend::matrix_apply(const Matrix& a, const Field& x, Field& y, Rows rows) const {
  gl_matrix(a).product(Operators::Sparse::apply, x, nullptr, nullptr, nullptr, y, rows);
}

void GlBackend::matrix_residual(const Matrix& a, const Field& b, const Field& x, Field& y,
                                Rows rows) const {
  gl_matrix(a).product(Operators::Sparse::residual, x, &b, nullptr, nullptr, y, rows);
}

void GlBackend::matrix_apply_add(const Matrix& a, const Field& x, const Field& z, Field& y,
                                 Rows rows) const {
  gl_matrix(a).product(Operators::Sparse::apply_add, x, nullptr, &z, nullptr, y, rows);
}

void GlBackend::matrix_jacobi(const Matrix& a, const Field& w, const Field& b, const Field& x,
                              Field& y, Rows rows) const {
  gl_matrix(a).product(Operators::Sparse::jacobi, x, &b, nullptr, &w, y, rows);
}

void GlBackend::node_system_diagonal(const topology::Mesh& m, const Field& d, real b,
                                     const Field& w, const Field& fixed, Field& diag) const {
  state_->ops().node_system_diagonal(device_mesh(m), storage(d), b, storage(w), storage(fixed),
                                     storage(diag));
}

void GlBackend::node_laplacian(const topology::Mesh& m, const Field& w, const Field& x,
                               Field& y) const {
  state_->ops().node_laplacian(device_mesh(m), storage(w), storage(x), storage(y));
}

}  // namespace scfd::backend::opengl
