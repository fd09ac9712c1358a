// The GL backend (see gl_backend.hpp). Each Backend call is one kernel of kernels/ named after it
// (copy, axpy, xpay, scale, multiply, reciprocal here; pcg_direction and the BiCGStab steps in
// scalars.cpp), the twin of the CpuBackend method of the same name, or goes through the driver
// (transfers, fill, reductions, pcg_update, node systems); operators go through Operators on a
// DeviceMesh cached per Mesh. Bodies are compiled on first use, so a process that only moves
// vectors compiles few kernels.
#include "backend/opengl/gl_backend.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <utility>

#include "backend/opengl/scalars.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"

namespace scfd::backend::opengl {

namespace gl = scfd::gl;
using gl::Precision;

namespace {

// A device copy of an index list given to download_indices, with the host copy it was made from
// (or its id: Backend::download_indices_begin).
struct IndexList {
  const index* key = nullptr;  // data pointer of the span it was made from
  std::uint64_t id = 0;
  std::vector<index> host;  // empty for a list with an id
  std::size_t count = 0;
  Buffer device;
  index max = -1;  // largest index (all are >= 0)
};

}  // namespace

struct GlBackend::State {
  // Declared first: destroyed last, so every buffer and program below is freed in its context.
  gl::Context context;
  // Declared second: its buffers and programs go before the context.
  std::unique_ptr<Driver> driver;
  Precision precision;
  gl::Storage storage;
  bool acc_fp64;  // reductions accumulate in double (Driver::accumulates_fp64)
  std::map<std::string, std::unique_ptr<gl::Body>, std::less<>> bodies;
  std::unique_ptr<Operators> operators;
  std::vector<std::unique_ptr<DeviceMesh>> meshes;
  std::vector<IndexList> index_lists;
  // FieldStorage bytes of the live fields (GlField adds and removes its own); shared, so a field
  // that outlives the backend by mistake does not write into freed memory.
  std::shared_ptr<std::size_t> field_bytes = std::make_shared<std::size_t>(0);
  std::size_t system_bytes = 0;  // coefficients of the live assembled node systems, matrices
  gl::Uploader uploader;

  State(gl::Context c, std::unique_ptr<Driver> d, Precision p, gl::Storage s)
      : context(std::move(c)),
        driver(std::move(d)),
        precision(p),
        storage(s),
        acc_fp64(driver->accumulates_fp64(p, context.info())) {}

  // The device copy of `indices`. A list with an id (a halo plan's) is found by its id. Otherwise
  // the key is the span's data pointer and size, and a hit is used only if the cached host copy
  // still equals the span (a memcmp of 4 bytes per index), so a list edited in place or a new
  // list at a reused address is re-uploaded, never used stale.
  const IndexList& device_indices(std::span<const index> indices, std::uint64_t id) {
    auto it = std::find_if(index_lists.begin(), index_lists.end(), [&](const IndexList& l) {
      return id != 0 ? l.id == id
                     : l.id == 0 && l.key == indices.data() && l.host.size() == indices.size();
    });
    if (it != index_lists.end() &&
        (id != 0 || std::memcmp(it->host.data(), indices.data(), indices.size_bytes()) == 0)) {
      SCFD_CHECK(it->count == indices.size(), "index list {} had {} entries, now {}", id, it->count,
                 indices.size());
      return *it;
    }
    if (it == index_lists.end()) {
      if (index_lists.size() == kMaxIndexLists) index_lists.erase(index_lists.begin());
      it = index_lists.insert(index_lists.end(), IndexList{});
    }
    const auto [lo, hi] = std::minmax_element(indices.begin(), indices.end());
    SCFD_CHECK(*lo >= 0, "download_indices: negative index {}", *lo);
    it->key = indices.data();
    it->id = id;
    it->count = indices.size();
    if (id == 0) it->host.assign(indices.begin(), indices.end());
    it->device = Buffer::from<index>(indices);
    it->max = *hi;
    return *it;
  }
};

GlBackend::GlBackend(std::unique_ptr<Driver> driver, Precision p, gl::Storage storage, int device,
                     bool debug, std::string_view device_origin)
    : precision_(p), storage_(storage) {
  SCFD_CHECK(driver != nullptr, "a GlBackend needs a driver");
  gl::Context context = gl::Context::create(device, debug, driver->gl_version(), device_origin);
  state_ = std::make_unique<State>(std::move(context), std::move(driver), p, storage);
  state_->driver->start(*this);
  if (p == Precision::fp64) gl::require_fp64(state_->context.info());
}

GlBackend::~GlBackend() = default;

std::string GlBackend::name() const {
  return state_->driver->name();
}

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
                      state_->driver->device_note()),
          d.memory_bytes,
          d.software};
}

