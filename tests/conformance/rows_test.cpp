// The halo overlap's two parts (backend::Rows): on every backend of the table in each of its
// precisions and storages (tests/conformance/variants.hpp), an operator computed as Rows::inner
// then Rows::interface gives the same bits on every owned output as one Rows::all call, its
// inner part alone computes the leading outputs (and no others), and ghost outputs stay
// untouched. Rank meshes of a 2D and a 3D jittered
// mesh cut in two by METIS, large enough that the inner part exceeds the GPU alignment.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "backend/test_meshes.hpp"
#include "conformance/variants.hpp"
#include "mesh_io/generate.hpp"
#include "partition/extract.hpp"
#include "partition/partition.hpp"
#include "topology/build.hpp"

namespace scfd::test {
namespace {

using backend::Backend;
using backend::Field;
using backend::Rows;

constexpr real kSentinel = 4096.5;

// Rank 0 of the mesh cut in two parts.
const Mesh& rank_mesh(int dim) {
  static const auto make = [](int d) {
    const topology::Mesh global =
        topology::build_mesh(d == 3 ? mesh_io::generate_cube(14, 14, 14, 0.2, 3)
                                    : mesh_io::generate_square(70, 70, 0.2, 3));
    return partition::extract_local(global, partition::partition_cells(global, 2), 0);
  };
  static const Mesh square = make(2), cube = make(3);
  return dim == 3 ? cube : square;
}

class OverlapRows : public ::testing::TestWithParam<BackendVariant> {
 protected:
  void SetUp() override { be_ = GetParam().make(); }
  const Backend& be() const { return *be_; }
  std::unique_ptr<Field> random(index n, std::uint64_t seed) const {
    return be().make_field_from(random_field(static_cast<std::size_t>(n), seed));
  }

  // op(out, rows) writes `components` values per output entity, n_owned owned of n_out; the
  // first n_inner owned outputs read no ghost.
  void expect_split(const std::string& what, index n_out, index n_owned, index n_inner,
                    int components, const std::function<void(Field&, Rows)>& op) const {
    SCOPED_TRACE(what);
    const auto c = static_cast<std::size_t>(components);
    const std::size_t owned = c * static_cast<std::size_t>(n_owned);
    const std::size_t split =
        c * static_cast<std::size_t>(n_inner / be().row_alignment() * be().row_alignment());
    ASSERT_GT(split, 0u) << "the inner part is empty: make the test mesh larger";
    auto whole = be().make_field(static_cast<index>(c) * n_out);
    be().fill(*whole, kSentinel);
    op(*whole, Rows::all);
    std::vector<real> want(c * static_cast<std::size_t>(n_out));
    be().download(*whole, want);

    auto parts = be().make_field(static_cast<index>(c) * n_out);
    be().fill(*parts, kSentinel);
    op(*parts, Rows::inner);
    std::vector<real> got(want.size());
    be().download(*parts, got);
    for (std::size_t i = 0; i < got.size(); ++i)
      ASSERT_EQ(got[i], i < split ? want[i] : kSentinel) << "after the inner part, entry " << i;
    op(*parts, Rows::interface);
    be().download(*parts, got);
    for (std::size_t i = 0; i < got.size(); ++i)
      ASSERT_EQ(got[i], i < owned ? want[i] : kSentinel) << "after both parts, entry " << i;
  }

