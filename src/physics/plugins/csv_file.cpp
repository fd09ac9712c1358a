// A CSV file of a plugin (see csv_file.hpp).
#include "physics/plugins/csv_file.hpp"

#include <fstream>

#include "solvers/collectives.hpp"

namespace scfd::physics {

CsvFile::CsvFile(std::filesystem::path path, const std::string& header) : path_(std::move(path)) {
  std::string error;
  if (solvers::world_rank() == 0) {
    std::error_code ec;
    std::filesystem::create_directories(path_.parent_path(), ec);
    std::ofstream out(path_);
    out << header << "\n";
    if (!out) error = path_.string() + ": cannot write";
  }
  solvers::agree_on_input_error(error);
}

void CsvFile::append(const std::string& text) const {
  if (solvers::world_rank() != 0) return;
  std::ofstream out(path_, std::ios::app);
  out << text;
}

}  // namespace scfd::physics
