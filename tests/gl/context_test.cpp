// EGL device enumeration, context creation, DeviceInfo, and the device-choice errors of
// `streamcfd check-kernels`.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "common/run_command.hpp"
#include "core/error.hpp"
#include "gl/context.hpp"
#include "gl_fixture.hpp"

namespace scfd::gl {
namespace {

TEST(Context, CreatesGl43CoreWithFp64) {
  const DeviceInfo& d = test::gl_context().info();
  EXPECT_GE(d.gl_major * 10 + d.gl_minor, 43) << d.version;
  EXPECT_TRUE(d.fp64) << describe(d);  // llvmpipe and every GL 4.x GPU we target
  EXPECT_FALSE(d.vendor.empty());
  EXPECT_FALSE(d.renderer.empty());
  EXPECT_GE(d.max_work_groups_x, 65535);
  EXPECT_NE(describe(d).find("fp64 yes"), std::string::npos);
  if (d.renderer.find("llvmpipe") != std::string::npos) {
    EXPECT_TRUE(d.software);
  }
  EXPECT_NO_THROW(require_fp64(d));
}

TEST(Context, ListDevicesFindsTheContextDevice) {
  const DeviceInfo& current = test::gl_context().info();
  const std::vector<DeviceInfo> all = list_devices();
  ASSERT_FALSE(all.empty());
  EXPECT_TRUE(std::any_of(all.begin(), all.end(),
                          [&](const DeviceInfo& d) { return d.renderer == current.renderer; }));
}

TEST(Context, RequireFp64NamesFp32) {
  DeviceInfo d;
  d.index = 0;
  d.renderer = "toy";
  try {
    require_fp64(d);
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("fp32"), std::string::npos) << e.what();
  }
}

TEST(Context, DeviceOutOfRangeIsInputError) {
  const int count = static_cast<int>(list_devices().size());
  try {
    Context c = Context::create(count + 5);
    FAIL() << "no throw";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("does not exist"), std::string::npos) << m;
    EXPECT_NE(m.find(std::to_string(count) + " device(s) found"), std::string::npos) << m;
  }
}

TEST(CheckKernelsCommand, EnvDeviceOutOfRangeExits2WithOneLine) {
  const test::CommandResult r =
      test::run_command(std::string("SCFD_GL_DEVICE=99 ") + SCFD_BINARY + " check-kernels");
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("EGL device 99 (from SCFD_GL_DEVICE) does not exist"), std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// The run's message names the case-file key, not a command-line option it did not use.
TEST(RunCommand, CaseDeviceOutOfRangeNamesTheKey) {
  const test::CommandResult r = test::run_command(
      std::string(SCFD_BINARY) + " run " + SCFD_SOURCE_DIR +
      "/cases/heat-square/case.toml --set solver.backend=gl-compute --set solver.device=99");
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("EGL device 99 (from solver.device) does not exist"), std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(CheckKernelsCommand, CompilesEveryKernel) {
  const test::CommandResult r = test::run_command(std::string(SCFD_BINARY) + " check-kernels");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("fp64 yes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("axpy.glsl"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("common.glsl"), std::string::npos) << "include-only file compiled:\n"
                                                          << r.out;
  EXPECT_EQ(r.out.find("FAILED"), std::string::npos) << r.out << r.err;
}

// gl-raster: every body under the fragment driver; kernels with their own main are named as
// gl-compute's.
TEST(CheckKernelsCommand, CompilesEveryBodyUnderTheFragmentDriver) {
  const test::CommandResult r =
      test::run_command(std::string(SCFD_BINARY) + " check-kernels --backend gl-raster");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("axpy.glsl                fp64  fragment  ok"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("dot.glsl                 not a body"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("FAILED"), std::string::npos) << r.out << r.err;
}

}  // namespace
}  // namespace scfd::gl
