#!/usr/bin/env bash
# The unit and verification tests, and the halo tests (their allocation counter replaces the
# global operator new), built with AddressSanitizer and UndefinedBehaviorSanitizer (CMake option
# SCFD_SANITIZE) in build-asan/: a memory error or undefined behaviour fails the test that meets
# it. CI runs it after scripts/test.sh, which installs the dependencies.
#   scripts/sanitize.sh [extra ctest arguments]
# Leak detection is off: Open MPI and Mesa keep allocations until exit by design.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSCFD_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$(nproc)"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:detect_stack_use_after_return=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build-asan --output-on-failure -j"$(nproc)" -L "unit|verification" "$@"
ctest --test-dir build-asan --output-on-failure -j"$(nproc)" -R "^halo_test" "$@"
