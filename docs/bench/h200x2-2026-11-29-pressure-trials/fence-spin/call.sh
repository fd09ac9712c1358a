#!/usr/bin/env bash
# 2 x H200, trial bundle s (a03d726 + SCFD_SPIN_US, the fence's spin before it blocks): the spin
# at 200 us (the default) against 20 ms, cavity-box 111^3 and bench --only pcg on two GPUs.
set -u
cd "$(dirname "$0")/.."
for b in s; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt
M="mpirun --allow-run-as-root --bind-to none --mca btl_vader_single_copy_mechanism cma"
run() {  # name spin np limit case sets...
  local name=$1 sp=$2 n=$3 lim=$4 case=$5; shift 5
  [ $SECONDS -gt 400 ] && return
  timeout $lim $M -x SCFD_SPIN_US=$sp -np $n .devrun/s/bin/streamcfd run $case --set solver.backend=gl-compute \
    --set 'output.fields=[]' --set output.directory=\"/tmp/o$name\" "$@" > $R/$name.log 2>&1
  echo "$name rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o$name/*summary.json $R/$name.json 2>/dev/null; rm -rf /tmp/o$name
}
B=".devrun/s/bin/streamcfd bench --backend gl-compute --cells 8205786 --only pcg"
for sp in 200 20000 200 20000; do
  timeout 60 $M -x SCFD_SPIN_US=$sp -np 2 $B > $R/pcg-$sp.log 2>&1; grep PCG: $R/pcg-$sp.log >> $R/pcg.txt
done
C=cases/cavity-box/case.toml
S="--set mesh.divisions=[111,111,111] --set time.steps=10"
run d2-1 200 2 70 $C $S
run l2-1 20000 2 70 $C $S
run d2-2 200 2 70 $C $S
run l2-2 20000 2 70 $C $S
run l1-1 20000 1 70 $C $S
cat $R/runs.txt $R/pcg.txt
for f in $R/[dl]*.log; do echo "$(basename $f) $(grep -E '^step' $f | awk '{for(i=1;i<=NF;i++) if($i=="ms/step") v=$(i-1); split($2,a,"/"); if (a[1]>=3) {s+=v; c++}} END{if (c) print s/c}')"; done
for f in $R/[dl]*.json; do python3 -c "
import json;d=json.load(open('$f'));s=d['synchronisations']
print('$f'.split('/')[-1], d['solver']['solves']['momentum']['total'], d['solver']['solves']['pressure']['total'], round(d['seconds']['solve_momentum'],3), round(d['seconds']['solve_pressure'],3), round(s['mpi_wait_microseconds']['mean']/1e3,1), round(s['gpu_wait_microseconds']['mean']/1e3,1))"; done
cd $OUT && tar czf r.tgz r && rm -rf r
