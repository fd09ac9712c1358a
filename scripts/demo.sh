#!/usr/bin/env bash
# One command on a fresh Debian 12 machine: install the dependencies, build streamcfd, and run
# the demo case: steady heat conduction through a 3D part with two holes (cases/heat-part).
# Runs on one rank until MPI partitioning lands.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" --target streamcfd
echo
echo "+ build/src/app/streamcfd run cases/heat-part/case.toml"
build/src/app/streamcfd run cases/heat-part/case.toml
echo
echo "Open cases/heat-part/output/heat.pvd in ParaView (colour by 'temperature' or 'heat_flux')."
