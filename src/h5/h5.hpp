// A few parallel-HDF5 calls with RAII handles (the only header that includes hdf5.h). Every
// function throws h5::Error with a sentence naming what failed and HDF5's deepest reason (e.g.
// "No space left on device"). Collective functions must be called by every rank of the file's
// communicator with the same names and attribute values.
#pragma once

#include <hdf5.h>
#include <mpi.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>

#include "core/types.hpp"

namespace scfd::h5 {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The parts of a collective file operation, run in order: a part that throws (Error or
// InputError) on some rank makes every rank skip the parts after it (each part ends with an
// agreement of all ranks), so no rank is left waiting in a collective call. error(): the message
// of the lowest rank that failed, "" while all went well.
class Steps {
 public:
  void operator()(const std::function<void()>& part);
  const std::string& error() const { return error_; }

 private:
  std::string error_;
};

// An HDF5 identifier that closes itself.
class Id {
 public:
  Id() = default;
  Id(hid_t id, herr_t (*closer)(hid_t)) : id_(id), close_(closer) {}
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
  Id(Id&& o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = H5I_INVALID_HID; }
  Id& operator=(Id&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = o.id_;
      close_ = o.close_;
      o.id_ = H5I_INVALID_HID;
    }
    return *this;
  }
  ~Id() { reset(); }
  hid_t get() const { return id_; }
  // Closes now; an error (a failed flush of a file) throws.
  void close();

 private:
  void reset() noexcept;
  hid_t id_ = H5I_INVALID_HID;
  herr_t (*close_)(hid_t) = nullptr;
};

// Collective: a new file (truncating PATH), written through MPI-IO.
Id create_file(const std::filesystem::path& path, MPI_Comm comm);
// An existing file opened read-only by this rank alone (POSIX reads; reading is not collective).
Id open_file(const std::filesystem::path& path);
Id create_group(hid_t loc, const std::string& name);
Id open_group(hid_t loc, const std::string& name);  // Error if missing
bool exists(hid_t loc, const std::string& name);

// Scalar attributes (collective to write).
void write_attribute(hid_t loc, const std::string& name, double value);
void write_attribute(hid_t loc, const std::string& name, std::uint64_t value);
void write_attribute(hid_t loc, const std::string& name, const std::string& value);
std::optional<double> read_double(hid_t loc, const std::string& name);
std::optional<std::uint64_t> read_u64(hid_t loc, const std::string& name);
std::optional<std::string> read_string(hid_t loc, const std::string& name);

void write_attribute(hid_t loc, const std::string& name, std::span<const std::int64_t> values);

// A dataset of `rows` rows of `columns` values (1D when columns is 1) of TYPE; this rank writes
// `count` rows from DATA at rows [begin, begin + count). Collective.
enum class Type { f64, i64, i32, u8 };
Id write_rows(hid_t loc, const std::string& name, Type type, std::int64_t rows, int columns,
              std::int64_t begin, std::int64_t count, const void* data);
// A 1D dataset of n doubles; this rank writes data at [begin, begin + data.size()). Collective.
Id write_doubles(hid_t loc, const std::string& name, std::int64_t n, std::int64_t begin,
                 std::span<const real> data);
// An existing dataset (Error naming it when missing).
Id open_dataset(hid_t loc, const std::string& name);
// Its length, and this rank's part [begin, begin + out.size()) (reads are this rank's alone).
std::int64_t length(hid_t dataset);
void read_doubles(hid_t dataset, std::int64_t begin, std::span<real> out);
// Text as a 1D dataset of bytes, written by the rank with `writer` true (collective); read
// by each rank.
void write_text(hid_t loc, const std::string& name, const std::string& text, bool writer);
std::string read_text(hid_t loc, const std::string& name);

}  // namespace scfd::h5