std::string GlBackend::precision() const {
  return std::string(gl::to_string(precision_));
}

void GlBackend::finish() const {
  gl::finish();
}

void GlBackend::flush() const {
  gl::flush();
}

std::size_t GlBackend::device_bytes() const {
  std::size_t bytes = *state_->field_bytes + state_->system_bytes;
  for (const auto& m : state_->meshes) bytes += m->bytes();
  return bytes;
}

void GlBackend::start_kernel_builds() const {
  if (device().parallel_compile && !device().software) state_->driver->start_builds();
}

gl::Body& GlBackend::body(const std::string& kernel) const {
  auto& bodies = state_->bodies;
  if (auto it = bodies.find(kernel); it != bodies.end()) return *it->second;
  std::unique_ptr<gl::Body> b =
      state_->driver->body_compiler()(kernel, precision_, acc_defines(), storage_);
  return *bodies.emplace(kernel, std::move(b)).first->second;
}

gl::Defines GlBackend::acc_defines() const {
  const bool acc_fp64 = state_->acc_fp64;
  return {{"acc", acc_fp64 ? "double" : "float"}, {"acc2", acc_fp64 ? "dvec2" : "vec2"}};
}

Precision GlBackend::acc_precision() const {
  return state_->acc_fp64 ? Precision::fp64 : Precision::fp32;
}

Operators& GlBackend::ops() const {
  if (!state_->operators)
    state_->operators =
        std::make_unique<Operators>(precision_, storage_, state_->driver->body_compiler());
  return *state_->operators;
}

std::size_t& GlBackend::system_bytes() const {
  return state_->system_bytes;
}

gl::Uploader& GlBackend::uploader() const {
  return state_->uploader;
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
  if (download_indices_begin(x, indices, out, 0)) return;
  const std::span<const real> values = download_indices_end(out);
  if (values.data() != out.data()) std::copy(values.begin(), values.end(), out.begin());
}

bool GlBackend::download_indices_begin(const Field& x, std::span<const index> indices,
                                       std::span<real> out, std::uint64_t list_id) const {
  SCFD_CHECK(indices.size() == out.size(), "gather of {} indices into {}", indices.size(),
             out.size());
  if (indices.empty()) return true;
  const IndexList& list = state_->device_indices(indices, list_id);
  SCFD_CHECK(list.max < x.size(), "download_indices: index {} in a field of {}", list.max,
             x.size());
  return state_->driver->gather_begin(list.device, storage(x), out);
}

std::span<const real> GlBackend::download_indices_end(std::span<real> out) const {
  return state_->driver->gather_end(out);
}

void GlBackend::upload_range(std::span<const real> values, Field& x, index offset) const {
  SCFD_CHECK(offset >= 0 && offset + values.size() <= static_cast<std::size_t>(x.size()),
             "upload of {} at {} into {}", values.size(), offset, x.size());
  if (values.empty()) return;
  state_->driver->upload_range(values, storage(x), static_cast<std::size_t>(offset));
}

std::span<real> GlBackend::receive_buffer(std::size_t n) const {
  return n == 0 ? std::span<real>{} : state_->driver->receive_buffer(n);
}

void GlBackend::upload_indices(std::span<const real> values, std::span<const index> indices,
                               Field& x, std::uint64_t list_id) const {
  SCFD_CHECK(values.size() == indices.size(), "{} values for {} indices", values.size(),
             indices.size());
  if (values.empty()) return;
  SCFD_CHECK(indices.front() >= 0 && indices.back() < x.size(),
             "upload_indices: indices {}..{} into a field of {}", indices.front(), indices.back(),
             x.size());
  state_->driver->upload_indices(values, indices, storage(x), list_id);
}

void GlBackend::upload_entries(std::span<const index> entries, std::span<const real> values,
                               Field& x) const {
  SCFD_CHECK(entries.size() == values.size(), "{} values for {} entries", values.size(),
             entries.size());
  for (const index e : entries)
    SCFD_CHECK(e >= 0 && e < x.size(), "upload_entries: entry {} of a field of {}", e, x.size());
  state_->driver->upload_entries(entries, values, storage(x));
}

