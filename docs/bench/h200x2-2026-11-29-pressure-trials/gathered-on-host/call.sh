#!/usr/bin/env bash
# 2 x H200: the gathered multigrid levels on the host (bundle c: this folder's commit) against
# on the GPU (bundle a: a03d726), interleaved; then bench --only amg on two ranks with c.
set -u
cd "$(dirname "$0")/.."
for b in a c; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt
M="mpirun --allow-run-as-root --bind-to none --mca btl_vader_single_copy_mechanism cma"
run() {  # name build np limit case sets...
  local name=$1 b=$2 n=$3 lim=$4 case=$5; shift 5
  [ $SECONDS -gt 480 ] && return
  timeout $lim $M -np $n .devrun/$b/bin/streamcfd run $case --set solver.backend=gl-compute \
    --set 'output.fields=[]' --set output.directory=\"/tmp/o$name\" "$@" > $R/$name.log 2>&1
  echo "$name rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o$name/*summary.json $R/$name.json 2>/dev/null; rm -rf /tmp/o$name
}
C=cases/cavity-box/case.toml
S="--set mesh.divisions=[111,111,111] --set time.steps=10"
run c1-1 c 1 70 $C $S
run c2-1 c 2 70 $C $S
run a2-1 a 2 70 $C $S
run c2-2 c 2 70 $C $S
run a2-2 a 2 70 $C $S
run c2-3 c 2 70 $C $S
run c1-2 c 1 70 $C $S
timeout 100 $M -np 2 .devrun/c/bin/streamcfd bench --backend gl-compute --cells 8205786 --only amg --json $R/amg-np2.json > $R/amg-np2.log 2>&1; echo "amg rc $? at ${SECONDS}s" >> $R/runs.txt
cat $R/runs.txt
for f in $R/*.log; do echo "$(basename $f) $(grep -E '^step' $f | awk '{for(i=1;i<=NF;i++) if($i=="ms/step") v=$(i-1); split($2,a,"/"); if (a[1]>=3) {s+=v; c++}} END{if (c) print s/c}')"; done
for f in $R/[ac][12]*.json; do python3 -c "
import json;d=json.load(open('$f'));s=d['synchronisations']
print('$f'.split('/')[-1], d['solver']['solves']['momentum']['total'], d['solver']['solves']['pressure']['total'], d['figures']['kinetic_energy'], round(d['seconds']['solve_momentum'],3), round(d['seconds']['solve_pressure'],3), s['halo_rounds']['mean'], s['reductions']['mean'], s['coarse_gathers']['mean'], round(s['mpi_wait_microseconds']['mean']/1e3,1), s['gpu_dispatches']['mean'])"; done
grep -E "V-cycle|gathered" $R/amg-np2.log
cd $OUT && tar czf r.tgz r && rm -rf r
