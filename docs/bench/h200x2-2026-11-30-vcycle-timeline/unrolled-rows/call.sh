#!/usr/bin/env bash
# 2 x H200: bundle i (h + sparse_row four entries at a time, loads first) against h, interleaved:
# bench --only amg on one and two GPUs, then cavity-box 111^3 10 steps on one and two.
set -u
cd "$(dirname "$0")/.."
for b in h i; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=$OUT/r; mkdir -p $R
M="mpirun --allow-run-as-root --bind-to none --mca btl_vader_single_copy_mechanism cma"
a() { timeout 80 $M -np $2 .devrun/$1/bin/streamcfd bench --backend gl-compute --cells 8205786 --only amg --json $R/amg-$1-$2.json > $R/amg-$1-$2.log 2>&1; echo "amg $1 $2 rc $? at ${SECONDS}s" >> $R/runs.txt; }
run() {  # name bundle np
  [ $SECONDS -gt 470 ] && return
  timeout 60 $M -np $3 .devrun/$2/bin/streamcfd run cases/cavity-box/case.toml --set solver.backend=gl-compute \
    --set 'output.fields=[]' --set output.directory=\"/tmp/o$1\" --set 'mesh.divisions=[111,111,111]' --set time.steps=10 > $R/$1.log 2>&1
  echo "$1 rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o$1/*summary.json $R/$1.json 2>/dev/null; rm -rf /tmp/o$1
}
a i 1; a h 1; a i 2; a h 2
run i1 i 1; run i2 i 2; run h2 h 2; run h1 h 1
cat $R/runs.txt
for f in $R/amg*.log; do echo "$(basename $f)"; grep -E "^amg [0-9] |V-cycle" $f | awk '{printf "  %s %s %s %s %s\n", $1,$2,$3,$5,$6}'; done | paste -sd' ' | sed 's/amg-/\namg-/g'
for f in $R/[hi][12].log; do echo "$(basename $f) $(grep -E '^step' $f | awk '{for(i=1;i<=NF;i++) if($i=="ms/step") v=$(i-1); split($2,a,"/"); if (a[1]>=3) {s+=v; c++}} END{if (c) print s/c}')"; done
for f in $R/[hi][12].json; do python3 -c "
import json;d=json.load(open('$f'))
print('$f'.split('/')[-1], d['solver']['solves']['momentum']['total'], d['solver']['solves']['pressure']['total'], d['figures']['kinetic_energy'], round(d['seconds']['solve_momentum'],3), round(d['seconds']['solve_pressure'],3))"; done
cd $OUT && tar czf r.tgz r && rm -rf r