void GlBackend::fill(Field& y, real value) const {
  if (y.size() == 0) return;
  state_->driver->fill(storage(y), value);
}

void GlBackend::copy(const Field& x, Field& y) const {
  check_same_size(x, y);
  if (y.size() == 0) return;
  gl::Body& prog = body("copy");
  prog.bind({}, {&storage(x)}, {&storage(y)});
  prog.run(static_cast<std::size_t>(y.size()));
}

real GlBackend::dot(const Field& x, const Field& y, index n) const {
  check_same_size(x, y);
  SCFD_CHECK(n >= 0 && n <= x.size(), "dot over {} of {} entries", n, x.size());
  if (n == 0) return 0;
  return state_->driver->dot(storage(x), storage(y), n);
}

real GlBackend::max_abs(const Field& x, index n) const {
  SCFD_CHECK(n >= 0 && n <= x.size(), "max_abs over {} of {} entries", n, x.size());
  if (n == 0) return 0;
  return state_->driver->max_abs(storage(x), n);
}

// The element-wise kernels with one scalar: field x, output y (updated), uniform a.
void GlBackend::scalar_update(const char* kernel, real a, const Field& x, Field& y) const {
  check_same_size(x, y);
  if (y.size() == 0) return;
  gl::Body& prog = body(kernel);
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
  gl::Body& prog = body("multiply");
  prog.bind({}, {&storage(a), &storage(b)}, {&storage(y)});
  prog.run(static_cast<std::size_t>(y.size()));
}

void GlBackend::reciprocal(const Field& x, Field& y) const {
  check_same_size(x, y);
  if (y.size() == 0) return;
  gl::Body& prog = body("reciprocal");
  prog.bind({}, {&storage(x)}, {&storage(y)});
  prog.run(static_cast<std::size_t>(y.size()));
}

void GlBackend::dot(const Field& x, const Field& y, index n, Scalars& sf, index slot) const {
  check_same_size(x, y);
  SCFD_CHECK(n >= 0 && n <= x.size(), "dot over {} of {} entries", n, x.size());
  GlScalars& s = gl_scalars(sf);
  SCFD_CHECK(slot >= 0 && slot < s.size(), "dot into slot {} of {} scalars", slot, s.size());
  state_->driver->dot(storage(x), storage(y), n, s, slot);
}

void GlBackend::dots(std::span<const Field* const> x, const Field& y, index n, Scalars& sf,
                     index first) const {
  GlScalars& s = gl_scalars(sf);
  SCFD_CHECK(n >= 0 && n <= y.size(), "dots over {} of {} entries", n, y.size());
  SCFD_CHECK(first >= 0 && first + static_cast<index>(x.size()) <= s.size(),
             "dots into slots {}..{} of {} scalars", first, first + static_cast<index>(x.size()),
             s.size());
  std::vector<const FieldStorage*> xs;
  for (const Field* f : x) {
    check_same_size(*f, y);
    xs.push_back(&storage(*f));
  }
  state_->driver->dots(xs, storage(y), n, s, first);
}

Driver& GlBackend::driver() const {
  return *state_->driver;
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
  state_->driver->pcg_update(k, s, storage(p), storage(q), storage(dinv), storage(x), storage(r),
                             storage(z), n);
}

void GlBackend::pcg_ranks_update(real alpha, real beta, bool first, const Field& w,
                                 const Field* dinv, Field& z, Field& p, Field& q, Field& x,
                                 Field& r, index n, Scalars& sf, index slot_rz,
                                 index slot_rr) const {
  for (const Field* f : {&z, &p, &q, &x, &r}) check_same_size(*f, w);
  if (dinv != nullptr) check_same_size(*dinv, w);
  SCFD_CHECK(n >= 0 && n <= w.size(), "pcg_ranks_update over {} of {} entries", n, w.size());
  GlScalars& s = gl_scalars(sf);
  for (const index slot : {slot_rz, slot_rr})
    SCFD_CHECK(slot >= 0 && slot < s.size(), "slot {} of {} scalars", slot, s.size());
  pcg_ranks_directions(beta, first, z, w, p, q);
  if (n == 0 || !state_->driver->pcg_ranks_update(
                    alpha, storage(p), storage(q), dinv != nullptr ? &storage(*dinv) : nullptr,
                    storage(x), storage(r), storage(z), n, s, slot_rz, slot_rr))
    pcg_ranks_finish(alpha, p, q, dinv, x, r, z, n, sf, slot_rz, slot_rr);
}