 private:
  std::unique_ptr<Backend> be_;
};

TEST_P(OverlapRows, OperatorsInTwoPartsEqualOneCall) {
  for (const int dim : {2, 3}) {
    const Mesh& m = rank_mesh(dim);
    SCOPED_TRACE(std::to_string(dim) + "D");
    ASSERT_TRUE(m.distributed());
    const auto cells = random(m.n_cells, 1), faces = random(m.n_faces, 2),
               curl = random(m.n_curl(), 3), bnd = random(m.n_boundary_faces(), 4),
               vcells = random(3 * m.n_cells, 5), vbnd = random(3 * m.n_boundary_faces(), 6);
    expect_split("gradient", m.n_faces, m.n_owned_faces, m.n_inner_faces, 1,
                 [&](Field& y, Rows r) { be().gradient(m, *cells, *bnd, y, r); });
    expect_split("divergence", m.n_cells, m.n_owned_cells, m.n_inner_cells, 1,
                 [&](Field& y, Rows r) { be().divergence(m, *faces, y, r); });
    expect_split("curl", m.n_faces, m.n_owned_faces, m.n_inner_faces, 1,
                 [&](Field& y, Rows r) { be().curl(m, *curl, y, r); });
    expect_split("rotation", m.n_curl(), m.n_owned_curl(), m.n_inner_curl(), 1,
                 [&](Field& y, Rows r) { be().rotation(m, *faces, y, r); });
    expect_split("interpolate", m.n_cells, m.n_owned_cells, m.n_inner_cells, 3,
                 [&](Field& y, Rows r) { be().interpolate(m, *faces, y, r); });
    expect_split("integrate", m.n_faces, m.n_owned_faces, m.n_inner_faces, 1,
                 [&](Field& y, Rows r) { be().integrate(m, *vcells, y, r); });
    for (const real upwind : {0.0, 1.0})
      expect_split(
          "convection", m.n_cells, m.n_owned_cells, m.n_inner_cells, 3,
          [&](Field& y, Rows r) { be().convection(m, *faces, *vcells, *vbnd, upwind, y, r); });

    const auto d = be().make_field_from(random_field(static_cast<std::size_t>(m.n_nodes), 7, 1, 2));
    const auto w = be().make_field_from(random_field(static_cast<std::size_t>(m.n_edges), 8, 0, 1));
    std::vector<real> fixed(static_cast<std::size_t>(m.n_nodes), 0);
    for (std::size_t i = 0; i < fixed.size(); i += 7) fixed[i] = 1;
    const auto f = be().make_field_from(fixed);
    const auto system = be().make_node_system(m, *d, 0.5, *w, *f);
    const auto x = random(m.n_nodes, 9);
    expect_split("node system", m.n_nodes, m.n_owned_nodes, m.n_inner_nodes, 1,
                 [&](Field& y, Rows r) { system->apply(*x, y, r); });

    // A rank-local block over the nodes: a row per owned node, a column per node of its edges.
    backend::SparseMatrix a;
    a.rows = m.n_owned_nodes;
    a.cols = m.n_nodes;
    const std::vector<real> values =
        random_field(2 * static_cast<std::size_t>(m.n_edges) + a.rows, 10);
    for (index i = 0; i < a.rows; ++i) {
      a.column.push_back(i);
      for (index e : m.node_edges.row(i))
        a.column.push_back(m.edge_nodes[2 * e] == i ? m.edge_nodes[2 * e + 1]
                                                    : m.edge_nodes[2 * e]);
      a.offset.push_back(static_cast<index>(a.column.size()));
    }
    a.value.assign(values.begin(), values.begin() + a.entries());
    const index inner_rows = backend::inner_rows(a);
    ASSERT_GE(inner_rows, m.n_inner_nodes);
    ASSERT_LT(inner_rows, m.n_owned_nodes);
    const auto matrix = be().make_matrix(a);
    const auto b = random(m.n_nodes, 11), weight = random(m.n_nodes, 12);
    expect_split("matrix apply", m.n_nodes, m.n_owned_nodes, inner_rows, 1,
                 [&](Field& y, Rows r) { be().matrix_apply(*matrix, *x, y, r); });
    expect_split("matrix residual", m.n_nodes, m.n_owned_nodes, inner_rows, 1,
                 [&](Field& y, Rows r) { be().matrix_residual(*matrix, *b, *x, y, r); });
    expect_split("matrix jacobi", m.n_nodes, m.n_owned_nodes, inner_rows, 1,
                 [&](Field& y, Rows r) { be().matrix_jacobi(*matrix, *weight, *b, *x, y, r); });
  }
}

INSTANTIATE_TEST_SUITE_P(conformance, OverlapRows, ::testing::ValuesIn(backend_variants()),
                         VariantName());

}  // namespace
}  // namespace scfd::test
