// Program::dispatch above the work-group limit (65535 in x on llvmpipe, docs/architecture.md §9)
// switches to a 2D grid; every item must be visited exactly once and nothing past n touched.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "gl/buffer.hpp"
#include "gl/program.hpp"
#include "gl_fixture.hpp"

namespace scfd::gl {
namespace {

constexpr const char* kCount = R"(// count.glsl: count[i] += 1 for every visited item i < n.
#include "common.glsl"
layout(std430, binding = 0) buffer C { uint count[]; };
uniform uint n;
void main() {
  uint i = scfd_gid();
  if (i >= n) return;
  atomicAdd(count[i], 1u);
}
)";

void expect_each_item_once(std::size_t n, unsigned local_size) {
  const DeviceInfo& d = test::gl_context().info();
  const Program::Grid g =
      Program::grid_for(n, local_size, static_cast<unsigned>(d.max_work_groups_x));
  // llvmpipe (CI) allows 65535 groups in x, so n needs the 2D grid there; NVIDIA allows 2^31 - 1
  // and never needs it.
  if (d.max_work_groups_x > 65535 && g.y == 1)
    GTEST_SKIP() << "x limit " << d.max_work_groups_x << ": no 2D grid needed at n = " << n;
  ASSERT_GT(g.y, 1u) << "not a 2D dispatch: raise n";
  Program prog = compile_compute_source("count", kCount, Precision::fp32,
                                        {{"LOCAL_SIZE", std::to_string(local_size)}});
  constexpr std::size_t kPad = 1024;
  const std::vector<std::uint32_t> zeros(n + kPad, 0);
  Buffer counts = Buffer::from<std::uint32_t>(zeros);
  counts.bind(0);
  prog.set("n", static_cast<std::uint32_t>(n));
  prog.dispatch(n);
  const std::vector<std::uint32_t> got = counts.download<std::uint32_t>();
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const std::uint32_t want = i < n ? 1u : 0u;
    if (got[i] != want && bad++ < 5) ADD_FAILURE() << "item " << i << " visited " << got[i];
  }
  EXPECT_EQ(bad, 0u);
}

TEST(Dispatch, GridFor) {
  EXPECT_EQ(Program::grid_for(100, 64, 65535).x, 2u);
  EXPECT_EQ(Program::grid_for(100, 64, 65535).y, 1u);
  const Program::Grid g = Program::grid_for(65536, 1, 65535);
  EXPECT_EQ(g.y, 2u);
  EXPECT_GE(std::size_t{g.x} * g.y, 65536u);
  EXPECT_LE(g.x, 65535u);
}

TEST(Dispatch, TwoDimensionalLocalSize64CoversEveryItemOnce) {
  expect_each_item_once(std::size_t{65535} * 64 + 4321, 64);
}

TEST(Dispatch, TwoDimensionalLocalSize1CoversEveryItemOnce) {
  expect_each_item_once(70001, 1);
}

}  // namespace
}  // namespace scfd::gl
