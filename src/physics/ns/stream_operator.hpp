// ns-exact's system on the streamfunction (docs/methods.md, "Exact fractional step"), one entry
// per curl entity (nodes in 2D, edges in 3D), restricted to the unknown entities:
// y = P (R A C) P x, P the projection onto the unknown entities (the model solves for the
// correction to a field that holds the boundary data) and onto the span of the boundary chains
// whose values are unknowns (an inner boundary in 2D, the generators of the boundary surface in
// 3D: set_chains), with A = M + nu dt M C W R M + theta dt C_a the
// momentum matrix of ns-classical (C_a its implicit convection, Convection, by the fluxes a).
// With L = R M C, R A C = L + nu dt L W L + theta dt R C_a C. In 2D L is the graph Laplacian of
// the nodes with weight M_f on the edge that face f is, applied as an assembled node system (one
// sparse pass); in 3D L is curl, M, rotation. Without convection symmetric positive definite in
// 2D with a boundary-data node; in 3D L = S = R M_RT C is assembled once (ns/hodge.hpp) and W is
// W_mp, so R A C = S + nu dt S W_mp S + theta dt R C_a C is three sparse products and a
// convection; positive semi-definite, with the gradients of the interior
// node functions as null space (C G = 0), a consistent system; the convection part keeps that
// null space and makes the system non-symmetric (BiCGStab). Its Jacobi diagonal is that of the
// symmetric part (from S and W's diagonal), 1 on the boundary-data entities outside the chains.
// Internal to the physics module.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "physics/ns/operators.hpp"
#include "solvers/preconditioner.hpp"

namespace scfd::physics::ns {

class StreamOperator final : public solvers::LinearOperator {
 public:
  // face_diagonal and edge_diagonal: the diagonals of the stars M and W on every local face and
  // curl entity (HodgeStar::diagonal; in 2D the stars themselves), on the host for the assembly
  // of S and its Jacobi diagonals (ns/hodge.hpp, stream_diagonals); the products use the stars
  // on the backend (k).
  StreamOperator(const topology::Mesh& m, const backend::Backend& be, halo::Halo& halo,
                 const Coefficients& k, std::span<const real> face_diagonal,
                 std::span<const real> edge_diagonal, real upwind);
  ~StreamOperator() override;
  index size() const override { return m_.n_curl(); }
  index owned() const override { return m_.n_owned_curl(); }
  void apply(Field& x, Field& y) const override;
  void diagonal(Field& d) const override;
  // y = R A C x = (L + nu dt L W L) x on the owned entities (no elimination); x needs its ghosts,
  // or exchange_x: they are exchanged here, behind the first curl (halo/overlap.hpp).
  void full(Field& x, Field& y, bool exchange_x = false) const;
  // Which entities hold boundary data (1) and which are unknowns (0), per local entity.
  void set_fixed(std::span<const real> fixed);
  // The boundary chains whose value is an unknown (one per chain, solved for with the rest; per
  // local entity, nonzero on the chain's boundary-data entities): the unknown space becomes the
  // free entities plus the span of the chains. Once, before the first solve.
  void set_chains(const std::vector<std::vector<real>>& chains);
  // y = P x, P the orthogonal projection onto the unknown space (owned entries; x with ghosts
  // keeps them consistent; y may be x). The solved system is P (R A C) P.
  void project(const Field& x, Field& y) const;
  void project(Field& x) const { project(x, x); }
  // Precondition the solve by multigrid from now on (below); preconditioner() is then non-null.
  // Collective.
  void use_multigrid();
  // The preconditioner for a solve with the current nu_dt and boundary-data entities, null for
  // Jacobi (BiCgStab's built-in). With multigrid: L W (W^-1 + nu dt L) is R A C without its
  // convection and without the wall rows of W (the vorticity of the boundary entities; in 3D W
  // is taken by its diagonal), so M = D L^-1 on the free entities with D the second factor
  // (W^-1 + nu dt L)^-1 W^-1 by its diagonal, W^-1 / (W^-1 + nu dt L_ii), and L restricted to
  // them; Jacobi on the chain entities. L^-1 is
  // - 2D (a node matrix): one V-cycle of smoothed-aggregation multigrid (solvers/amg.hpp);
  // - 3D (L = S, an edge matrix of curl-curl type, singular on the gradients): one cycle of the
  //   auxiliary-space preconditioner of Hiptmair and Xu, l1-Jacobi sweeps on the edges around a
  //   correction from a node multigrid through the interpolation of node vector fields
  //   (ns/stream_edge_multigrid.cpp).
  // Collective.
  const solvers::Preconditioner* preconditioner();
  real nu_dt = 0;
  real convection_dt = 0;            // theta dt
  const Field* advecting = nullptr;  // a, with its ghosts; null: no convection

