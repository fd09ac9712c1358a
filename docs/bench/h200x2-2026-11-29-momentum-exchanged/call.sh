#!/usr/bin/env bash
# 2 x H200: the cell-block momentum preconditioner with its inputs exchanged (bundle n: this
# folder's commit) against main at b3a13a9 (bundle b), interleaved; then weak at 4.1M tets per GPU.
set -u
cd "$(dirname "$0")/.."
for b in n b; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt
M="mpirun --allow-run-as-root --bind-to none --mca btl_vader_single_copy_mechanism cma"
sed -e '/^cfl *=/d' -e 's/^dt_max *=.*/dt = 0.002/' cases/cavity-box/case.toml > /tmp/fixed.toml
run() {  # name build np limit case sets...
  local name=$1 b=$2 n=$3 lim=$4 case=$5; shift 5
  [ $SECONDS -gt 540 ] && return
  timeout $lim $M -np $n .devrun/$b/bin/streamcfd run $case --set solver.backend=gl-compute \
    --set 'output.fields=[]' --set output.directory=\"/tmp/o$name\" "$@" > $R/$name.log 2>&1
  echo "$name rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o$name/*summary.json $R/$name.json 2>/dev/null; rm -rf /tmp/o$name
}
C=cases/cavity-box/case.toml
S="--set mesh.divisions=[111,111,111] --set time.steps=10"
run n1-1 n 1 70 $C $S
run b2-1 b 2 70 $C $S
run n2-1 n 2 70 $C $S
run b2-2 b 2 70 $C $S
run n2-2 n 2 70 $C $S
run n1-2 n 1 70 $C $S
run n2-3 n 2 70 $C $S
run w1 n 1 60 /tmp/fixed.toml --set 'mesh.divisions=[88,88,88]' --set time.steps=10
run w2 n 2 70 /tmp/fixed.toml $S
cat $R/runs.txt
for f in $R/*.log; do echo "$(basename $f) $(grep -E '^step' $f | awk '{for(i=1;i<=NF;i++) if($i=="ms/step") v=$(i-1); split($2,a,"/"); if (a[1]>=3) {s+=v; c++}} END{if (c) print s/c}')"; done
for f in $R/*.json; do python3 -c "
import json;d=json.load(open('$f'));s=d['synchronisations']
print('$f'.split('/')[-1], d['solver']['solves']['momentum']['total'], d['solver']['solves']['pressure']['total'], d['figures']['kinetic_energy'], round(d['seconds']['solve_momentum'],3), round(d['seconds']['solve_pressure'],3), s['halo_rounds']['mean'], s['reductions']['mean'], s['coarse_gathers']['mean'])"; done
cd $OUT && tar czf r.tgz r && rm -rf r
