#!/usr/bin/env bash
# 2 x H200: bundle j (level 0's right-hand side exchanged behind the rows that read no ghost, A W)
# against h (3a79083 + the inactive trace), interleaved: bench --only amg, then cavity-box 111^3.
set -u
cd "$(dirname "$0")/.."
for b in h j; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=$OUT/r; mkdir -p $R
M="mpirun --allow-run-as-root --bind-to none --mca btl_vader_single_copy_mechanism cma"
a() { [ $SECONDS -gt 200 ] && return; timeout 60 $M -np 2 .devrun/$1/bin/streamcfd bench --backend gl-compute --cells 8205786 --only amg > $R/amg-$1-$2.log 2>&1; echo "amg $1 rc $? at ${SECONDS}s" >> $R/runs.txt; }
run() {  # name bundle
  [ $SECONDS -gt 220 ] && return
  timeout 45 $M -np 2 .devrun/$2/bin/streamcfd run cases/cavity-box/case.toml --set solver.backend=gl-compute \
    --set 'output.fields=[]' --set output.directory=\"/tmp/o$1\" --set 'mesh.divisions=[111,111,111]' --set time.steps=10 > $R/$1.log 2>&1
  echo "$1 rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o$1/*summary.json $R/$1.json 2>/dev/null; rm -rf /tmp/o$1
}
a j 1; a h 1; run j2 j; run h2 h; a j 2; run j2b j
cat $R/runs.txt; grep -H V-cycle $R/amg*.log
for f in $R/[hj]2*.log; do echo "$(basename $f) $(grep -E '^step' $f | awk '{for(i=1;i<=NF;i++) if($i=="ms/step") v=$(i-1); split($2,a,"/"); if (a[1]>=3) {s+=v; c++}} END{if (c) print s/c}')"; done
for f in $R/[hj]2*.json; do python3 -c "
import json;d=json.load(open('$f'))
print('$f'.split('/')[-1], d['solver']['solves']['momentum']['total'], d['solver']['solves']['pressure']['total'], d['figures']['kinetic_energy'], round(d['seconds']['solve_momentum'],3), round(d['seconds']['solve_pressure'],3))"; done
cd $OUT && tar czf r.tgz r && rm -rf r
