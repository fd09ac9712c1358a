// A CSV file of a plugin (see csv_file.hpp).
#include "physics/plugins/csv_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>

#include "core/collectives.hpp"
#include "core/failure.hpp"
#include "core/log.hpp"

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
  if (world_rank() == 0) error = start_file();
  agree_on_input_error(error);
}

void CsvFile::resume(long step) const {
  std::string error;
  if (world_rank() == 0) error = keep_rows(step);
  agree_on_input_error(error);
}

std::string CsvFile::start_file() const {
  std::error_code ec;
  std::filesystem::create_directories(path_.parent_path(), ec);
  if (ec)
    return fmt::format("{}: cannot make the folder: {}", path_.parent_path().string(),
                       ec.message());
  if (const std::string why = write(path_, header_ + "\n", false); !why.empty())
    return fmt::format("{}: cannot write: {}", path_.string(), why);
  return {};
}

std::string CsvFile::keep_rows(long step) const {
  std::ifstream in(path_);
  std::string line;
  if (!in || !std::getline(in, line)) return start_file();
  std::error_code ec;
  if (line != header_) {
    in.close();
    const std::filesystem::path old = path_.string() + ".before-restart";
    std::filesystem::rename(path_, old, ec);
    if (ec)
      return fmt::format("{}: cannot rename to {}: {}", path_.string(), old.string(), ec.message());
    log::warn("{}: its columns differ from this run's: kept as {}; a new file starts",
              path_.string(), old.string());
    return start_file();
  }
  // Complete rows (as many columns as the header) up to `step`, in file order; the first other
  // row ends the kept part.
  const auto columns = std::count(header_.begin(), header_.end(), ',');
  std::string kept = header_ + "\n";
  while (std::getline(in, line)) {
    long row = 0;
    const char* end = line.data() + line.size();
    const auto [at, why] = std::from_chars(line.data(), end, row);
    if (why != std::errc() || at == end || *at != ',' || row > step ||
        std::count(line.begin(), line.end(), ',') != columns)
      break;
    kept += line + "\n";
  }
  in.close();
  const std::filesystem::path tmp = path_.string() + ".tmp";
  if (const std::string why = write(tmp, kept, false); !why.empty()) {
    std::filesystem::remove(tmp, ec);
    return fmt::format("{}: cannot write: {}", tmp.string(), why);
  }
  std::filesystem::rename(tmp, path_, ec);
  if (ec) return fmt::format("{}: cannot replace: {}", path_.string(), ec.message());
  return {};
}

void CsvFile::append(const std::string& text) const {
  if (world_rank() != 0) return;
  if (const std::string why = write(path_, text, true); !why.empty())
    record_failure(fmt::format("{}: cannot write: {}", path_.string(), why));
}

}  // namespace scfd::physics
