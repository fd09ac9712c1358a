// ns-exact's system on the streamfunction (docs/methods.md, "Exact fractional step"), one entry
// per curl entity (nodes in 2D, edges in 3D), restricted to the unknown entities:
// y = free .* (R A C x) for x that is zero on the boundary-data entities (the model solves for
// the correction to a field that holds the boundary data; PCG keeps those entries at zero when b
// and the initial guess are), with A = M + nu dt M C W R M the weighted momentum matrix of
// ns-classical. With L = R M C, R A C = L + nu dt L W L. In 2D L is the graph Laplacian of the
// nodes with weight M_f on the edge that face f is, applied as an assembled node system (one
// sparse pass); in 3D L is curl, M, rotation. Symmetric positive definite in 2D with a
// boundary-data node; in 3D positive semi-definite, with the gradients of the interior node
// functions as null space (C G = 0), a consistent system for CG. Its Jacobi diagonal is 1 on
// the boundary-data entities. Internal to the physics module.
#pragma once

#include <memory>
#include <span>

#include "physics/ns_operators.hpp"

namespace scfd::physics::ns {

class StreamOperator final : public solvers::LinearOperator {
 public:
  // `mass` and `weight` are M per local face and W per local curl entity (ghosts included), on
  // the host for the assembly and on the backend (k) for the products.
  StreamOperator(const topology::Mesh& m, const backend::Backend& be, halo::Halo& halo,
                 const Coefficients& k, std::span<const real> mass, std::span<const real> weight);
  index size() const override { return m_.n_curl(); }
  index owned() const override { return m_.n_owned_curl(); }
  void apply(Field& x, Field& y) const override;
  void diagonal(Field& d) const override;
  // y = R A C x = (L + nu dt L W L) x on the owned entities (no elimination); x needs its ghosts.
  void full(const Field& x, Field& y) const;
  // Which entities hold boundary data (1) and which are unknowns (0), per local entity.
  void set_fixed(std::span<const real> fixed);
  // 1 on the unknown entities, 0 on the boundary data.
  const Field& free() const { return *free_; }
  real nu_dt = 0;

 private:
  // y = L x = R M C x on the owned entities; x needs its ghosts.
  void laplacian(const Field& x, Field& y) const;

  const topology::Mesh& m_;
  const backend::Backend& be_;
  halo::Halo& halo_;
  const Coefficients& k_;
  FieldPtr free_, fixed_;                           // the masks of set_fixed
  FieldPtr diag_mass_, diag_viscous_;               // diagonals of L and of L W L (owned entities)
  FieldPtr lx_, wlx_;                               // curl entities: L x, W L x
  FieldPtr faces_;                                  // 3D: M C x
  std::unique_ptr<backend::NodeSystem> assembled_;  // 2D: L assembled
};

}  // namespace scfd::physics::ns
