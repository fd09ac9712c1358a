// Operators in parallel equal the serial operators (docs/architecture.md §5, §10): at np = 1..4,
// rank 0 distributes the mesh; every rank fills the OWNED entries of a field from a function of the
// global id, brings its ghosts up to date with the halo exchange, applies a cpu operator, and
// its owned outputs must equal the serial result at the same global ids (to round-off).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "backend/cpu/operators.hpp"
#include "halo/halo.hpp"
#include "mesh_io/generate.hpp"
#include "mesh_io/gmsh.hpp"
#include "partition/distribute.hpp"
#include "topology/build.hpp"

namespace scfd {
namespace {

using backend::cpu::host;
using halo::Entity;
using topology::Mesh;
namespace cpu = backend::cpu;

int my_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

real value(index gid, int salt) {
  return std::sin(0.37 * gid + 1.3 * salt) + 0.1 * salt;
}

struct Distributed {
  Mesh global;  // every rank builds it (deterministic) to compute the serial reference
  Mesh local;
  halo::Halo halo;
};

Distributed make(const std::string& name) {
  Distributed s;
  if (name == "square")
    s.global = topology::build_mesh(mesh_io::generate_square(13, 9, 0.3, 5));
  else if (name == "cube")
    s.global = topology::build_mesh(mesh_io::generate_cube(5, 6, 4, 0.25, 2));
  else
    s.global =
        topology::build_mesh(mesh_io::read_gmsh(std::string(SCFD_SOURCE_DIR) + "/meshes/" + name));
  s.local = partition::distribute(my_rank() == 0 ? &s.global : nullptr, MPI_COMM_WORLD);
  s.halo = halo::Halo::build(s.local, MPI_COMM_WORLD);
  return s;
}

index gid(const std::vector<index>& gids, index i) {
  return gids.empty() ? i : gids[i];
}

// Local field: owned entries from value(gid), ghosts NaN, then exchanged.
std::vector<real> field(Distributed& s, Entity e, const std::vector<index>& gids, index n_owned,
                        index n, int salt) {
  std::vector<real> f(static_cast<std::size_t>(n), std::numeric_limits<real>::quiet_NaN());
  for (index i = 0; i < n_owned; ++i) f[i] = value(gid(gids, i), salt);
  s.halo.plan(e).exchange(std::span<real>(f));
  return f;
}

std::vector<real> global_field(index n, int salt) {
  std::vector<real> f(static_cast<std::size_t>(n));
  for (index i = 0; i < n; ++i) f[i] = value(i, salt);
  return f;
}

void expect_owned_equal(const std::vector<real>& local, const std::vector<index>& gids,
                        index n_owned, const std::vector<real>& serial, const char* what) {
  real scale = 0;
  for (real v : serial) scale = std::max(scale, std::abs(v));
  for (index i = 0; i < n_owned; ++i)
    ASSERT_NEAR(local[i], serial[gid(gids, i)], 1e-13 * scale) << what << " at owned " << i;
}

class OperatorsParallel : public ::testing::TestWithParam<std::string> {};

TEST_P(OperatorsParallel, OwnedOutputsEqualSerial) {
  Distributed s = make(GetParam());
  const Mesh& g = s.global;
  const Mesh& m = s.local;
  // Divergence: faces -> cells.
  {
    std::vector<real> out(m.n_cells), ref(g.n_cells);
    cpu::divergence(m, field(s, Entity::face, m.face_gid, m.n_owned_faces, m.n_faces, 1), out);
    cpu::divergence(g, global_field(g.n_faces, 1), ref);
    expect_owned_equal(out, m.cell_gid, m.n_owned_cells, ref, "divergence");
  }
  // Gradient: cells -> faces, boundary values from the face's global id.
  {
    std::vector<real> qb(m.n_boundary_faces()), qb_ref(g.n_boundary_faces());
    for (index f = m.n_interior_faces; f < m.n_owned_faces; ++f)
      qb[f - m.n_interior_faces] = value(gid(m.face_gid, f), 9);
    for (index f = g.n_interior_faces; f < g.n_faces; ++f)
      qb_ref[f - g.n_interior_faces] = value(f, 9);
    std::vector<real> out(m.n_faces), ref(g.n_faces);
    cpu::gradient(m, field(s, Entity::cell, m.cell_gid, m.n_owned_cells, m.n_cells, 2), qb, out);
    cpu::gradient(g, global_field(g.n_cells, 2), qb_ref, ref);
    expect_owned_equal(out, m.face_gid, m.n_owned_faces, ref, "gradient");
  }
  // Curl (edges in 3D, nodes in 2D -> faces) and rotation (faces -> edges / nodes).
  {
    const bool three = m.dim == 3;
    const Entity ce = three ? Entity::edge : Entity::node;
    const std::vector<index>& cg = three ? m.edge_gid : m.node_gid;
    std::vector<real> out(m.n_faces), ref(g.n_faces);
    cpu::curl(m, field(s, ce, cg, m.n_owned_curl(), m.n_curl(), 3), out);
    cpu::curl(g, global_field(g.n_curl(), 3), ref);
    expect_owned_equal(out, m.face_gid, m.n_owned_faces, ref, "curl");
    std::vector<real> rot(m.n_curl()), rot_ref(g.n_curl());
    cpu::rotation(m, field(s, Entity::face, m.face_gid, m.n_owned_faces, m.n_faces, 4), rot);
    cpu::rotation(g, global_field(g.n_faces, 4), rot_ref);
    expect_owned_equal(rot, cg, m.n_owned_curl(), rot_ref, "rotation");
  }
  // Node Laplacian with the P1 edge weights.
  {
    std::vector<real> out(m.n_nodes), ref(g.n_nodes);
    cpu::node_laplacian(m, m.edge_stiffness,
                        field(s, Entity::node, m.node_gid, m.n_owned_nodes, m.n_nodes, 5), out);
    cpu::node_laplacian(g, g.edge_stiffness, global_field(g.n_nodes, 5), ref);
    expect_owned_equal(out, m.node_gid, m.n_owned_nodes, ref, "node_laplacian");
  }
  // Interpolation: faces -> cell vectors (x component compared; y, z follow the same gather).
  {
    std::vector<Vec3> out(m.n_cells), ref(g.n_cells);
    cpu::interpolate(m, field(s, Entity::face, m.face_gid, m.n_owned_faces, m.n_faces, 6), out);
    cpu::interpolate(g, global_field(g.n_faces, 6), ref);
    std::vector<real> ox(m.n_cells), rx(g.n_cells);
    for (index c = 0; c < m.n_cells; ++c) ox[c] = out[c].x + out[c].y + out[c].z;
    for (index c = 0; c < g.n_cells; ++c) rx[c] = ref[c].x + ref[c].y + ref[c].z;
    expect_owned_equal(ox, m.cell_gid, m.n_owned_cells, rx, "interpolate");
  }
}

INSTANTIATE_TEST_SUITE_P(Meshes, OperatorsParallel,
                         ::testing::Values("square", "cube", "part-1.msh",
                                           "channel2d-cylinder-1.msh"),
                         [](const auto& param_info) {
                           std::string n = param_info.param;
                           n = n.substr(0, n.find('.'));
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

}  // namespace
}  // namespace scfd
