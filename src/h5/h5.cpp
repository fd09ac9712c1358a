// Parallel-HDF5 helpers (see h5.hpp).
#include "h5/h5.hpp"

#include <fmt/format.h>

#include <array>
#include <vector>

#include "core/collectives.hpp"
#include "core/error.hpp"

namespace scfd::h5 {
namespace {

// HDF5 prints its error stack to stderr by default; this module reports one line instead.
void silence() {
  static const bool done = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    return true;
  }();
  (void)done;
}

// The deepest description on HDF5's error stack (the system's reason, when there is one).
std::string reason() {
  std::string deepest;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned, const H5E_error2_t* e, void* data) -> herr_t {
        auto& out = *static_cast<std::string*>(data);
        if (out.empty() && e->desc != nullptr) out = e->desc;
        return 0;
      },
      &deepest);
  H5Eclear2(H5E_DEFAULT);
  return deepest;
}

[[noreturn]] void fail(const std::string& what) {
  const std::string why = reason();
  throw Error(why.empty() ? what : what + ": " + why);
}

hid_t check(hid_t id, const std::string& what) {
  if (id < 0) fail(what);
  return id;
}

void check_status(herr_t status, const std::string& what) {
  if (status < 0) fail(what);
}

Id plist(hid_t cls) {
  return {check(H5Pcreate(cls), "cannot make an HDF5 property list"), H5Pclose};
}

Id collective_transfer() {
  Id xfer = plist(H5P_DATASET_XFER);
  check_status(H5Pset_dxpl_mpio(xfer.get(), H5FD_MPIO_COLLECTIVE), "cannot set collective I/O");
  return xfer;
}

Id file_access(MPI_Comm comm) {
  silence();
  Id fapl = plist(H5P_FILE_ACCESS);
  check_status(H5Pset_fapl_mpio(fapl.get(), comm, MPI_INFO_NULL), "cannot set MPI-IO access");
  return fapl;
}

// Creation properties without modification times: a file written twice with the same data has
// the same bytes (outputs and checkpoints can be compared with cmp).
Id untimed(hid_t cls) {
  Id p = plist(cls);
  check_status(H5Pset_obj_track_times(p.get(), false), "cannot turn off time tracking");
  return p;
}

Id scalar_space() {
  return {check(H5Screate(H5S_SCALAR), "cannot make a dataspace"), H5Sclose};
}

Id string_type(std::size_t size) {
  Id t{check(H5Tcopy(H5T_C_S1), "cannot make a string type"), H5Tclose};
  check_status(H5Tset_size(t.get(), size > 0 ? size : 1), "cannot size a string type");
  return t;
}

void write_scalar(hid_t loc, const std::string& name, hid_t type, const void* value) {
  const Id space = scalar_space();
  const Id a{check(H5Acreate2(loc, name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                   "cannot create the attribute " + name),
             H5Aclose};
  check_status(H5Awrite(a.get(), type, value), "cannot write the attribute " + name);
}

std::optional<Id> open_attribute(hid_t loc, const std::string& name) {
  if (H5Aexists(loc, name.c_str()) <= 0) return std::nullopt;
  return Id{check(H5Aopen(loc, name.c_str(), H5P_DEFAULT), "cannot open the attribute " + name),
            H5Aclose};
}

// The file and memory spaces of rows [begin, begin + count) of a dataset of `columns` columns
// (1D when 1; none selected when count = 0).
std::pair<Id, Id> range_spaces(hid_t dataset, std::int64_t begin, std::int64_t count,
                               int columns = 1) {
  Id file{check(H5Dget_space(dataset), "cannot get a dataspace"), H5Sclose};
  const int rank = columns == 1 ? 1 : 2;
  const std::array<hsize_t, 2> c{static_cast<hsize_t>(count), static_cast<hsize_t>(columns)};
  Id mem{check(H5Screate_simple(rank, c.data(), nullptr), "cannot make a dataspace"), H5Sclose};
  if (count == 0) {
    check_status(H5Sselect_none(file.get()), "cannot select");
    check_status(H5Sselect_none(mem.get()), "cannot select");
  } else {
    const std::array<hsize_t, 2> b{static_cast<hsize_t>(begin), 0};
    check_status(
        H5Sselect_hyperslab(file.get(), H5S_SELECT_SET, b.data(), nullptr, c.data(), nullptr),
        "cannot select a range");
  }
  return {std::move(file), std::move(mem)};
}

// The file and memory types of a Type.
std::pair<hid_t, hid_t> types_of(Type t) {
  switch (t) {
    case Type::f64:
      return {H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE};
    case Type::i64:
      return {H5T_STD_I64LE, H5T_NATIVE_INT64};
    case Type::i32:
      return {H5T_STD_I32LE, H5T_NATIVE_INT32};
    case Type::u8:
      return {H5T_STD_U8LE, H5T_NATIVE_UINT8};
  }
  return {H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE};
}

}  // namespace

