// Transparent huge pages for the executable's large allocations.
//
// The set-up of a large mesh fills arrays of hundreds of megabytes (the Hodge stars' rows, the
// multigrid's products, the matrices on their way to the GPU), each freshly mapped by malloc and
// faulted in 4 KiB at a time: on a virtual machine those page faults were a third of the
// set-up. Where the kernel leaves transparent huge pages to madvise (the default of Debian and
// Ubuntu), this operator new asks for them on every allocation of at least kHugeBytes (those
// glibc's malloc always maps on their own), so that they fault in 2 MiB at a time: cavity-box
// 111^3 on an H200 node, docs/bench/h200-2026-11-28-setup-parts. It is glibc's own
// glibc.malloc.hugetlb=1 tunable (which does the same from the environment), limited to large
// blocks. Memory still comes from malloc and goes back to free. Left out under the address
// sanitizer, which brings its own operator new.
#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <new>

#if !defined(__SANITIZE_ADDRESS__)

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
// glibc maps every block from 32 MiB up on its own (its largest dynamic mmap threshold), so the
// advice never touches memory that malloc's heaps share between blocks.
constexpr std::size_t kHugeBytes = std::size_t{32} << 20;

// The whole huge pages inside [p, p + bytes).
void advise_huge_pages(void* p, std::size_t bytes) {
  const auto misalign = [](const char* q) {
    return reinterpret_cast<std::uintptr_t>(q) % kHugePage;
  };
  char* const begin = static_cast<char*>(p);
  char* const first = begin + (misalign(begin) == 0 ? 0 : kHugePage - misalign(begin));
  char* const last = begin + bytes - misalign(begin + bytes);
  // Only advice: where the kernel refuses (no transparent huge pages), the pages stay small.
  if (last > first) madvise(first, static_cast<std::size_t>(last - first), MADV_HUGEPAGE);
}

}  // namespace

// The replaceable allocation function (its array and no-throw forms call it) and its matching
// deallocation functions.
void* operator new(std::size_t bytes) {
  for (;;) {
    if (void* p = std::malloc(bytes == 0 ? 1 : bytes)) {
      if (bytes >= kHugeBytes) advise_huge_pages(p, bytes);
      return p;
    }
    const std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

void operator delete(void* p) noexcept {
  std::free(p);
}

void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}

#endif
