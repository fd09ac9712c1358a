// Atomic file replacement (see atomic_file.hpp): write PATH.tmp, fsync it, rename it over PATH.
#include "output/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>

#include "core/error.hpp"

namespace scfd::output {
namespace fs = std::filesystem;

namespace {

std::string errno_text(int err) {
  return std::error_code(err, std::generic_category()).message();
}

// Flushes a closed file's data to disk so that the rename never exposes an empty file after a
// power loss. Special files (e.g. a device) may not support fsync (EINVAL): nothing to flush.
void sync_file(const fs::path& tmp, const fs::path& path) {
  const int fd = ::open(tmp.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw input_error("cannot write '{}': {}", path.string(), errno_text(errno));
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0 && err != EINVAL && err != EROFS)
    throw input_error("cannot write '{}': {}", path.string(), errno_text(err));
}

void write_text_file(const fs::path& tmp, const fs::path& path, std::string_view text) {
  std::FILE* file = std::fopen(tmp.c_str(), "wb");
  if (file == nullptr) throw input_error("cannot write '{}': {}", path.string(), errno_text(errno));
  const std::size_t written = std::fwrite(text.data(), 1, text.size(), file);
  int err = written == text.size() ? 0 : errno;
  if (std::fflush(file) != 0 && err == 0) err = errno;
  if (std::fclose(file) != 0 && err == 0) err = errno;
  if (err != 0) throw input_error("cannot write '{}': {}", path.string(), errno_text(err));
}

}  // namespace

fs::path temp_path_for(const fs::path& path) {
  fs::path tmp = path;
  tmp += ".tmp";
  return tmp;
}

void write_file_atomic(const fs::path& path, const std::function<void(const fs::path&)>& produce) {
  const fs::path tmp = temp_path_for(path);
  try {
    produce(tmp);
    sync_file(tmp, path);
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec)
      throw input_error("cannot write '{}': rename from .tmp failed: {}", path.string(),
                        ec.message());
  } catch (...) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw;
  }
}

void commit_temp_file(const fs::path& path) {
  write_file_atomic(path, [](const fs::path&) {});
}

void write_text_atomic(const fs::path& path, std::string_view text) {
  write_file_atomic(path, [&](const fs::path& tmp) { write_text_file(tmp, path, text); });
}

}  // namespace scfd::output
