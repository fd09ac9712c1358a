// The traffic model (backend/traffic.hpp) knows the 11 operators and the vector operations, and
// only those: every one moves bytes, more in fp64 than in fp32, and an unknown name is fatal.
#include <gtest/gtest.h>

#include "backend/test_meshes.hpp"
#include "backend/traffic.hpp"

namespace scfd::test {
namespace {

TEST(TrafficBytes, ModelCoversEveryOperator) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const Mesh& m = *find_mesh("cube_irregular");
  for (const char* op :
       {"gradient", "divergence", "flux_sum_abs", "curl", "rotation", "interpolate", "integrate",
        "convection", "node_laplacian", "node_system", "node_system_diagonal", "node_system_apply",
        "copy", "scale", "dot", "axpy", "xpay", "pcg_update"}) {
    const double b64 = backend::traffic_bytes(op, m, 1000, 8);
    const double b32 = backend::traffic_bytes(op, m, 1000, 4);
    EXPECT_GT(b32, 0) << op;
    EXPECT_GT(b64, b32) << op;  // the reals double, the indices do not
  }
  EXPECT_DEATH(backend::traffic_bytes("laplacian", m, 0, 8), "unknown operation");
}

}  // namespace
}  // namespace scfd::test
