// Precondition checks shared by the cpu operators (docs/architecture.md §2): every span must hold
// exactly one value per entity of the kind it is indexed by, and an output must not overlap an
// input (the operators are gathers that read inputs while writing outputs). A failure is a broken
// invariant of the caller, reported with SCFD_CHECK (docs/architecture.md §8.5).
#pragma once

#include <cstdint>
#include <span>

#include "core/error.hpp"
#include "core/types.hpp"

namespace scfd::backend::cpu {

// True if the byte ranges of a and b do not overlap.
template <typename A, typename B>
bool disjoint(std::span<A> a, std::span<B> b) {
  const auto a0 = reinterpret_cast<std::uintptr_t>(a.data());
  const auto b0 = reinterpret_cast<std::uintptr_t>(b.data());
  return a.empty() || b.empty() || a0 + a.size_bytes() <= b0 || b0 + b.size_bytes() <= a0;
}

}  // namespace scfd::backend::cpu

// Checks that `span` holds `n` values; `what` names the operator and argument in the message.
#define SCFD_CHECK_SIZE(span, n, what)                                                         \
  SCFD_CHECK(static_cast<std::size_t>(n) == (span).size(), "{}: {} values given, {} expected", \
             what, (span).size(), static_cast<std::size_t>(n))
