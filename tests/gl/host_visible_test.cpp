// Host-visible buffers and fences (gl/buffer.hpp, gl/sync.hpp), the path by which halo packs,
// scalar read-backs and upload staging avoid draining the GL queue: what a kernel writes into a
// host-visible buffer is what the host reads after the wait, and what the host writes through the
// mapping is what the kernels queued after the write read, write after write; staged uploads put
// every part in place.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "gl/buffer.hpp"
#include "gl/context.hpp"
#include "gl/program.hpp"
#include "gl/sync.hpp"
#include "gl/upload.hpp"
#include "gl_fixture.hpp"

namespace scfd::gl {
namespace {

constexpr const char* kAddOne = R"(// add_one.glsl: out[i] = in[i] + 1 for i < n.
#include "common.glsl"
layout(std430, binding = 0) buffer In { uint a[]; };
layout(std430, binding = 1) buffer Out { uint b[]; };
uniform uint n;
void main() {
  uint i = scfd_gid();
  if (i >= n) return;
  b[i] = a[i] + 1u;
}
)";

TEST(HostVisible, TheHostReadsWhatAKernelWroteAfterTheWait) {
  test::gl_context();
  constexpr std::size_t n = 5000;
  Program prog = compile_compute_source("add_one", kAddOne, Precision::fp32, {});
  std::vector<std::uint32_t> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<std::uint32_t>(3 * i);
  Buffer a = Buffer::from<std::uint32_t>(in);
  Buffer b = Buffer::host_visible(n * sizeof(std::uint32_t));
  if (gl_version() >= 44) {
    EXPECT_NE(b.mapped(), nullptr);
  }
  a.bind(0);
  b.bind(1);
  prog.set("n", static_cast<std::uint32_t>(n));
  prog.dispatch(n);
  const std::vector<std::uint32_t> got = b.download<std::uint32_t>();
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], in[i] + 1) << i;
}

// The host writes the input of a kernel, queues it and at once writes the next input into the
// other of two buffers, waiting only on the fence of the kernel that read a buffer before writing
// it again (the upload staging of gl-compute): every kernel must see its own input.
TEST(HostVisible, KernelsSeeTheHostsWritesInOrder) {
  test::gl_context();
  constexpr std::size_t n = 3000;
  constexpr int rounds = 12;
  Program prog = compile_compute_source("add_one", kAddOne, Precision::fp32, {});
  Buffer staging[2] = {Buffer::host_visible(n * sizeof(std::uint32_t)),
                       Buffer::host_visible(n * sizeof(std::uint32_t))};
  Fence read[2];
  std::vector<Buffer> out;
  for (int r = 0; r < rounds; ++r) out.emplace_back(n * sizeof(std::uint32_t));
  prog.set("n", static_cast<std::uint32_t>(n));
  std::vector<std::uint32_t> in(n);
  for (int r = 0; r < rounds; ++r) {
    const int s = r % 2;
    read[s].wait();
    for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<std::uint32_t>(1000 * r + i);
    staging[s].upload<std::uint32_t>(in);
    staging[s].bind(0);
    out[static_cast<std::size_t>(r)].bind(1);
    prog.dispatch(n);
    read[s].place();
  }
  for (int r = 0; r < rounds; ++r) {
    const std::vector<std::uint32_t> got =
        out[static_cast<std::size_t>(r)].download<std::uint32_t>();
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(got[i], static_cast<std::uint32_t>(1000 * r + i + 1))
          << "round " << r << " item " << i;
  }
}

TEST(Fence, WaitWithoutAPlacedFenceReturnsAtOnce) {
  test::gl_context();
  Fence f;
  EXPECT_FALSE(f.placed());
  f.wait();
  f.place();
  EXPECT_TRUE(f.placed());
  f.wait();
  EXPECT_FALSE(f.placed());
  Fence g;
  g.place();
  Fence h = std::move(g);
  EXPECT_TRUE(h.placed());
  EXPECT_FALSE(g.placed());  // NOLINT(bugprone-use-after-move): moved-from is empty by contract
  wait_for_gpu();
}

// A staged upload (gl/upload.hpp) of a buffer several times its staging, in parts that the two
// staging buffers take in turn: every element lands where fill put it, parts cut anywhere.
TEST(HostVisible, StagedUploadsPutEveryPartInPlace) {
  test::gl_context();
  constexpr std::size_t n = 10007, staging = 1000 * sizeof(std::uint32_t);
  Uploader up(staging);
  std::size_t parts = 0;
  for (int round = 0; round < 2; ++round) {  // the second reuses the staging buffers
    const Buffer b =
        up.make<std::uint32_t>(n, [&](std::uint32_t* dst, std::size_t first, std::size_t end) {
          ++parts;
          for (std::size_t i = first; i < end; ++i)
            dst[i - first] = static_cast<std::uint32_t>(7 * i + round);
        });
    const std::vector<std::uint32_t> got = b.download<std::uint32_t>();
    ASSERT_EQ(got.size(), n);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], 7 * i + round) << i;
  }
  EXPECT_EQ(parts, gl_version() >= 44 ? 2 * ((n * 4 + staging - 1) / staging) : 2);
}

}  // namespace
}  // namespace scfd::gl
