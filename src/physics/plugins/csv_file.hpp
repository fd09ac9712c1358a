// A CSV file of a plugin (probes.csv, forces.csv, lines/NAME.csv), written by rank 0 only.
// Internal to the plugins.
#pragma once

#include <filesystem>
#include <string>

namespace scfd::physics {

class CsvFile {
 public:
  // Collective: rank 0 creates the folder and the file with its header line; when it cannot,
  // every rank throws the same InputError naming the file.
  CsvFile(std::filesystem::path path, const std::string& header);
  // Rank 0 appends `text` (one or more lines, each ending in a newline); other ranks do nothing.
  void append(const std::string& text) const;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace scfd::physics
