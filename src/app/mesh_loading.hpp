// The mesh of a run or a benchmark: rank 0 makes the whole mesh (reads a Gmsh file or generates
// one), builds its topology and, with several ranks, partitions it with METIS and sends every
// rank its part (owned cells plus one ghost layer). Collective over MPI_COMM_WORLD; an InputError
// on rank 0 (a broken mesh file, more ranks than cells) is thrown as the same InputError on every
// rank, so no rank waits forever.
#pragma once

#include <functional>
#include <string>

#include "config/case.hpp"
#include "mesh_io/raw_mesh.hpp"
#include "partition/partition.hpp"
#include "topology/mesh.hpp"

namespace scfd::app {

// The whole mesh (not one rank's part), as logs and summaries report it.
struct MeshInfo {
  std::string source;  // the file, or e.g. "generated cube 88x88x88"
  int dim = 0;
  long long nodes = 0, edges = 0, faces = 0, cells = 0;
  // METIS's partition (rank 0's copy; one part, every cell in it, when serial).
  partition::PartitionQuality partition;
};

// What rank 0 calls to make the raw mesh, and the name it goes by.
struct MeshRecipe {
  std::string source;
  std::function<mesh_io::RawMesh()> make;
};

// The mesh file `path` as a recipe.
MeshRecipe mesh_file(const std::string& path);

// The [mesh] section of a case: `file` (a Gmsh file), or `generate` = "cube" | "square" with
// `divisions` ([nx, ny, nz] or [nx, ny] cells per axis of the unit box), `jitter` (0) and `seed`
// (1) (mesh_io/generate.hpp: patches left/right/bottom/top/front/back, region "domain"). InputError
// naming the key for both or neither, bad divisions, a mesh too large for 32-bit indices or a
// jitter outside [0, 0.5]. Reads the keys on every rank; only rank 0 makes the mesh.
MeshRecipe case_mesh(const config::Case& c);

// This rank's mesh. Logs the notes of the mesh build and the partition quality (rank 0).
topology::Mesh load_mesh(const MeshRecipe& recipe, MeshInfo& info);

}  // namespace scfd::app
