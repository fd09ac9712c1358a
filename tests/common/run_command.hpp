// Test helper: runs a shell command, capturing its exit code, stdout and stderr (through
// temporary files, so both streams are complete even when large). Temporary names carry the
// process id and a counter: several test processes (and build trees) run at the same time.
#pragma once

#include <sys/wait.h>

#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace scfd::test {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline CommandResult run_command(const std::string& command) {
  const auto dir = std::filesystem::temp_directory_path();
  static int counter = 0;
  const std::string tag = std::to_string(::getpid()) + "_" + std::to_string(++counter);
  const auto out = dir / ("scfd_out_" + tag), err = dir / ("scfd_err_" + tag);
  const std::string full = command + " >'" + out.string() + "' 2>'" + err.string() + "' </dev/null";
  const int status = std::system(full.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return r;
}

// A fresh empty directory under the system temp dir, unique per call.
inline std::filesystem::path fresh_directory(const std::string& name) {
  static int counter = 0;
  const auto p =
      std::filesystem::temp_directory_path() /
      ("scfd_" + name + "_" + std::to_string(::getpid()) + "_" + std::to_string(++counter));
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p;
}

}  // namespace scfd::test
