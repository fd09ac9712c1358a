// Test meshes for the topology tests, built without the library under test: structured
// triangle / Kuhn-tetrahedron grids of the unit square / cube (with optional holes), jitter and a
// strong smooth distortion, random shuffles, and a RawMesh from bare nodes + cells whose boundary
// elements are found here independently (sorted face tuples), one patch per side of the box.
// File numbers are offset (node i -> 10 + i, cell c -> 1000 + c, boundary element b -> 50000 + b)
// so that messages naming them cannot be confused with indices.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "mesh_io/raw_mesh.hpp"

namespace scfd::topology::testing {

using mesh_io::RawMesh;

inline constexpr std::int64_t kNodeTag0 = 10, kCellTag0 = 1000, kBfaceTag0 = 50000;
inline constexpr int kRegionTag = 7;

// Signed area (2D) or volume (3D) of a simplex, computed independently of the library.
double simplex_volume(int dim, const Vec3* x);

// Drops unused nodes, orients cells positively (if `orient`), tags every boundary face with a
// patch named after the side of the unit box it lies on ("left" x=0, "right" x=1, "bottom" y=0,
// "top" y=1, "front" z=0, "back" z=1, else "wall"); all cells are in region "fluid".
RawMesh make_raw(int dim, const std::vector<Vec3>& nodes, const std::vector<index>& cells,
                 bool orient = true);

// Unit square, nx*ny quads split into 2 triangles; quads where keep(i, j) is false are left out.
RawMesh grid_square(int nx, int ny, const std::function<bool(int, int)>& keep = {});
// Unit cube, nx*ny*nz hexahedra split into 6 Kuhn tetrahedra; hexes with !keep(i, j, k) left out.
RawMesh grid_cube(int nx, int ny, int nz, const std::function<bool(int, int, int)>& keep = {});

// Moves nodes strictly inside the unit box by up to amount*h per coordinate (deterministic).
void jitter(RawMesh& raw, double amount, double h, std::uint64_t seed);
// A smooth bijection of the unit box onto itself (x -> x^3 grading plus sine shears): strongly
// anisotropic and skewed cells, same total volume.
void distort(RawMesh& raw);
// The same mesh with nodes, cells and boundary elements in a random order.
RawMesh shuffled(const RawMesh& raw, std::uint64_t seed);

}  // namespace scfd::topology::testing
