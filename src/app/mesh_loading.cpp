// The mesh of a run or a benchmark (see mesh_loading.hpp).
#include "app/mesh_loading.hpp"

#include <mpi.h>

#include "core/error.hpp"
#include "core/log.hpp"
#include "mesh_io/gmsh.hpp"
#include "partition/distribute.hpp"
#include "topology/build.hpp"

namespace scfd::app {

MeshRecipe mesh_file(const std::string& path) {
  return {path, [path] { return mesh_io::read_gmsh(path); }};
}

topology::Mesh load_mesh(const MeshRecipe& recipe, MeshInfo& info) {
  int rank = 0, nranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  topology::Mesh global;
  std::string error;
  long long counts[5] = {0, 0, 0, 0, 0};
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
  int length = static_cast<int>(error.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  error.resize(static_cast<std::size_t>(length));
  MPI_Bcast(error.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (!error.empty()) throw InputError(error);
  MPI_Bcast(counts, 5, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  info = {recipe.source, static_cast<int>(counts[0]), counts[1], counts[2], counts[3], counts[4]};
  if (nranks == 1) return global;
  partition::PartitionQuality q;
  topology::Mesh local = partition::distribute(rank == 0 ? &global : nullptr, MPI_COMM_WORLD, &q);
  log::info(
      "partition: {} parts by METIS, edge cut {} faces ({:.1f}%), imbalance {:.3f}, {}..{} "
      "cells per rank",
      q.parts, q.edge_cut, 100 * q.cut_fraction, q.imbalance, q.min_cells, q.max_cells);
  return local;
}

}  // namespace scfd::app