void Steps::operator()(const std::function<void()>& part) {
  if (!error_.empty()) return;
  std::string mine;
  try {
    part();
  } catch (const Error& e) {
    mine = e.what();
  } catch (const InputError& e) {
    mine = e.what();
  }
  error_ = first_message(mine);
}

void Id::close() {
  if (id_ < 0) return;
  const hid_t id = id_;
  id_ = H5I_INVALID_HID;
  if (close_(id) < 0) fail("cannot close the file");
}

void Id::reset() noexcept {
  if (id_ >= 0) close_(id_);
  id_ = H5I_INVALID_HID;
}

Id create_file(const std::filesystem::path& path, MPI_Comm comm) {
  const Id fapl = file_access(comm);
  return {check(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()),
                "cannot create the file"),
          H5Fclose};
}

Id open_file(const std::filesystem::path& path) {
  silence();
  // POSIX reads (HDF5's default driver), not MPI-IO: each rank reads its own blocks, and a
  // damaged file that sends HDF5 to a wild offset is an HDF5 error here, where Open MPI's MPI-IO
  // printed a line of its own on stderr.
  return {check(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT),
                "not a readable HDF5 file (truncated or damaged?)"),
          H5Fclose};
}

Id create_group(hid_t loc, const std::string& name) {
  const Id gcpl = untimed(H5P_GROUP_CREATE);
  return {check(H5Gcreate2(loc, name.c_str(), H5P_DEFAULT, gcpl.get(), H5P_DEFAULT),
                "cannot create the group " + name),
          H5Gclose};
}

Id open_group(hid_t loc, const std::string& name) {
  if (!exists(loc, name)) throw Error("the group " + name + " is missing");
  return {check(H5Gopen2(loc, name.c_str(), H5P_DEFAULT), "cannot open the group " + name),
          H5Gclose};
}

bool exists(hid_t loc, const std::string& name) {
  silence();
  const htri_t e = H5Lexists(loc, name.c_str(), H5P_DEFAULT);
  H5Eclear2(H5E_DEFAULT);
  return e > 0;
}

void write_attribute(hid_t loc, const std::string& name, double value) {
  write_scalar(loc, name, H5T_NATIVE_DOUBLE, &value);
}

void write_attribute(hid_t loc, const std::string& name, std::uint64_t value) {
  write_scalar(loc, name, H5T_NATIVE_UINT64, &value);
}

void write_attribute(hid_t loc, const std::string& name, const std::string& value) {
  const Id t = string_type(value.size());
  std::string padded = value;
  padded.resize(std::max<std::size_t>(value.size(), 1), '\0');
  write_scalar(loc, name, t.get(), padded.data());
}

std::optional<double> read_double(hid_t loc, const std::string& name) {
  const std::optional<Id> a = open_attribute(loc, name);
  if (!a) return std::nullopt;
  double v = 0;
  if (H5Aread(a->get(), H5T_NATIVE_DOUBLE, &v) < 0) fail("cannot read the attribute " + name);
  return v;
}

std::optional<std::uint64_t> read_u64(hid_t loc, const std::string& name) {
  const std::optional<Id> a = open_attribute(loc, name);
  if (!a) return std::nullopt;
  std::uint64_t v = 0;
  if (H5Aread(a->get(), H5T_NATIVE_UINT64, &v) < 0) fail("cannot read the attribute " + name);
  return v;
}

std::optional<std::string> read_string(hid_t loc, const std::string& name) {
  const std::optional<Id> a = open_attribute(loc, name);
  if (!a) return std::nullopt;
  const Id type{check(H5Aget_type(a->get()), "cannot read the attribute " + name), H5Tclose};
  if (H5Tget_class(type.get()) != H5T_STRING || H5Tis_variable_str(type.get()) > 0)
    throw Error("the attribute " + name + " is not a fixed-length string");
  const std::size_t size = H5Tget_size(type.get());
  std::string v(size, '\0');
  const Id mem = string_type(size);
  if (H5Aread(a->get(), mem.get(), v.data()) < 0) fail("cannot read the attribute " + name);
  v.resize(v.find('\0') == std::string::npos ? v.size() : v.find('\0'));
  return v;
}

