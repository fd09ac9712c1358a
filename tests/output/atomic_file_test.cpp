// write_text_atomic / write_file_atomic: the file appears complete or not at all, the old
// content survives a failed write, no .tmp file is left behind, and failures are InputErrors
// naming the path.
#include <gtest/gtest.h>

#include <stdexcept>

#include "core/error.hpp"
#include "output/atomic_file.hpp"
#include "output/output_test_util.hpp"

namespace scfd::output {
namespace {
namespace fs = std::filesystem;
using test::fresh_dir;
using test::read_text;
using test::tmp_files;

TEST(WriteTextAtomic, WritesAndReplaces) {
  const fs::path dir = fresh_dir("atomic_replace");
  const fs::path path = dir / "summary.json";
  write_text_atomic(path, "{\"a\": 1}\n");
  EXPECT_EQ(read_text(path), "{\"a\": 1}\n");
  write_text_atomic(path, "");
  EXPECT_EQ(read_text(path), "");
  write_text_atomic(path, "second");
  EXPECT_EQ(read_text(path), "second");
  EXPECT_TRUE(tmp_files(dir).empty());
}

TEST(WriteTextAtomic, MissingDirectoryIsInputErrorNamingPath) {
  const fs::path path = fresh_dir("atomic_missing") / "no" / "such" / "file.txt";
  try {
    write_text_atomic(path, "x");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
  }
}

// A full disk, simulated by pointing the .tmp name at /dev/full (every write fails with ENOSPC):
// the error names the path and the reason, the old file is intact and the .tmp is gone.
TEST(WriteTextAtomic, DiskFullKeepsOldContent) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const fs::path dir = fresh_dir("atomic_full");
  const fs::path path = dir / "case.toml";
  write_text_atomic(path, "old");
  fs::create_symlink("/dev/full", temp_path_for(path));
  try {
    write_text_atomic(path, std::string(1 << 16, 'x'));
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(path.string()), std::string::npos) << what;
    EXPECT_NE(what.find("No space left on device"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << "one line: " << what;
  }
  EXPECT_EQ(read_text(path), "old");
  EXPECT_FALSE(fs::exists(fs::symlink_status(temp_path_for(path))));
}

TEST(WriteFileAtomic, ProducerFailureRemovesTmpAndPropagates) {
  const fs::path dir = fresh_dir("atomic_producer");
  const fs::path path = dir / "out.bin";
  auto fail = [](const fs::path& tmp) {
    write_text_atomic(tmp.parent_path() / "unrelated.txt", "ok");
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fclose(f);
    throw std::runtime_error("producer failed");
  };
  EXPECT_THROW(write_file_atomic(path, fail), std::runtime_error);
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(tmp_files(dir).empty());
}

}  // namespace
}  // namespace scfd::output
