// Per-rank logging (see log.hpp).
#include "core/log.hpp"

#include <cstdio>
#include <fstream>
#include <mutex>

#include "core/error.hpp"

namespace scfd::log {
namespace {
struct State {
  int rank = 0;
  bool quiet = false;
  std::ofstream file;
  std::mutex mutex;
};
State& state() {
  static State s;
  return s;
}
// Warnings reach the terminal even when quiet; info lines do not.
void emit(std::FILE* stream, const std::string& line, bool is_warning) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  if (is_warning || !s.quiet) {
    std::fputs(line.c_str(), stream);
    std::fputc('\n', stream);
    std::fflush(stream);
  }
  if (s.file.is_open()) s.file << line << '\n' << std::flush;
}
}  // namespace

void set_rank(int r) {
  state().rank = r;
}
int rank() {
  return state().rank;
}
void set_quiet(bool q) {
  state().quiet = q;
}
void set_file(const std::string& path) {
  State& s = state();
  s.file.open(path, std::ios::trunc);
  if (!s.file) throw input_error("--log {}: cannot open the file for writing", path);
}

void write_info(const std::string& line) {
  if (state().rank == 0) emit(stdout, line, false);
}
void write_warn(const std::string& line) {
  if (state().rank == 0) emit(stderr, "warning: " + line, true);
}
void write_error(const std::string& line) {
  if (state().rank == 0) emit(stderr, "streamcfd: error: " + line, true);
}
void write_all_ranks(const std::string& line) {
  emit(stdout, fmt::format("[rank {}] {}", state().rank, line), false);
}

}  // namespace scfd::log
