#!/usr/bin/env bash
# 2 x H200, trial bundle g (3a79083 + a host/GPU timeline of 30 V-cycles in bench --only amg:
# SCFD_TRACE): where does a V-cycle's time go on one and on two GPUs?
set -u
cd "$(dirname "$0")/.."
for b in g; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt
M="mpirun --allow-run-as-root --bind-to none --mca btl_vader_single_copy_mechanism cma"
B=".devrun/g/bin/streamcfd bench --backend gl-compute --cells 8205786 --only amg"
for n in 2 1; do
  timeout 120 $M -x SCFD_TRACE=$R/t$n -np $n $B > $R/amg$n.log 2>&1; echo "amg$n rc $? at ${SECONDS}s" >> $R/runs.txt
done
cat $R/runs.txt; grep V-cycle $R/amg*.log
cd $OUT && tar czf r.tgz r && rm -rf r
