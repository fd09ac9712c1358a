// Per-rank logging. info() prints on rank 0 only (progress lines, summaries); all_ranks() prints
// on every rank with a "[rank r]" prefix; warn() goes to stderr on rank 0. Info output can be
// silenced (--quiet; warnings still show) and/or copied to a file (--log FILE); the file receives
// everything that is printed on this rank, even when quiet.
#pragma once

#include <fmt/format.h>

#include <string>

namespace scfd::log {

// Call once after MPI_Init (the rank is cached; before that every process is rank 0).
void set_rank(int rank);
int rank();
void set_quiet(bool quiet);
// Opens (truncates) FILE; throws InputError if it cannot be opened.
void set_file(const std::string& path);

void write_info(const std::string& line);
void write_warn(const std::string& line);
void write_error(const std::string& line);
void write_all_ranks(const std::string& line);

template <typename... Args>
void info(fmt::format_string<Args...> f, Args&&... args) {
  write_info(fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
void warn(fmt::format_string<Args...> f, Args&&... args) {
  write_warn(fmt::format(f, std::forward<Args>(args)...));
}
// The one line of a run that fails after it started (rank 0, even when quiet): the same form as
// the errors of bad input, "streamcfd: error: ...".
template <typename... Args>
void error(fmt::format_string<Args...> f, Args&&... args) {
  write_error(fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
void all_ranks(fmt::format_string<Args...> f, Args&&... args) {
  write_all_ranks(fmt::format(f, std::forward<Args>(args)...));
}

}  // namespace scfd::log
