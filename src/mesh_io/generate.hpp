// Structured simplicial meshes generated in memory, for tests and benchmarks (no file needed):
// the unit square split into 2*nx*ny triangles and the unit cube split into 6*nx*ny*nz
// tetrahedra (Kuhn/Freudenthal subdivision, conforming), with optional random node jitter
// (interior nodes moved by up to `jitter` times the spacing, deterministic from `seed`) to make
// irregular and strongly distorted meshes. Boundary patches are named left/right/bottom/top
// (and front/back in 3D: z = 0 / z = 1); one region named "domain".
#pragma once

#include <cstdint>

#include "mesh_io/raw_mesh.hpp"

namespace scfd::mesh_io {

RawMesh generate_square(int nx, int ny, double jitter = 0.0, std::uint64_t seed = 1);
RawMesh generate_cube(int nx, int ny, int nz, double jitter = 0.0, std::uint64_t seed = 1);

}  // namespace scfd::mesh_io
