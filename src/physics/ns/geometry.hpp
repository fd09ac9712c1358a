// Mesh factors of the staggered scheme shared by ns-classical and ns-exact (docs/methods.md,
// "Geometry"): the Hodge stars (2D: circumcentric diagonals with their fallbacks; 3D: M_RT and
// W_mp, ns/hodge.hpp), the weights of the pressure operator, the Jacobi diagonals (from the
// stars). Computed once
// on the host and uploaded by the model. Internal to the physics module.
#pragma once

#include <functional>
#include <vector>

#include "halo/halo.hpp"
#include "physics/ns/hodge.hpp"
#include "physics/ns/setup.hpp"
#include "topology/mesh.hpp"

namespace scfd::physics::ns {

// Mesh factors of the staggered scheme, one value per local entity (ghosts filled by exchange).
struct Geometry {
  std::vector<real> length;          // L_f: dual edge length (2D: face_dist with a fallback, 3D:
                                     // the centroid distance along the normal; see .cpp)
  std::vector<real> fixed;           // 1 on faces whose flux is boundary data, else 0
  std::vector<real> mobility;        // (1 - fixed) / A~_f: the pressure operator's A~^-1 (2D:
                                     // A~ = M, 3D: a scaled lumping of M_RT; see .cpp)
  HodgeStar face_star;               // M: 2D diag(L_f / A_f), 3D M_RT (ns/hodge.hpp) with the
                                     // rows of the ghost faces R reads (rotation_reads)
  HodgeStar edge_star;               // W: 2D diag(1 / A*_n), 0 on slip nodes; 3D W_mp
  EdgeStar edge_wall;                // 3D: W_mp's wall map (wall, wall_faces; w is edge_star)
  SparseMatrix mass_curl;            // 3D: M C, M's owned rows (ns/hodge.hpp, mass_curl)
  std::vector<real> viscous_diag;    // the diagonal of K = M C W R M, W by its diagonal (owned)
  std::vector<real> pressure_diag;   // sum over faces of c of mobility_f (owned cells)
  std::vector<real> cfl_weight;      // 1 / (d min(V_c1, V_c2)): CFL_f = dt |U_f| cfl_weight_f
  std::vector<real> courant_weight;  // cells: 1 / (2 V_c): Co_c = dt sum_f |U_f| courant_weight_c
  index fallback_faces = 0;          // faces whose L_f came from the fallback (owned, this rank)
  index fallback_duals = 0;          // curl entities whose A* came from the fallback
};

// mobility_ready, where given, is called with the geometry as soon as its mobility is final
// (ghosts included; the other members still being made), so a caller can start work that needs
// only the mobility on a thread of its own (ns/flow.cpp: the pressure solve's host work).
Geometry build_geometry(const topology::Mesh& m, const Setup& s, halo::Halo& halo,
                        const std::function<void(const Geometry&)>& mobility_ready = {});

// The ghosts the operators' owned rows read, for narrowed plans (HaloPlan::narrowed): cells
// of the owned faces and across the faces of the owned cells (G, N, J); faces of the owned
// cells (D, I); faces of the owned curl entities (R); curl entities of the owned faces (C).
std::vector<index> cell_reads(const topology::Mesh& m);
std::vector<index> face_reads(const topology::Mesh& m);
std::vector<index> rotation_reads(const topology::Mesh& m);
std::vector<index> curl_reads(const topology::Mesh& m);

}  // namespace scfd::physics::ns
