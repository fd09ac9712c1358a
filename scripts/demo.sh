#!/usr/bin/env bash
# One command on a fresh Debian 12 machine: install the dependencies, build streamcfd, and run
# the demo case on 2 MPI ranks: steady heat conduction through a 3D part with two holes
# (cases/heat-part), written as VTK files that open in ParaView.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" --target streamcfd
echo
# As root, Open MPI refuses to start without --allow-run-as-root; --oversubscribe lets 2 ranks
# run on a 1-core machine.
mpirun_flags=(--oversubscribe)
if [ "$(id -u)" -eq 0 ]; then mpirun_flags+=(--allow-run-as-root); fi
echo "+ mpirun ${mpirun_flags[*]} -np 2 build/src/app/streamcfd run cases/heat-part/case.toml"
mpirun "${mpirun_flags[@]}" -np 2 build/src/app/streamcfd run cases/heat-part/case.toml
echo
echo "Open cases/heat-part/output/heat.pvd in ParaView (colour by 'temperature' or 'heat_flux')."
