#!/usr/bin/env bash
# One command on a fresh Debian 12 machine: install the dependencies, build streamcfd, run the
# demo. Until a solver lands, the demo reports a mesh with `streamcfd info`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" --target streamcfd
echo
echo "+ build/src/app/streamcfd info meshes/part-1.msh"
build/src/app/streamcfd info meshes/part-1.msh
