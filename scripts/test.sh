#!/usr/bin/env bash
# One command on a fresh Debian 12 machine: install the dependencies, build, run the whole test
# suite (every label: unit, gl, mpi, verification, regression). CI runs exactly this.
#   scripts/test.sh [extra ctest arguments, e.g. -L unit]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
werror=OFF
if [ "${CI:-}" = "true" ]; then werror=ON; fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSCFD_WERROR=$werror >/dev/null
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"
