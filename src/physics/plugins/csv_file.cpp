// A CSV file of a plugin (see csv_file.hpp).
#include "physics/plugins/csv_file.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "core/failure.hpp"
#include "solvers/collectives.hpp"

namespace scfd::physics {

namespace {

// Writes `text` to `path` (appending or not); the reason of a failure, or "".
std::string write(const std::filesystem::path& path, const std::string& text, bool append) {
  errno = 0;
  std::ofstream out(path, append ? std::ios::app : std::ios::trunc);
  out << text;
  out.close();  // the data reaches the file here: a full disk shows now
  if (out) return {};
  return errno != 0 ? std::strerror(errno) : "write failed";
}

}  // namespace

void CsvFile::create() const {
  std::string error;
  if (solvers::world_rank() == 0) {
    std::error_code ec;
    std::filesystem::create_directories(path_.parent_path(), ec);
    if (ec)
      error =
          fmt::format("{}: cannot make the folder: {}", path_.parent_path().string(), ec.message());
    else if (const std::string why = write(path_, header_ + "\n", false); !why.empty())
      error = fmt::format("{}: cannot write: {}", path_.string(), why);
  }
  solvers::agree_on_input_error(error);
}

void CsvFile::append(const std::string& text) const {
  if (solvers::world_rank() != 0) return;
  if (const std::string why = write(path_, text, true); !why.empty())
    record_failure(fmt::format("{}: cannot write: {}", path_.string(), why));
}

}  // namespace scfd::physics