const DeviceMesh& GlBackend::device_mesh(const topology::Mesh& m) const {
  auto& meshes = state_->meshes;
  for (auto& d : meshes) {
    if (&d->mesh() != &m) continue;
    // Same object, other entity counts: the mesh was rebuilt in place.
    if (!d->matches(m)) d = std::make_unique<DeviceMesh>(m, precision_, state_->uploader);
    return *d;
  }
  const SetupPart part(Part::device_mesh);
  meshes.push_back(std::make_unique<DeviceMesh>(m, precision_, state_->uploader));
  return *meshes.back();
}

RowRange GlBackend::range(Rows rows, index n_inner, index n_owned) const {
  return row_range(rows, n_inner, n_owned, row_alignment());
}

void GlBackend::gradient(const topology::Mesh& m, const Field& q_cell, const Field& q_boundary,
                         Field& g_face, Rows rows) const {
  ops().gradient(device_mesh(m), storage(q_cell), storage(q_boundary), storage(g_face),
                 range(rows, m.n_inner_faces, m.n_owned_faces));
}

void GlBackend::divergence(const topology::Mesh& m, const Field& u_face, Field& d_cell,
                           Rows rows) const {
  ops().divergence(device_mesh(m), storage(u_face), storage(d_cell),
                   range(rows, m.n_inner_cells, m.n_owned_cells));
}

void GlBackend::flux_sum_abs(const topology::Mesh& m, const Field& u_face, Field& s_cell) const {
  ops().flux_sum_abs(device_mesh(m), storage(u_face), storage(s_cell));
}

void GlBackend::curl(const topology::Mesh& m, const Field& s, Field& u_face, Rows rows) const {
  ops().curl(device_mesh(m), storage(s), storage(u_face),
             range(rows, m.n_inner_faces, m.n_owned_faces));
}

void GlBackend::rotation(const topology::Mesh& m, const Field& u_face, Field& r, Rows rows) const {
  ops().rotation(device_mesh(m), storage(u_face), storage(r),
                 range(rows, m.n_inner_curl(), m.n_owned_curl()));
}

void GlBackend::interpolate(const topology::Mesh& m, const Field& u_face, Field& u_cell,
                            Rows rows) const {
  ops().interpolate(device_mesh(m), storage(u_face), storage(u_cell),
                    range(rows, m.n_inner_cells, m.n_owned_cells));
}

void GlBackend::integrate(const topology::Mesh& m, const Field& v_cell, Field& u_face,
                          Rows rows) const {
  ops().integrate(device_mesh(m), storage(v_cell), storage(u_face),
                  range(rows, m.n_inner_faces, m.n_owned_faces));
}

void GlBackend::convection(const topology::Mesh& m, const Field& u_face, const Field& u_cell,
                           const Field& u_boundary, real upwind, Field& n_cell, Rows rows) const {
  ops().convection(device_mesh(m), storage(u_face), storage(u_cell), storage(u_boundary), upwind,
                   storage(n_cell), range(rows, m.n_inner_cells, m.n_owned_cells));
}

void GlBackend::node_system(const topology::Mesh& m, const Field& d, real b, const Field& w,
                            const Field& fixed, const Field& x, Field& y) const {
  ops().node_system(device_mesh(m), storage(d), b, storage(w), storage(fixed), storage(x),
                    storage(y));
}

std::unique_ptr<NodeSystem> GlBackend::make_node_system(const topology::Mesh& m, const Field& d,
                                                        real b, const Field& w,
                                                        const Field& fixed) const {
  return state_->driver->make_node_system(m, d, b, w, fixed);
}

void GlBackend::node_system_diagonal(const topology::Mesh& m, const Field& d, real b,
                                     const Field& w, const Field& fixed, Field& diag) const {
  ops().node_system_diagonal(device_mesh(m), storage(d), b, storage(w), storage(fixed),
                             storage(diag));
}

void GlBackend::node_laplacian(const topology::Mesh& m, const Field& w, const Field& x,
                               Field& y) const {
  ops().node_laplacian(device_mesh(m), storage(w), storage(x), storage(y));
}

}  // namespace scfd::backend::opengl