void write_attribute(hid_t loc, const std::string& name, std::span<const std::int64_t> values) {
  const auto n = static_cast<hsize_t>(values.size());
  const Id space{check(H5Screate_simple(1, &n, nullptr), "cannot make a dataspace"), H5Sclose};
  const Id a{
      check(H5Acreate2(loc, name.c_str(), H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
            "cannot create the attribute " + name),
      H5Aclose};
  check_status(H5Awrite(a.get(), H5T_NATIVE_INT64, values.data()),
               "cannot write the attribute " + name);
}

Id write_rows(hid_t loc, const std::string& name, Type type, std::int64_t rows, int columns,
              std::int64_t begin, std::int64_t count, const void* data) {
  const auto [file_type, mem_type] = types_of(type);
  const std::array<hsize_t, 2> dims{static_cast<hsize_t>(rows), static_cast<hsize_t>(columns)};
  const Id space{check(H5Screate_simple(columns == 1 ? 1 : 2, dims.data(), nullptr),
                       "cannot make a dataspace"),
                 H5Sclose};
  const Id dcpl = untimed(H5P_DATASET_CREATE);
  Id ds{check(H5Dcreate2(loc, name.c_str(), file_type, space.get(), H5P_DEFAULT, dcpl.get(),
                         H5P_DEFAULT),
              "cannot create the dataset " + name),
        H5Dclose};
  const auto [file, mem] = range_spaces(ds.get(), begin, count, columns);
  const Id xfer = collective_transfer();
  check_status(H5Dwrite(ds.get(), mem_type, mem.get(), file.get(), xfer.get(), data),
               "cannot write the dataset " + name);
  return ds;
}

Id write_doubles(hid_t loc, const std::string& name, std::int64_t n, std::int64_t begin,
                 std::span<const real> data) {
  return write_rows(loc, name, Type::f64, n, 1, begin, static_cast<std::int64_t>(data.size()),
                    data.data());
}

namespace {

// A damaged layout (one flipped bit in its version) made HDF5 copy past its buffers inside
// H5Dread (SIGSEGV): a dataset is read only when it is stored as written, contiguous, its size
// that of its dataspace and inside the file.
void check_storage(hid_t dataset, const std::string& name) {
  const Id dcpl{check(H5Dget_create_plist(dataset), "cannot read the layout of " + name), H5Pclose};
  const Id type{check(H5Dget_type(dataset), "cannot read the type of " + name), H5Tclose};
  const Id space{check(H5Dget_space(dataset), "cannot get a dataspace"), H5Sclose};
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  const hsize_t bytes = H5Dget_storage_size(dataset);
  const haddr_t at = H5Dget_offset(dataset);
  const hid_t file = H5Iget_file_id(dataset);
  hsize_t file_size = 0;
  const herr_t got = file < 0 ? -1 : H5Fget_filesize(file, &file_size);
  if (file >= 0) H5Fclose(file);
  const std::size_t element = H5Tget_size(type.get());
  const bool empty = n == 0 && bytes == 0;
  if (got < 0 || H5Pget_layout(dcpl.get()) != H5D_CONTIGUOUS || n < 0 || element == 0 ||
      (!empty && (bytes != static_cast<hsize_t>(n) * element || at == HADDR_UNDEF ||
                  at > file_size || bytes > file_size - at)))
    throw Error("the dataset " + name + " is damaged (its storage does not match its size)");
}

}  // namespace

Id open_dataset(hid_t loc, const std::string& name) {
  if (!exists(loc, name)) throw Error("the dataset " + name + " is missing");
  Id ds{check(H5Dopen2(loc, name.c_str(), H5P_DEFAULT), "cannot open the dataset " + name),
        H5Dclose};
  check_storage(ds.get(), name);
  return ds;
}

std::int64_t length(hid_t dataset) {
  const Id space{check(H5Dget_space(dataset), "cannot get a dataspace"), H5Sclose};
  if (H5Sget_simple_extent_ndims(space.get()) != 1) throw Error("a dataset is not 1D");
  hsize_t n = 0;
  H5Sget_simple_extent_dims(space.get(), &n, nullptr);
  return static_cast<std::int64_t>(n);
}

void read_doubles(hid_t dataset, std::int64_t begin, std::span<real> out) {
  const auto [file, mem] = range_spaces(dataset, begin, static_cast<std::int64_t>(out.size()));
  check_status(H5Dread(dataset, H5T_NATIVE_DOUBLE, mem.get(), file.get(), H5P_DEFAULT, out.data()),
               "cannot read a dataset");
}

void write_text(hid_t loc, const std::string& name, const std::string& text, bool writer) {
  const Id dcpl = untimed(H5P_DATASET_CREATE);
  const auto dims = static_cast<hsize_t>(text.size());
  const Id space{check(H5Screate_simple(1, &dims, nullptr), "cannot make a dataspace"), H5Sclose};
  const Id ds{check(H5Dcreate2(loc, name.c_str(), H5T_NATIVE_CHAR, space.get(), H5P_DEFAULT,
                               dcpl.get(), H5P_DEFAULT),
                    "cannot create the dataset " + name),
              H5Dclose};
  const auto [file, mem] =
      range_spaces(ds.get(), 0, writer ? static_cast<std::int64_t>(text.size()) : 0);
  const Id xfer = collective_transfer();
  check_status(H5Dwrite(ds.get(), H5T_NATIVE_CHAR, mem.get(), file.get(), xfer.get(), text.data()),
               "cannot write the dataset " + name);
}

std::string read_text(hid_t loc, const std::string& name) {
  const Id ds = open_dataset(loc, name);
  std::string text(static_cast<std::size_t>(length(ds.get())), '\0');
  const auto [file, mem] = range_spaces(ds.get(), 0, static_cast<std::int64_t>(text.size()));
  check_status(H5Dread(ds.get(), H5T_NATIVE_CHAR, mem.get(), file.get(), H5P_DEFAULT, text.data()),
               "cannot read the dataset " + name);
  return text;
}

}  // namespace scfd::h5
