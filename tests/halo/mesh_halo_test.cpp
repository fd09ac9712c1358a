// The canonical halo test (docs/architecture.md §8.9) on distributed meshes, run at np = 1..4: rank
// 0 builds a jittered generated square, a jittered generated cube and the committed Gmsh mesh
// meshes/part-1.msh; partition::distribute gives each rank its mesh; each rank writes the global
// id of every owned node, edge, face and cell into a field (ghosts -1) and exchanges it: every
// ghost must then hold its own global id. Also: all four plans in flight around interior work,
// the host index exchange, and the statistics of the cell halo (a symmetric relation).
#include <gtest/gtest.h>
#include <mpi.h>

#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "halo/halo.hpp"
#include "mesh_io/generate.hpp"
#include "mesh_io/gmsh.hpp"
#include "partition/distribute.hpp"
#include "topology/build.hpp"

namespace scfd::halo {
namespace {

using backend::cpu::CpuBackend;
using backend::cpu::host;
using topology::Mesh;

constexpr Entity kEntities[] = {Entity::node, Entity::edge, Entity::face, Entity::cell};

int my_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

Mesh serial_mesh(const std::string& name) {
  if (name == "square") return topology::build_mesh(mesh_io::generate_square(14, 11, 0.3, 7));
  if (name == "cube") return topology::build_mesh(mesh_io::generate_cube(5, 4, 6, 0.25, 3));
  return topology::build_mesh(mesh_io::read_gmsh(std::string(SCFD_SOURCE_DIR) + "/meshes/" + name));
}

// This rank's mesh; built once per mesh name and process (every rank calls it in the same order).
const Mesh& local_mesh(const std::string& name) {
  static std::vector<std::pair<std::string, std::unique_ptr<Mesh>>> cache;
  for (const auto& [n, m] : cache)
    if (n == name) return *m;
  std::optional<Mesh> global;
  if (my_rank() == 0) global = serial_mesh(name);
  auto local =
      std::make_unique<Mesh>(partition::distribute(global ? &*global : nullptr, MPI_COMM_WORLD));
  cache.emplace_back(name, std::move(local));
  return *cache.back().second;
}

// Global id of every local entity (a serial mesh: the local index).
std::vector<index> gids(const Mesh& m, Entity e) {
  const std::vector<index>* g[] = {&m.node_gid, &m.edge_gid, &m.face_gid, &m.cell_gid};
  const index n[] = {m.n_nodes, m.n_edges, m.n_faces, m.n_cells};
  const auto k = static_cast<std::size_t>(e);
  if (!g[k]->empty()) return *g[k];
  std::vector<index> v(static_cast<std::size_t>(n[k]));
  std::iota(v.begin(), v.end(), 0);
  return v;
}

// Global ids on owned entities, -1 on ghosts.
std::vector<real> owned_ids(const std::vector<index>& gid, index n_owned) {
  std::vector<real> v(gid.size(), real(-1));
  for (index i = 0; i < n_owned; ++i)
    v[static_cast<std::size_t>(i)] = gid[static_cast<std::size_t>(i)];
  return v;
}

int wrong_ids(std::span<const real> x, const std::vector<index>& gid) {
  int bad = 0;
  for (std::size_t i = 0; i < gid.size(); ++i)
    if (x[i] != gid[i]) ++bad;
  return bad;
}

class MeshHalo : public ::testing::TestWithParam<std::string> {};

TEST_P(MeshHalo, EveryGhostReceivesItsGlobalId) {
  const Mesh& m = local_mesh(GetParam());
  Halo h = Halo::build(m, MPI_COMM_WORLD);
  const CpuBackend be;
  for (const Entity e : kEntities) {
    HaloPlan& p = h.plan(e);
    const auto gid = gids(m, e);
    ASSERT_EQ(p.n_local(), static_cast<index>(gid.size())) << entity_name(e);
    auto x = be.make_field(p.n_local());
    be.upload(owned_ids(gid, p.n_owned()), *x);
    p.exchange(be, *x);
    EXPECT_EQ(wrong_ids(host(*x), gid), 0) << entity_name(e) << " on rank " << my_rank();
    if (!m.distributed()) {
      EXPECT_TRUE(p.empty()) << entity_name(e);
    }
  }
}

// A field of c values per entity (the 3-vectors at cells): value d of entity i is c gid + d;
// after the exchange every ghost holds its own, and a scalar exchange on the same plan still
// works (the widened lists and buffers do not disturb it).
TEST_P(MeshHalo, EveryComponentOfAGhostReceivesItsValue) {
  const Mesh& m = local_mesh(GetParam());
  Halo h = Halo::build(m, MPI_COMM_WORLD);
  const CpuBackend be;
  for (const Entity e : kEntities)
    for (const int c : {3, 2, 1, 3}) {
      HaloPlan& p = h.plan(e);
      const auto gid = gids(m, e);
      const auto n = gid.size() * static_cast<std::size_t>(c);
      std::vector<real> want(n), start(n, real(-1));
      for (std::size_t i = 0; i < gid.size(); ++i)
        for (int d = 0; d < c; ++d) {
          const std::size_t k = i * static_cast<std::size_t>(c) + static_cast<std::size_t>(d);
          want[k] = c * gid[i] + d;
          if (static_cast<index>(i) < p.n_owned()) start[k] = want[k];
        }
      auto x = be.make_field_from(start);
      p.exchange(be, *x, c);
      const auto got = host(*x);
      int bad = 0;
      for (std::size_t k = 0; k < n; ++k) bad += got[k] != want[k] ? 1 : 0;
      EXPECT_EQ(bad, 0) << entity_name(e) << ", " << c << " components, rank " << my_rank();
    }
  // The statistics count the vector exchanges like the scalar ones.
  EXPECT_EQ(h.total().exchanges, 16);
}

TEST_P(MeshHalo, AllPlansInFlightAroundInteriorWork) {
  const Mesh& m = local_mesh(GetParam());
  Halo h = Halo::build(m, MPI_COMM_WORLD);
  const CpuBackend be;
  std::vector<std::unique_ptr<backend::Field>> x;
  for (const Entity e : kEntities) {
    x.push_back(be.make_field(h.plan(e).n_local()));
    be.upload(owned_ids(gids(m, e), h.plan(e).n_owned()), *x.back());
  }
  for (std::size_t k = 0; k < 4; ++k) h.plan(kEntities[k]).begin(be, *x[k]);
  // Interior work: a reduction over owned entities only (what a solver does meanwhile).
  const real owned_sum = be.dot(*x[3], *x[3], m.n_owned_cells);
  EXPECT_GE(owned_sum, 0.0);
  for (std::size_t k = 4; k-- > 0;) h.plan(kEntities[k]).end(be, *x[k]);
  for (std::size_t k = 0; k < 4; ++k)
    EXPECT_EQ(wrong_ids(host(*x[k]), gids(m, kEntities[k])), 0) << entity_name(kEntities[k]);
}

TEST_P(MeshHalo, HostIndexExchange) {
  const Mesh& m = local_mesh(GetParam());
  Halo h = Halo::build(m, MPI_COMM_WORLD);
  for (const Entity e : kEntities) {
    const auto gid = gids(m, e);
    std::vector<index> v(gid.size(), kNone);
    std::copy(gid.begin(), gid.begin() + h.plan(e).n_owned(), v.begin());
    h.plan(e).exchange(std::span<index>(v));
    EXPECT_EQ(v, gid) << entity_name(e);
  }
}

TEST_P(MeshHalo, CellStatistics) {
  const Mesh& m = local_mesh(GetParam());
  Halo h = Halo::build(m, MPI_COMM_WORLD);
  const HaloStats& s = h.cells.stats();
  // Ghost cells are the cells sharing a node with an owned cell: a symmetric relation, so every
  // neighbour both sends and receives, one message each way per exchange.
  EXPECT_EQ(s.messages_sent, s.neighbours);
  EXPECT_EQ(s.messages_received, s.neighbours);
  EXPECT_EQ(s.bytes_received, static_cast<std::size_t>(m.n_cells - m.n_owned_cells) * sizeof(real));
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_LE(s.neighbours, size - 1);
  if (size > 1) {
    EXPECT_GE(s.neighbours, 1);
  }
  const HaloStats t = h.total();
  EXPECT_GE(t.neighbours, s.neighbours);
  EXPECT_EQ(t.exchanges, 0);
  const CpuBackend be;
  auto x = be.make_field(m.n_cells);
  for (int k = 0; k < 3; ++k) h.cells.exchange(be, *x);
  EXPECT_EQ(h.total().exchanges, 3);
}

INSTANTIATE_TEST_SUITE_P(Meshes, MeshHalo, ::testing::Values("square", "cube", "part-1.msh"),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           return p.param == "part-1.msh" ? std::string("part1_msh") : p.param;
                         });

}  // namespace
}  // namespace scfd::halo
