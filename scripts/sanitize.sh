#!/usr/bin/env bash
# The unit tests, the verification tests but the five slowest (3D and 2D runs whose code paths
# the kept ones cover: ExactCavity3dMatchesClassical runs both models in 3D), and the halo tests
# (their allocation counter replaces the global operator new), built with AddressSanitizer and
# UndefinedBehaviorSanitizer (CMake option SCFD_SANITIZE) in build-asan/: a memory error or
# undefined behaviour fails the test that meets it. Only the binaries these run are built. CI
# runs it after scripts/test.sh, which installs the dependencies.
#   scripts/sanitize.sh [extra ctest arguments]
# Leak detection is off: Open MPI and Mesa keep allocations until exit by design.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSCFD_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$(nproc)" --target tests_unit tests_verification halo_test
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:detect_stack_use_after_return=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
slowest="Cavity3dStepsWithoutOddEvenOscillation|ExactCylinder3dMatchesClassical|Beltrami3d"
slowest+="|ExactCavityRe100MatchesGhiaAndClassical|ExactTaylorGreenConvergesAtSecondOrder"
ctest --test-dir build-asan --output-on-failure -j"$(nproc)" -L "unit|verification" \
  -E "$slowest" "$@"
ctest --test-dir build-asan --output-on-failure -j"$(nproc)" -R "^halo_test" "$@"
