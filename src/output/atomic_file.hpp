// Atomic file replacement: every output file is first written to PATH.tmp in the same directory,
// flushed to disk, then renamed over PATH (rename(2) is atomic within one file system), so a
// crash or a full disk never leaves a half-written file under its final name: readers see the
// old content or the new one.
#pragma once

#include <filesystem>
#include <functional>
#include <string_view>

namespace scfd::output {

// PATH with ".tmp" appended (same directory, so the final rename stays on one file system).
std::filesystem::path temp_path_for(const std::filesystem::path& path);

// Writes TEXT to PATH atomically. InputError (one line naming PATH and the reason, e.g. "No
// space left on device") on any failure; the .tmp file is removed and PATH is left untouched.
// Used for the .pvd, JSON summaries and the effective case file.
void write_text_atomic(const std::filesystem::path& path, std::string_view text);

// For writers that open the file themselves (VTK): calls PRODUCE(tmp) to write the whole file
// to tmp = temp_path_for(PATH), then flushes it to disk and renames it to PATH. PRODUCE reports
// failure by throwing; then (and on a failed flush or rename) tmp is removed and the exception
// propagates (InputError for the flush/rename).
void write_file_atomic(const std::filesystem::path& path,
                       const std::function<void(const std::filesystem::path& tmp)>& produce);

// For a file that other processes wrote to temp_path_for(PATH) (parallel HDF5: every rank writes
// its part) and closed: one process flushes it to disk and renames it to PATH. InputError (one
// line naming PATH) on failure, with the .tmp removed.
void commit_temp_file(const std::filesystem::path& path);

}  // namespace scfd::output
