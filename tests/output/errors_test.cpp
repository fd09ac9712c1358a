// Errors the user can cause: an output directory that cannot be created, a file that cannot be
// written, a full disk (simulated with /dev/full behind the .tmp name). Each is one InputError
// line naming the path; nothing half-written or .tmp is left, earlier outputs stay intact, and
// VTK prints nothing itself.
#include <gtest/gtest.h>

#include <fstream>

#include "core/error.hpp"
#include "output/atomic_file.hpp"
#include "output/output_test_util.hpp"
#include "output/series_writer.hpp"

namespace scfd::output {
namespace {
namespace fs = std::filesystem;

// Runs F, expects an InputError whose one-line message contains every string of PARTS.
template <typename F>
void expect_input_error(F&& f, std::initializer_list<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    for (const std::string& part : parts) EXPECT_NE(what.find(part), std::string::npos) << what;
  }
}

TEST(OutputErrors, DirectoryThatCannotBeCreated) {
  const fs::path root = test::fresh_dir("errors_mkdir");
  std::ofstream(root / "plain_file") << "x";
  const topology::Mesh m = test::two_triangles();
  const fs::path dir = root / "plain_file" / "results";
  expect_input_error([&] { SeriesWriter(m, dir, "heat"); },
                     {"cannot create output directory", dir.string()});
  expect_input_error([&] { SeriesWriter(m, root / "plain_file", "heat"); }, {"plain_file"});
}

TEST(OutputErrors, BadBasename) {
  const topology::Mesh m = test::two_triangles();
  const fs::path dir = test::fresh_dir("errors_basename");
  expect_input_error([&] { SeriesWriter(m, dir, "a/b"); }, {"'a/b'"});
  expect_input_error([&] { SeriesWriter(m, dir, ""); }, {"basename"});
}

// The .vtu's temporary name is taken by a directory: VTK cannot open it (this fails even as root).
TEST(OutputErrors, UnwritableVtu) {
  const topology::Mesh m = test::two_triangles();
  const fs::path dir = test::fresh_dir("errors_vtu");
  SeriesWriter w(m, dir, "heat");
  w.write(0.0, 0, {}, {});
  fs::create_directory(dir / "heat_000001.vtu.tmp");
  testing::internal::CaptureStderr();
  expect_input_error([&] { w.write(0.1, 1, {}, {}); }, {(dir / "heat_000001.vtu").string()});
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "") << "VTK printed its own error";
  EXPECT_FALSE(fs::exists(dir / "heat_000001.vtu"));
  ASSERT_EQ(test::read_pvd(w.pvd_path()).size(), 1u);  // the series still lists step 0 only
}

TEST(OutputErrors, DiskFullWhileWritingVtu) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const topology::Mesh m = test::two_triangles();
  const fs::path dir = test::fresh_dir("errors_full_vtu");
  SeriesWriter w(m, dir, "heat");
  w.write(0.0, 0, {}, {});
  const std::string pvd_before = test::read_text(w.pvd_path());
  fs::create_symlink("/dev/full", dir / "heat_000001.vtu.tmp");
  testing::internal::CaptureStderr();
  expect_input_error([&] { w.write(0.1, 1, {}, {}); },
                     {(dir / "heat_000001.vtu").string(), "No space left on device"});
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "") << "VTK printed its own error";
  EXPECT_FALSE(fs::exists(dir / "heat_000001.vtu"));
  EXPECT_EQ(test::read_text(w.pvd_path()), pvd_before);
  EXPECT_TRUE(test::tmp_files(dir).empty());
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir / "heat_000001.vtu.tmp")));
  w.write(0.1, 1, {}, {});  // space is back: the series continues
  EXPECT_EQ(test::read_pvd(w.pvd_path()).size(), 2u);
}

TEST(OutputErrors, DiskFullWhileWritingPvdAndBoundary) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const topology::Mesh m = test::two_triangles();
  const fs::path dir = test::fresh_dir("errors_full_pvd");
  SeriesWriter w(m, dir, "heat");
  fs::create_symlink("/dev/full", temp_path_for(w.pvd_path()));
  expect_input_error([&] { w.write(0.0, 0, {}, {}); }, {w.pvd_path().string()});
  EXPECT_FALSE(fs::exists(w.pvd_path()));
  fs::create_symlink("/dev/full", dir / "heat_boundary.vtu.tmp");
  expect_input_error([&] { w.write_boundary(); }, {(dir / "heat_boundary.vtu").string()});
  EXPECT_FALSE(fs::exists(dir / "heat_boundary.vtu"));
  EXPECT_TRUE(test::tmp_files(dir).empty());
}

}  // namespace
}  // namespace scfd::output