 private:
  // y = L x = R M C x on the owned entities; x needs its ghosts, or exchange_x (as for full).
  void laplacian(Field& x, Field& y, bool exchange_x) const;

  // A multigrid preconditioner kept up to date with nu_dt and the boundary-data entities.
  class Tracking : public solvers::Preconditioner {
   public:
    virtual void update() = 0;
  };
  class Multigrid;      // 2D
  class EdgeMultigrid;  // 3D (ns/stream_edge_multigrid.cpp)
  std::unique_ptr<Tracking> make_edge_multigrid() const;
  // The preconditioners' Jacobi weight on the chain entities: 1 / diag(P R A C P) there, 0
  // elsewhere (work: scratch of the same size).
  void chain_scale(Field& scale, Field& work) const;
  // D of preconditioner() for the current nu_dt: W^-1 / (W^-1 + nu dt L_ii) on the free
  // entities, 0 elsewhere.
  void second_factor(Field& weight) const;

  const topology::Mesh& m_;
  const backend::Backend& be_;
  halo::Halo& halo_;
  const Coefficients& k_;
  void update_masks();

  std::vector<real> fixed_host_, chain_host_;     // set_fixed; 1 on the entities of any chain
  FieldPtr free_;                                 // 1 on the unknown entities
  FieldPtr unknown_, known_;                      // 1 on the free or chain entities; 1 - that
  std::vector<FieldPtr> chains_;                  // orthonormal basis of the chains' span
  std::unique_ptr<backend::Scalars> chain_sums_;  // project()'s coefficients, one slot a chain
  mutable std::vector<real> chain_coef_;          // their host copy (several ranks: summed)
  FieldPtr px_;                                   // curl entities: P x
  FieldPtr diag_mass_, diag_viscous_;             // diagonals of L and of L W L (owned entities)
  FieldPtr star_stream_;                          // W_ii L_ii (second_factor)
  FieldPtr lx_, wlx_;                             // curl entities: L x, W L x
  std::unique_ptr<backend::Matrix> stream_;       // 3D: S = R M_RT C
  FieldPtr curl_x_, convected_;                   // faces: C x, C_a C x
  FieldPtr rotated_;                              // curl entities: R C_a C x
  Convection convection_;
  std::unique_ptr<backend::NodeSystem> assembled_;  // 2D: L assembled
  std::vector<real> edge_weight_;                   // 2D: L's weight of each edge
  std::vector<real> stream_l1_;          // 3D: sum_j |S_ij| on every owned edge (l1-Jacobi)
  std::unique_ptr<Tracking> multigrid_;  // use_multigrid
  // The exchanges through plans narrowed to what the product after them reads (halo_plan.hpp):
  // laplacian_plan_ the columns of S and the curl entities of the owned faces (the convection's
  // C x reads x there after L's exchange), star_plan_ the columns of W (3D), rotation_plan_ the
  // faces of the owned curl entities (R).
  std::unique_ptr<halo::HaloPlan> laplacian_plan_, star_plan_, rotation_plan_;
};

}  // namespace scfd::physics::ns
