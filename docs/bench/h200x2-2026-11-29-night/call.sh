#!/usr/bin/env bash
# 2 x H200 (the 4-GPU kind was not lent), main at 7db7e19 (bundle h1): issue 39's figures in one
# allocation. Strong cavity-box 111^3 ns-classical 1/2 GPUs three times interleaved; heat-box
# 111^3 1 and 2 GPUs; weak cavity-box at ~4M tets per GPU (88^3 on one, 111^3 on two), dt 0.002.
set -u
cd "$(dirname "$0")/.."
for b in h1; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt
M="mpirun --allow-run-as-root --bind-to none --mca btl_vader_single_copy_mechanism cma"
sed -e '/^cfl *=/d' -e 's/^dt_max *=.*/dt = 0.002/' cases/cavity-box/case.toml > /tmp/fixed.toml
run() {  # name np limit case sets...
  local name=$1 n=$2 lim=$3 case=$4; shift 4
  [ $SECONDS -gt 560 ] && return
  timeout $lim $M -np $n .devrun/h1/bin/streamcfd run $case --set solver.backend=gl-compute \
    --set 'output.fields=[]' --set output.directory=\"/tmp/o$name\" "$@" > $R/$name.log 2>&1
  echo "$name rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o$name/*summary.json $R/$name.json 2>/dev/null; rm -rf /tmp/o$name
}
C=cases/cavity-box/case.toml
for r in 1 2 3; do
  run s1-$r 1 60 $C --set 'mesh.divisions=[111,111,111]' --set time.steps=10
  run s2-$r 2 60 $C --set 'mesh.divisions=[111,111,111]' --set time.steps=10
done
run h1 1 60 cases/heat-box/case.toml --set 'mesh.divisions=[111,111,111]' --set time.dt=0.02 --set time.end=0.2
run h2 2 60 cases/heat-box/case.toml --set 'mesh.divisions=[111,111,111]' --set time.dt=0.02 --set time.end=0.2
run w1 1 60 /tmp/fixed.toml --set 'mesh.divisions=[88,88,88]' --set time.steps=10
run w2 2 90 /tmp/fixed.toml --set 'mesh.divisions=[111,111,111]' --set time.steps=10
cat $R/runs.txt
for f in $R/s*.log $R/w*.log; do echo "$(basename $f) $(grep -E '^step' $f | awk '{for(i=1;i<=NF;i++) if($i=="ms/step") v=$(i-1); split($2,a,"/"); if (a[1]>=3) {s+=v; c++}} END{if (c) print s/c}')"; done
for f in $R/h*.json; do python3 -c "import json;d=json.load(open('$f'));print('$f', d['seconds']['solve'], d['solver']['iterations_total'])"; done
cd $OUT && tar czf r.tgz r && rm -rf r
