// Scalars summed over the ranks (see scalar_sums.hpp).
#include "solvers/scalar_sums.hpp"

#include <vector>

#include "core/collectives.hpp"
#include "core/stop.hpp"

namespace scfd::solvers {

bool sum_slots_over_ranks(const backend::Backend& be, backend::Scalars& s, std::span<real> values,
                          std::span<const index> slots, index skip_slot,
                          const std::function<void()>& adjust) {
  be.read_scalars(s, values);
  if (skip_slot >= 0 && values[static_cast<std::size_t>(skip_slot)] > 0) return false;
  std::vector<real> sums(slots.size() + 1);
  std::size_t k = 0;
  for (const index slot : slots) sums[k++] = values[static_cast<std::size_t>(slot)];
  sums[k] = stop_requested() ? real(1) : real(0);
  global_sum(std::span<real>(sums.data(), k + 1));
  k = 0;
  for (const index slot : slots) values[static_cast<std::size_t>(slot)] = sums[k++];
  if (adjust) adjust();
  be.write_scalars(values, s);
  return sums[k] > 0;
}

}  // namespace scfd::solvers
