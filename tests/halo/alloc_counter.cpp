// Replaces the global operator new/delete of the test binary with counting versions over
// malloc/free (see alloc_counter.hpp). Array and nothrow forms forward to these by default.
#include "halo/alloc_counter.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<long> g_allocations{0};
}

namespace scfd::halo::test {
long allocations() {
  return g_allocations.load();
}
}  // namespace scfd::halo::test

void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}

void operator delete(void* p) noexcept {
  std::free(p);
}

void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
