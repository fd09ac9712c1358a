// Robustness of read_gmsh: good files truncated at every byte and with random bytes overwritten
// must either read (with every node index in range) or throw InputError: no other exception,
// no crash, no hang, no huge allocation (a corrupted count must not be trusted).
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include "core/error.hpp"
#include "mesh_io/gmsh.hpp"

namespace scfd::mesh_io {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// Parses `text`; returns 1 on success, 0 on InputError (other exceptions fail the test).
int try_read(const std::string& path, const std::string& text) {
  try {
    const RawMesh m = parse_gmsh(path, text);
    for (index n : m.cells) EXPECT_TRUE(n >= 0 && n < m.n_nodes());
    for (index n : m.bfaces) EXPECT_TRUE(n >= 0 && n < m.n_nodes());
    EXPECT_EQ(m.cells.size(), static_cast<std::size_t>(m.n_cells()) * (m.dim + 1));
    EXPECT_EQ(m.bfaces.size(), static_cast<std::size_t>(m.n_bfaces()) * m.dim);
    return 1;
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind(path, 0), 0u) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    return 0;
  }
}

const char* const kFiles[] = {"square-msh22.msh", "square-msh22-bin.msh", "square-msh41.msh",
                              "square-msh41-bin.msh"};

std::string data_file(const char* name) {
  return std::string(SCFD_SOURCE_DIR) + "/tests/data/gmsh/" + name;
}

TEST(GmshFuzz, TruncatedAtEveryByte) {
  const std::string path = "fuzzed.msh";
  for (const char* f : kFiles) {
    SCOPED_TRACE(f);
    const std::string good = slurp(data_file(f));
    ASSERT_GT(good.size(), 1000u);
    int ok = 0;
    for (std::size_t n = 0; n < good.size(); ++n) ok += try_read(path, good.substr(0, n));
    // Only cuts in the last line's trailing newline/marker can still read.
    EXPECT_LE(ok, 2);
    EXPECT_EQ(try_read(path, good), 1);
  }
}

TEST(GmshFuzz, RandomBytesOverwritten) {
  const std::string path = "fuzzed.msh";
  std::mt19937 rng(12345);
  const char interesting[] = {'\0', '\n', ' ', '-', '9', '$', '"', '.', 'e', '\x7f', '\xff'};
  for (const char* f : kFiles) {
    SCOPED_TRACE(f);
    const std::string good = slurp(data_file(f));
    for (int trial = 0; trial < 1500; ++trial) {
      std::string bad = good;
      const int flips = 1 + static_cast<int>(rng() % 4);
      for (int k = 0; k < flips; ++k) {
        const std::size_t at = rng() % bad.size();
        bad[at] =
            (rng() % 2) ? interesting[rng() % sizeof interesting] : static_cast<char>(rng() & 0xff);
      }
      try_read(path, bad);
    }
  }
}

}  // namespace
}  // namespace scfd::mesh_io
