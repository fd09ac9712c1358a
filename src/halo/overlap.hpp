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

#include <utility>

#include "backend/backend.hpp"
#include "halo/halo_plan.hpp"

namespace scfd::halo {

// One exchange of overlap_together: the plan, the field whose ghosts it fills and the work that
// reads them (op(rows) as in overlap). halo::part(plan, x, op, components) makes one.
template <typename Op>
struct Part {
  HaloPlan& plan;
  backend::Field& x;
  Op op;
  int components = 1;
};
template <typename Op>
Part<Op> part(HaloPlan& plan, backend::Field& x, Op&& op, int components = 1) {
  return {plan, x, std::forward<Op>(op), components};
}

// Several exchanges of different plans in flight together, each with its own work: every
// exchange begins, every inner part is queued, every send is posted (HaloPlan::send), and only
// then does the host wait, exchange by exchange, computing each one's interface part as soon as
// its ghosts are in. The host waits about once for the GPU and once for the slowest neighbour,
// where overlap() after overlap() waits once each. The parts must be independent: no op may
// write another part's field or read the ghosts another part fills.
template <typename... Ops>
void overlap_together(const backend::Backend& be, Part<Ops>... parts) {
  const auto begin = [&](auto& p) {
    if (!p.plan.empty()) p.plan.begin(be, p.x, p.components);
  };
  const auto inner = [](auto& p) {
    if (!p.plan.empty() && p.plan.overlap()) p.op(backend::Rows::inner);
  };
  const auto send = [&](auto& p) {
    if (!p.plan.empty()) p.plan.send(be);
  };
  bool joined = false;  // an earlier part counted the round (counters::Kind::halo_round)
  const auto end = [&](auto& p) {
    if (p.plan.empty()) {
      p.op(backend::Rows::all);
      return;
    }
    p.plan.end(be, p.x, joined);
    joined = true;
    p.op(p.plan.overlap() ? backend::Rows::interface : backend::Rows::all);
  };
  (begin(parts), ...);
  (inner(parts), ...);
  (send(parts), ...);
  (end(parts), ...);
}

// One exchange with its work (the header comment).
template <typename Op>
void overlap(HaloPlan& plan, const backend::Backend& be, backend::Field& x, Op&& op,
             int components = 1) {
  overlap_together(be, part(plan, x, std::forward<Op>(op), components));
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
