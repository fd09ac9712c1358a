#!/usr/bin/env bash
# 4 x H200: cavity-box 111^3 ns-classical 1 / 4 / 2 GPUs with main at 7863d5e (bundle p5); then
# bench --only halo at 4 ranks with three intra-node transports (vader+cma, vader copy-in/out, ucx).
set -u
cd "$(dirname "$0")/.."
for b in p5; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt; mpirun --version 2>&1 | head -1 >> $R/gpu.txt
ompi_info 2>/dev/null | grep -iE "MCA (pml|btl|osc)" >> $R/gpu.txt
M="mpirun --allow-run-as-root --bind-to none --mca btl_vader_single_copy_mechanism cma"
for n in 1 4 2; do
  timeout 120 $M -np $n \
    .devrun/p5/bin/streamcfd run cases/cavity-box/case.toml --set 'mesh.divisions=[111,111,111]' --set time.steps=10 \
    --set solver.backend=gl-compute --set 'output.fields=[]' --set output.directory=\"/tmp/o$n\" > $R/n$n.log 2>&1
  echo "n$n rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o$n/*summary.json $R/n$n.json 2>/dev/null; rm -rf /tmp/o$n
done
for v in cma none ucx; do
  case $v in
    cma) L="$M" ;;
    none) L="mpirun --allow-run-as-root --bind-to none --mca btl_vader_single_copy_mechanism none" ;;
    ucx) L="mpirun --allow-run-as-root --bind-to none --mca pml ucx" ;;
  esac
  [ $SECONDS -gt 470 ] && break
  timeout 100 $L -np 4 .devrun/p5/bin/streamcfd bench --cells 8205786 --backend gl-compute --only halo \
    --json $R/halo-$v.json > $R/halo-$v.log 2>&1
  echo "halo-$v rc $? at ${SECONDS}s" >> $R/runs.txt
done
cat $R/runs.txt $R/gpu.txt
for n in 1 2 4; do grep -E "^step|GPU of each rank|set-up [0-9]" $R/n$n.log | tail -3; done
grep -E "messages|halo face|global" $R/halo-*.log | head -40
cd $OUT && tar czf r.tgz r && rm -rf r
