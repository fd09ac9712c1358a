// The mesh of a run or a benchmark (see mesh_loading.hpp).
#include "app/mesh_loading.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "core/collectives.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "mesh_io/generate.hpp"
#include "mesh_io/gmsh.hpp"
#include "partition/distribute.hpp"
#include "topology/build.hpp"

namespace scfd::app {

MeshRecipe mesh_file(const std::string& path) {
  return {path, [path] { return mesh_io::read_gmsh(path); }};
}

MeshRecipe case_mesh(const config::Case& c) {
  const bool generate = c.has("mesh.generate");
  if (!generate) return mesh_file(c.resolve_path("mesh.file").string());
  if (c.has("mesh.file"))
    c.fail("mesh.generate", "give either mesh.file or mesh.generate, not both");
  const std::string shape = c.choice("mesh.generate", {"cube", "square"});
  const int dim = shape == "cube" ? 3 : 2;
  const std::vector<long long> n = c.require<std::vector<long long>>("mesh.divisions");
  if (std::ssize(n) != dim)
    c.fail("mesh.divisions", fmt::format("expected {} numbers of cells per axis for a {}, got {}",
                                         dim, shape, n.size()));
  // generate_*: nodes and the cell-node list must fit 32-bit indices.
  double cells = dim == 3 ? 6 : 2;
  for (long long k : n) {
    if (k < 1) c.fail("mesh.divisions", fmt::format("expected >= 1 cell per axis, got {}", k));
    cells *= static_cast<double>(k);
  }
  if (cells * (dim + 1) >= 2147483647.0)
    c.fail("mesh.divisions", fmt::format("{:.3g} cells is too large for 32-bit indices", cells));
  const double jitter = c.get<double>("mesh.jitter", 0.0);
  if (!(jitter >= 0 && jitter <= 0.5))
    c.fail("mesh.jitter", fmt::format("expected a number in [0, 0.5], got {}", jitter));
  const auto seed = static_cast<std::uint64_t>(c.get<long long>("mesh.seed", 1));
  const int nx = static_cast<int>(n[0]), ny = static_cast<int>(n[1]);
  if (dim == 2) {
    return {fmt::format("generated square {}x{}", nx, ny),
            [=] { return mesh_io::generate_square(nx, ny, jitter, seed); }};
  }
  const int nz = static_cast<int>(n[2]);
  return {fmt::format("generated cube {}x{}x{}", nx, ny, nz),
          [=] { return mesh_io::generate_cube(nx, ny, nz, jitter, seed); }};
}

topology::Mesh load_mesh(const MeshRecipe& recipe, MeshInfo& info) {
  const int rank = world_rank(), nranks = world_size();
  topology::Mesh global;
  std::string error;
  std::int64_t counts[5] = {0, 0, 0, 0, 0};
  if (rank == 0) {
    try {
      std::vector<std::string> notes;
      global = topology::build_mesh(recipe.make(), {}, &notes);
      for (const auto& n : notes) log::info("note: {}", n);
      counts[0] = global.dim;
      counts[1] = global.n_nodes;
      counts[2] = global.n_edges;
      counts[3] = global.n_faces;
      counts[4] = global.n_cells;
    } catch (const InputError& e) {
      error = e.what();
    }
  }
  broadcast(error);
  if (!error.empty()) throw InputError(error);
  broadcast(std::span<std::int64_t>(counts));
  info = {
      recipe.source, static_cast<int>(counts[0]), counts[1], counts[2], counts[3], counts[4], {}};
  partition::PartitionQuality& q = info.partition;
  q.cells = q.min_cells = q.max_cells = static_cast<index>(counts[4]);
  if (nranks == 1) return global;
  topology::Mesh local = partition::distribute(rank == 0 ? &global : nullptr, MPI_COMM_WORLD, &q);
  log::info(
      "partition: {} parts by METIS, edge cut {} faces ({:.1f}%), imbalance {:.3f}, {}..{} "
      "cells per rank",
      q.parts, q.edge_cut, 100 * q.cut_fraction, q.imbalance, q.min_cells, q.max_cells);
  return local;
}

}  // namespace scfd::app
