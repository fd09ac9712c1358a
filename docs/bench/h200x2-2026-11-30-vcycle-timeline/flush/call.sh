#!/usr/bin/env bash
# 2 x H200, trial bundle f (3a79083 + SCFD_FLUSH_EVERY: glFlush after every N-th dispatch):
# does the work queued after a synchronisation wait in the driver until the next flush?
set -u
cd "$(dirname "$0")/.."
for b in f; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt
nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.mem,utilization.gpu,power.draw --format=csv -lms 250 > $R/clocks.csv 2>&1 &
SMI=$!
M="mpirun --allow-run-as-root --bind-to none --mca btl_vader_single_copy_mechanism cma"
run() {  # name flush np limit case sets...
  local name=$1 fl=$2 n=$3 lim=$4 case=$5; shift 5
  [ $SECONDS -gt 500 ] && return
  echo "$name start ${SECONDS}s $(date +%T.%N)" >> $R/runs.txt
  timeout $lim $M -x SCFD_FLUSH_EVERY=$fl -np $n .devrun/f/bin/streamcfd run $case --set solver.backend=gl-compute \
    --set 'output.fields=[]' --set output.directory=\"/tmp/o$name\" "$@" > $R/$name.log 2>&1
  echo "$name rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o$name/*summary.json $R/$name.json 2>/dev/null; rm -rf /tmp/o$name
}
B=".devrun/f/bin/streamcfd bench --backend gl-compute --cells 8205786"
for fl in 0 1 0 1; do
  echo "pcg$fl start ${SECONDS}s $(date +%T.%N)" >> $R/runs.txt
  timeout 60 $M -x SCFD_FLUSH_EVERY=$fl -np 2 $B --only pcg > $R/pcg-$fl.log 2>&1; echo "$fl $(grep PCG: $R/pcg-$fl.log)" >> $R/pcg.txt
done
for fl in 0 1; do
  echo "amg$fl start ${SECONDS}s $(date +%T.%N)" >> $R/runs.txt
  timeout 90 $M -x SCFD_FLUSH_EVERY=$fl -np 2 $B --only amg > $R/amg2-$fl.log 2>&1; echo "amg2 $fl rc $? at ${SECONDS}s" >> $R/runs.txt
done
C=cases/cavity-box/case.toml
S="--set mesh.divisions=[111,111,111] --set time.steps=10"
run f0-2a 0 2 70 $C $S
run f1-2a 1 2 70 $C $S
run f0-2b 0 2 70 $C $S
run f1-2b 1 2 70 $C $S
run f1-1a 1 1 70 $C $S
run f0-1a 0 1 70 $C $S
timeout 90 $M -x SCFD_FLUSH_EVERY=1 -np 1 $B --only amg > $R/amg1-1.log 2>&1; echo "amg1 1 rc $? at ${SECONDS}s" >> $R/runs.txt
kill $SMI
cat $R/runs.txt $R/pcg.txt
grep -E "V-cycle" $R/amg*.log
for f in $R/f*.log; do echo "$(basename $f) $(grep -E '^step' $f | awk '{for(i=1;i<=NF;i++) if($i=="ms/step") v=$(i-1); split($2,a,"/"); if (a[1]>=3) {s+=v; c++}} END{if (c) print s/c}')"; done
for f in $R/f*.json; do python3 -c "
import json;d=json.load(open('$f'));s=d['synchronisations']
print('$f'.split('/')[-1], d['solver']['solves']['momentum']['total'], d['solver']['solves']['pressure']['total'], d['figures']['kinetic_energy'], round(d['seconds']['solve_momentum'],3), round(d['seconds']['solve_pressure'],3), s['halo_rounds']['mean'], s['reductions']['mean'], round(s['mpi_wait_microseconds']['mean']/1e3,1), round(s['gpu_wait_microseconds']['mean']/1e3,1))"; done
cd $OUT && tar czf r.tgz r && rm -rf r
