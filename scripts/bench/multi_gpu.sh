#!/usr/bin/env bash
# The multi-GPU scaling study of one node, as one command (docs/scaling.md, "Several GPUs"):
#
#   scripts/bench/multi_gpu.sh OUTDIR [GPU counts...]        (default: 1 2 4)
#
# One rank per GPU (each rank takes the GPU of its node-local rank), gl-compute fp64:
#   strong  cavity-box 111^3 (8,205,786 tets) with ns-classical and ns-exact, 10 steps each,
#           and heat-box 111^3 (Jacobi-PCG, dt 0.02), 10 steps;
#   weak    cavity-box ns-classical at 4M tets per GPU, 10 steps at a fixed step WEAK_DT (default
#           0.002: Courant number about 0.45 at 4M tets, 0.7 at 16M), so that every size takes
#           the same steps (the case's own CFL control would shorten them on finer meshes).
# Each study is scripts/scaling.py (its folder under OUTDIR holds the summaries, scaling.csv and,
# where python3-matplotlib is installed, scaling.png). STREAMCFD selects the binary (default
# build/src/app/streamcfd; a bundle's libexec/streamcfd with LD_LIBRARY_PATH set works too),
# MPIRUN the launcher (default "mpirun --bind-to none --mca btl_vader_single_copy_mechanism cma":
# Open MPI's shared-memory transport copies about 3x faster with it, docs/scaling.md), SIZE the
# divisions of the strong cases and WEAK_CELLS the cells per GPU (for a quick check on a small
# machine: SIZE=24 WEAK_CELLS=50000 scripts/bench/multi_gpu.sh /tmp/check 1 2).
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: $0 OUTDIR [GPU counts...]" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$1"
shift
gpus=("$@")
[ ${#gpus[@]} -gt 0 ] || gpus=(1 2 4)
binary="${STREAMCFD:-$root/build/src/app/streamcfd}"
mpirun="${MPIRUN:-mpirun --bind-to none --mca btl_vader_single_copy_mechanism cma}"
n="${SIZE:-111}"
weak="${WEAK_CELLS:-4000000}"
weak_dt="${WEAK_DT:-0.002}"
mkdir -p "$out"

study() {  # kind case-file folder title sets...
  local kind=$1 case=$2 folder=$3 title=$4
  shift 4
  local args=()
  for s in "$@"; do args+=(--set "$s"); done
  local size=()
  if [ "$kind" = weak ]; then size=(--cells-per-rank "$weak"); fi
  python3 "$root/scripts/scaling.py" "$kind" "$case" --ranks "${gpus[@]}" \
    "${size[@]}" --out "$out/$folder" --mpirun "$mpirun" --binary "$binary" --title "$title" \
    --set solver.backend=gl-compute --set solver.precision=fp64 "${args[@]}"
}

div="mesh.divisions=[$n,$n,$n]"
study strong "$root/cases/cavity-box/case.toml" strong-ns-classical "strong: cavity-box ${n}^3, ns-classical, gl-compute fp64" \
  "$div" time.steps=10
study strong "$root/cases/cavity-box/case.toml" strong-ns-exact "strong: cavity-box ${n}^3, ns-exact, gl-compute fp64" \
  "$div" time.steps=10 physics.model=ns-exact
study strong "$root/cases/heat-box/case.toml" strong-heat "strong: heat-box ${n}^3, Jacobi-PCG, gl-compute fp64" \
  "$div" time.dt=0.02 time.end=0.2
# The weak study's case: cavity-box with its CFL control (time.cfl, time.dt_max) replaced by a
# fixed step (--set cannot remove a key, and the case may give only one of time.dt, time.cfl).
mkdir -p "$out/cases/cavity-box-fixed-dt"
sed -e '/^cfl *=/d' -e "s/^dt_max *=.*/dt = $weak_dt/" "$root/cases/cavity-box/case.toml" \
  >"$out/cases/cavity-box-fixed-dt/case.toml"
grep -q "^dt = $weak_dt\$" "$out/cases/cavity-box-fixed-dt/case.toml" ||
  { echo "$0: cases/cavity-box/case.toml has no time.dt_max line to replace" >&2; exit 1; }
study weak "$out/cases/cavity-box-fixed-dt/case.toml" weak-ns-classical \
  "weak: cavity-box, ${weak} tets per GPU, ns-classical, dt ${weak_dt}" time.steps=10
echo "multi_gpu.sh: studies in $out (scaling.csv per study)"
