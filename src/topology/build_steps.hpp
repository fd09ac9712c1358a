// Internal steps of build_mesh (build.cpp runs them in this order); not part of the public API.
//
//  1. checks.cpp       checked_cells: validates the RawMesh (planarity, zero-volume / inverted
//                      cells, duplicate and unused nodes) and returns positively oriented cells;
//  2. renumber.cpp     locality_order: Morton (Z-order) sort of nodes and of cell centroids;
//  3. faces.cpp        build_faces: matches cell faces with each other and with the boundary
//                      elements (sort-based), numbers faces, orients them, builds patches;
//  4. edges.cpp        build_edges, build_curl, build_adjacency: edges, curl lists, node CSRs;
//  5. geometry.cpp     compute_geometry: volumes, centroids, circumcentres, face geometry, median
//                      dual volumes and edge normals, P1 edge stiffness.
//
// Sort-based matching (slot_sort.hpp) packs a face's or edge's sorted node numbers into a
// (bucket, key) pair, so that equal entities become neighbours after a counting sort by bucket
// and small sorts inside each bucket: O(n) memory and no hash map per entity.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "mesh_io/raw_mesh.hpp"
#include "topology/mesh.hpp"

namespace scfd::topology::detail {

// Local face k of a positively oriented cell is opposite local node k; these orders make the
// face normal (mesh.hpp convention) point out of the cell. 2D: the counter-clockwise side;
// 3D: (x1-x0)×(x2-x0) points away from the opposite node.
inline constexpr std::array<std::array<int, 2>, 3> kTriFace = {{{1, 2}, {2, 0}, {0, 1}}};
inline constexpr std::array<std::array<int, 3>, 4> kTetFace = {
    {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}}};

// The six local edges (p, q) of a tetrahedron, and the other two nodes (k, l) chosen so that
// (p, q, k, l) is an even permutation of (0, 1, 2, 3).
inline constexpr std::array<std::array<int, 4>, 6> kTetEdge = {
    {{0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {1, 2, 0, 3}, {1, 3, 2, 0}, {2, 3, 0, 1}}};
// kTetEdgeOf[a][b]: the local edge joining local nodes a and b (-1 on the diagonal).
inline constexpr std::array<std::array<int, 4>, 4> kTetEdgeOf = {
    {{-1, 0, 1, 2}, {0, -1, 3, 4}, {1, 3, -1, 5}, {2, 4, 5, -1}}};

// Signed volume (3D) or signed area (2D, from the z component) of a simplex.
real signed_volume(int dim, const Vec3* x);

// Step 1: returns raw.cells with every cell positively oriented; throws InputError.
std::vector<index> checked_cells(const mesh_io::RawMesh& raw, std::vector<std::string>* notes);

// Step 2: new -> old maps of nodes and cells (identity when renumber is false).
struct Numbering {
  std::vector<index> node_old;
  std::vector<index> cell_old;
};
Numbering locality_order(const mesh_io::RawMesh& raw, const std::vector<index>& cells,
                         bool renumber);

// Step 3: needs m.dim, node arrays and cell_nodes; fills cell_faces, cell_face_sign,
// face_nodes, face_cells, face_patch, patches, n_faces, n_interior_faces. `bfaces` are the
// boundary elements' nodes in the new node numbering.
void build_faces(const mesh_io::RawMesh& raw, const std::vector<index>& bfaces, Mesh& m);

// Step 4. build_edges returns the cell -> edge list (6 per tet; 3 per triangle, local edge k
// opposite local node k, i.e. cell_faces).
std::vector<index> build_edges(Mesh& m);
void build_curl(const std::vector<index>& cell_edges, Mesh& m);
void build_adjacency(Mesh& m);
void build_patch_lists(Mesh& m);

// Transposes a fixed-width map rows -> cols into per-col CSR (rows ascending within each col).
// `sign` is empty or one sign per item, copied into the result.
Csr transpose(index n_cols, int width, const std::vector<index>& items,
              const std::vector<std::int8_t>& sign);

// Step 5.
void compute_geometry(const std::vector<index>& cell_edges, Mesh& m);

}  // namespace scfd::topology::detail
