// Every cpu operator checks the sizes of its spans and that its output does not alias an input
// (SCFD_CHECK, docs/architecture.md §8.5): a wrong size aborts with the operator and argument
// named.
#include <vector>

#include "backend/cpu/operators.hpp"
#include "test_meshes.hpp"
#include "topology/p1.hpp"

namespace scfd::test {
namespace {

class SpanCheckDeathTest : public MeshTest {};

TEST_P(SpanCheckDeathTest, WrongSizesAbort) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const Mesh& m = mesh();
  std::vector<real> cells(m.n_cells), faces(m.n_faces), bfaces(m.n_boundary_faces());
  std::vector<real> curl(m.n_curl()), nodes(m.n_nodes), edges(m.n_edges);
  std::vector<Vec3> vcells(m.n_cells);
  std::vector<real> short_faces(m.n_faces - 1);
  namespace cpu = backend::cpu;
  EXPECT_DEATH(cpu::gradient(m, cells, faces, faces), "gradient: q_boundary");
  EXPECT_DEATH(cpu::divergence(m, faces, nodes), "divergence: d_cell");
  EXPECT_DEATH(cpu::curl(m, curl, short_faces), "curl: u_face");
  EXPECT_DEATH(cpu::rotation(m, short_faces, curl), "rotation: u_face");
  EXPECT_DEATH(cpu::interpolate(m, short_faces, vcells), "interpolate: u_face");
  EXPECT_DEATH(cpu::integrate(m, vcells, cells), "integrate: u_face");
  EXPECT_DEATH(cpu::node_laplacian(m, edges, nodes, cells), "node_laplacian: out");
  EXPECT_DEATH(cpu::node_laplacian_diagonal(m, cells, nodes), "edge_weight");
  EXPECT_DEATH(topology::edge_weights(m, nodes, edges), "k_cell");
  EXPECT_DEATH(cpu::divergence(m, faces, std::span<real>(faces.data(), m.n_cells)), "aliases");
}

INSTANTIATE_TEST_SUITE_P(operators, SpanCheckDeathTest,
                         ::testing::Values("square_structured", "cube_structured"),
                         [](const auto& p) { return p.param; });

}  // namespace
}  // namespace scfd::test
