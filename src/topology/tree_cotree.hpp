// Tree-cotree decomposition of a triangulated surface (a 2-manifold, possibly with boundary,
// given combinatorially), and the edge values whose face sums are given face values.
//
// The edges of a surface split into three sets:
//  - T, a spanning forest of the edge graph (edges on the rim, where the surface is open, are
//    taken first, so the cotree reaches the rim through as few of them as possible);
//  - T*, a spanning forest of the faces joined through edges not in T, grown breadth first from
//    the rim (each rim edge with an unreached face is a root edge into it) and, for a closed
//    component, from its first unreached face (a root face);
//  - the generators: every edge in neither. A connected surface of genus g has 2g + b - 1 of them
//    when it has b > 0 rim loops and 2g when it is closed; with V - E + F = 2 - 2g - b (the Euler
//    characteristic), that is 1 - (V - E + F) and 2 - (V - E + F).
// On this split, edge values v with sum_j sign_fj v(e_fj) = data_f exist for every face but the
// root faces (for which data must then be consistent: zero net "flux" through a closed
// component), unique once v is fixed on T (0) and on the generators (free): each face of T*,
// leaves first, gives its parent edge (surface_edge_values).
//
// Used by ns-exact in 3D: the boundary faces whose flux is prescribed form such a surface; the
// streamfunction on their edges must reproduce the fluxes, and its generator values are unknowns
// of the flow (docs/methods.md). Deterministic: everything runs in index order.
#pragma once

#include <array>
#include <span>
#include <vector>

#include "core/types.hpp"

namespace scfd::topology {

struct Surface {
  index n_nodes = 0;
  std::vector<std::array<index, 2>> edge_nodes;  // per edge, its two nodes
  std::vector<std::array<index, 3>> face_edges;  // per face, its three edges
  std::vector<std::array<real, 3>> face_signs;   // per face, +-1 per edge (orientation)
  std::vector<char> rim;                         // per edge: 1 where the surface is open
};

struct TreeCotree {
  enum Kind : char { tree = 1, cotree = 2, generator = 3 };
  std::vector<char> kind;          // per edge
  std::vector<index> order;        // faces in the order T* reached them (parents first)
  std::vector<index> parent_edge;  // per face: the edge T* reached it through; kNone for a root
  std::vector<index> root_faces;   // one per closed component (their parent_edge is kNone)
  std::vector<index> generators;   // ascending
};

TreeCotree tree_cotree(const Surface& s);

// v per edge with v = 0 on T, v = 1 on generators[generator] (0 on the others; kNone: all 0),
// and sum_j face_signs[f][j] v(face_edges[f][j]) = data[f] on every face that is not a root
// (data empty: 0 everywhere).
std::vector<real> surface_edge_values(const Surface& s, const TreeCotree& t,
                                      std::span<const real> data, index generator = kNone);

}  // namespace scfd::topology
