// Halo exchange hidden behind interior work (the seed thesis's §8.3, docs/architecture.md §5): post
// the exchange of x, compute the outputs whose stencils read no ghost of x, wait for the ghosts,
// compute the rest.
//
//   halo::overlap(halo.cells, be, p, [&](backend::Rows rows) { be.gradient(m, p, pb, g, rows); });
//
// op(rows) computes the owned outputs that `rows` names (backend::Rows) from x and from fields
// whose ghosts are already current; it must not write x. Each rank numbers its inner entities
// first (topology::Mesh::n_inner_X), so Rows::inner is a leading block of every output. A plan
// whose overlap is off (HaloPlan::set_overlap, the case key parallel.overlap; off by default)
// exchanges first and calls op(Rows::all); an empty plan (one rank) just calls op(Rows::all).
#pragma once

#include "backend/backend.hpp"
#include "halo/halo_plan.hpp"

namespace scfd::halo {

template <typename Op>
void overlap(HaloPlan& plan, const backend::Backend& be, backend::Field& x, Op&& op,
             int components = 1) {
  if (plan.empty()) {
    op(backend::Rows::all);
  } else if (!plan.overlap()) {
    plan.exchange(be, x, components);
    op(backend::Rows::all);
  } else {
    plan.begin(be, x, components);
    op(backend::Rows::inner);
    plan.end(be, x);
    op(backend::Rows::interface);
  }
}

// The same around an operator that may have no plan (a multigrid level of a serial run).
template <typename Op>
void overlap(HaloPlan* plan, const backend::Backend& be, backend::Field& x, Op&& op) {
  if (plan == nullptr)
    op(backend::Rows::all);
  else
    overlap(*plan, be, x, op);
}

}  // namespace scfd::halo
