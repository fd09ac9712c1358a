#!/usr/bin/env bash
# 2 x H200, bundle a (the momentum preconditioner with two exchanges per application): the third
# strong pair, heat-box 111^3 and weak at ~4.1M tets per GPU, one allocation.
set -u
cd "$(dirname "$0")/.."
for b in a; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
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
run s1 a 1 70 $C $S
run s2 a 2 70 $C $S
run h1 a 1 60 cases/heat-box/case.toml --set 'mesh.divisions=[111,111,111]' --set time.dt=0.02 --set time.end=0.2
run h2 a 2 60 cases/heat-box/case.toml --set 'mesh.divisions=[111,111,111]' --set time.dt=0.02 --set time.end=0.2
run w1 a 1 60 /tmp/fixed.toml --set 'mesh.divisions=[88,88,88]' --set time.steps=10
run w2 a 2 70 /tmp/fixed.toml $S
run w1b a 1 60 /tmp/fixed.toml --set 'mesh.divisions=[88,88,88]' --set time.steps=10
run w2b a 2 70 /tmp/fixed.toml $S
cat $R/runs.txt
for f in $R/s*.log $R/w*.log; do echo "$(basename $f) $(grep -E '^step' $f | awk '{for(i=1;i<=NF;i++) if($i=="ms/step") v=$(i-1); split($2,a,"/"); if (a[1]>=3) {s+=v; c++}} END{if (c) print s/c}')"; done
for f in $R/*.json; do python3 -c "
import json;d=json.load(open('$f'));s=d['synchronisations']
print('$f'.split('/')[-1], d['solver'].get('solves'), d['solver']['iterations_total'], d['figures'].get('kinetic_energy'), round(d['seconds']['solve'],3), s['halo_rounds']['mean'], s['reductions']['mean'], s['coarse_gathers']['mean'])"; done
cd $OUT && tar czf r.tgz r && rm -rf r
