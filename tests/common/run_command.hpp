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
#include <system_error>
#include <vector>

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

// Removes `path` (a file or a whole directory) when the test program exits, so runs leave
// nothing behind in the temp dir.
inline void remove_at_exit(const std::filesystem::path& path) {
  static struct Cleanup {
    std::vector<std::filesystem::path> paths;
    ~Cleanup() {
      std::error_code ignored;
      for (const auto& p : paths) std::filesystem::remove_all(p, ignored);
    }
  } cleanup;
  cleanup.paths.push_back(path);
}

// A fresh empty directory under the system temp dir, unique per call, removed at exit.
inline std::filesystem::path fresh_directory(const std::string& name) {
  static int counter = 0;
  const auto p =
      std::filesystem::temp_directory_path() /
      ("scfd_" + name + "_" + std::to_string(::getpid()) + "_" + std::to_string(++counter));
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  remove_at_exit(p);
  return p;
}

// Writes `text` to a file named scfd_<name>_<pid> in the system temp dir and returns its path;
// the file is removed at exit.
inline std::string temp_file(const std::string& name, const std::string& text) {
  const auto path =
      std::filesystem::temp_directory_path() / ("scfd_" + name + "_" + std::to_string(::getpid()));
  std::ofstream(path, std::ios::binary) << text;
  remove_at_exit(path);
  return path.string();
}

}  // namespace scfd::test
