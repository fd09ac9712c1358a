// The mesh of a run or a benchmark: rank 0 makes the whole mesh (reads a Gmsh file or generates
// one), builds its topology and, with several ranks, partitions it with METIS and sends every
// rank its part (owned cells plus one ghost layer). Collective over MPI_COMM_WORLD; an InputError
// on rank 0 (a broken mesh file, more ranks than cells) is thrown as the same InputError on every
// rank, so no rank waits forever.
#pragma once

#include <functional>
#include <string>

#include "mesh_io/raw_mesh.hpp"
#include "topology/mesh.hpp"

namespace scfd::app {

// The whole mesh (not one rank's part), as logs and summaries report it.
struct MeshInfo {
  std::string source;  // the file, or e.g. "generated cube 88x88x88"
  int dim = 0;
  long long nodes = 0, edges = 0, faces = 0, cells = 0;
};

// What rank 0 calls to make the raw mesh, and the name it goes by.
struct MeshRecipe {
  std::string source;
  std::function<mesh_io::RawMesh()> make;
};

// The mesh file `path` as a recipe.
MeshRecipe mesh_file(const std::string& path);

// This rank's mesh. Logs the notes of the mesh build and the partition quality (rank 0).
topology::Mesh load_mesh(const MeshRecipe& recipe, MeshInfo& info);

}  // namespace scfd::app
