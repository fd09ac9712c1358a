#!/usr/bin/env bash
# 2 x H200, bundle a: where the pressure solve's time goes on one and two GPUs at 8.2M cells:
# `bench --only amg` (each level's products alone, the coarse solve, one whole V-cycle) and
# `bench --only pcg` on 1 and 2 ranks.
set -u
cd "$(dirname "$0")/.."
for b in a; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt
M="mpirun --allow-run-as-root --bind-to none --mca btl_vader_single_copy_mechanism cma"
B=".devrun/a/bin/streamcfd bench --backend gl-compute --cells 8205786"
for n in 1 2; do
  [ $SECONDS -gt 500 ] && break
  timeout 200 $M -np $n $B --only amg --json $R/amg-np$n.json > $R/amg-np$n.log 2>&1; echo "amg np$n rc $? at ${SECONDS}s" >> $R/runs.txt
done
for n in 1 2; do
  [ $SECONDS -gt 500 ] && break
  timeout 150 $M -np $n $B --only pcg --json $R/pcg-np$n.json > $R/pcg-np$n.log 2>&1; echo "pcg np$n rc $? at ${SECONDS}s" >> $R/runs.txt
done
cat $R/runs.txt; tail -40 $R/amg-np1.log; tail -40 $R/amg-np2.log; tail -25 $R/pcg-np2.log
cd $OUT && tar czf r.tgz r && rm -rf r
