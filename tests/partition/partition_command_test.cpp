// `streamcfd partition MESH -n N [-o FILE.vtu]` end to end: prints one line per quality figure
// and the time, writes the mesh with the cell field "part" (to -o, or MESH's stem + "-partN.vtu"
// in the current directory); more parts than cells or fewer than one exit with code 2 and one
// line on stderr.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "common/run_command.hpp"

namespace {

scfd::test::CommandResult run_streamcfd(const std::string& args, const std::string& cwd = ".") {
  return scfd::test::run_command("cd '" + cwd + "' && '" + std::string(SCFD_BINARY) + "' " + args);
}

std::string mesh(const std::string& file) {
  return std::string(SCFD_SOURCE_DIR) + "/meshes/" + file;
}

TEST(PartitionCommand, PrintsQualityAndWritesParts) {
  const auto dir = scfd::test::fresh_directory("partition_cmd");
  const auto vtu = dir / "parts.vtu";
  const auto r =
      run_streamcfd("partition '" + mesh("cube-1.msh") + "' -n 3 -o '" + vtu.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* line : {"parts      3", "edge cut   ", "% of interior faces", "imbalance  ",
                           "cells/part min ", "time       ", "partition ", "written    "})
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
  ASSERT_TRUE(std::filesystem::exists(vtu)) << r.out;
  EXPECT_NE(scfd::test::slurp(vtu).find("Name=\"part\""), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(PartitionCommand, DefaultOutputNameInCurrentDirectory) {
  const auto dir = scfd::test::fresh_directory("partition_cmd");
  const auto r = run_streamcfd("partition '" + mesh("square-1.msh") + "' -n 2", dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "square-1-part2.vtu")) << r.out;
  std::filesystem::remove_all(dir);
}

TEST(PartitionCommand, BadPartCountsExitWithCode2) {
  const auto dir = scfd::test::fresh_directory("partition_cmd");
  for (const char* n : {"1000000", "0"}) {
    const auto r = run_streamcfd("partition '" + mesh("square-1.msh") + "' -n " + n, dir.string());
    EXPECT_EQ(r.exit_code, 2) << n;
    EXPECT_NE(r.err.find("square-1.msh: cannot split"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line expected:\n" << r.err;
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
}

}  // namespace
