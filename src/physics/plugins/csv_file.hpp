// A CSV file of a plugin (probes.csv, forces.csv, lines/NAME.csv), written by rank 0 only.
// Internal to the plugins.
#pragma once

#include <filesystem>
#include <string>
#include <utility>

namespace scfd::physics {

class CsvFile {
 public:
  // Nothing is written yet (create() does).
  CsvFile(std::filesystem::path path, std::string header)
      : path_(std::move(path)), header_(std::move(header)) {}
  // Collective: rank 0 creates the folder and the file with its header line; when it cannot,
  // every rank throws the same InputError naming the file.
  void create() const;
  // Collective, for a run restarted at `step`: the rows of the existing file up to that step (the
  // first column) stay, later ones go (a run that went past its checkpoint wrote them; the
  // restarted run writes them again), so the file continues as one history. A file whose header
  // differs (the case's probes or patches changed) is kept beside it as NAME.before-restart and
  // a new one created; no file: create(). The rewrite goes through a temporary file, so the old
  // history survives a failure. InputError as create().
  void resume(long step) const;
  // Rank 0 appends `text` (one or more lines, each ending in a newline); other ranks do nothing.
  // A failure (a full disk) is recorded (core/failure.hpp): the run loop stops every rank.
  void append(const std::string& text) const;
  const std::filesystem::path& path() const { return path_; }

 private:
  // Rank 0's parts of create() and resume(): the reason of a failure, or "".
  std::string start_file() const;
  std::string keep_rows(long step) const;

  std::filesystem::path path_;
  std::string header_;
};

}  // namespace scfd::physics
