// Counts the C++ heap allocations of the test binary (global operator new is replaced in
// alloc_counter.cpp), so a test can assert that a halo exchange allocates nothing.
#pragma once

namespace scfd::halo::test {

long allocations();

}  // namespace scfd::halo::test
