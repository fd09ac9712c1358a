// The Krylov solvers' scalars (Backend::Scalars) summed over the ranks: each reduction leaves this
// rank's sum in a slot on the backend, and with several ranks the host adds them up.
#pragma once

#include <functional>
#include <initializer_list>
#include <span>

#include "backend/backend.hpp"

namespace scfd::solvers {

// With several ranks: the given slots of s (this rank's sums) become the sums over all ranks — one
// read-back of all of s into `values`, one message, one upload. The stop request (core/stop.hpp)
// rides on the same message, so every rank sees it at the same iteration. When skip_slot >= 0 and
// that slot (after the read-back) is > 0 nothing is summed (a recorded breakdown: the caller
// stops). `adjust`, when given, is called with the sums in `values`, before they are written
// back, and may change them. Returns whether some rank asked to stop.
bool sum_slots_over_ranks(const backend::Backend& be, backend::Scalars& s, std::span<real> values,
                          std::span<const index> slots, index skip_slot = -1,
                          const std::function<void()>& adjust = {});
inline bool sum_slots_over_ranks(const backend::Backend& be, backend::Scalars& s,
                                 std::span<real> values, std::initializer_list<index> slots,
                                 index skip_slot = -1, const std::function<void()>& adjust = {}) {
  return sum_slots_over_ranks(be, s, values, std::span<const index>(slots.begin(), slots.size()),
                              skip_slot, adjust);
}

}  // namespace scfd::solvers
