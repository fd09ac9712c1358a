#!/usr/bin/env bash
# 4 x H200: cavity-box 111^3 ns-classical strong scaling 1 / 4 / 2 GPUs with main at 07e323b (the bundle p4), one round.
set -u
cd "$(dirname "$0")/.."
for b in p4; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt; mpirun --version 2>&1 | head -1 >> $R/gpu.txt
for n in 1 4 2; do
  timeout 150 mpirun --allow-run-as-root --bind-to none --mca btl_vader_single_copy_mechanism cma -np $n \
    .devrun/p4/bin/streamcfd run cases/cavity-box/case.toml --set 'mesh.divisions=[111,111,111]' --set time.steps=10 \
    --set solver.backend=gl-compute --set 'output.fields=[]' --set output.directory=\"/tmp/o$n\" > $R/n$n.log 2>&1
  echo "n$n rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o$n/*summary.json $R/n$n.json 2>/dev/null; rm -rf /tmp/o$n
done
cat $R/runs.txt $R/gpu.txt
for n in 1 2 4; do grep -E "^step|GPU of each rank|set-up [0-9]" $R/n$n.log | tail -4; done
