#!/usr/bin/env bash
# 2 x H200: the GL twin tests (bundle m = main fa18592 with the test binaries), then main (m)
# against branch amg-coarse-overlap (k), interleaved, plus heat-box 111^3 with Jacobi and AMG.
set -u
cd "$(dirname "$0")/.."
for b in m k; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt
timeout 150 .devrun/m/bin/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu-tests rc $? at ${SECONDS}s" >> $R/runs.txt
M="mpirun --allow-run-as-root --bind-to none --mca btl_vader_single_copy_mechanism cma"
a() { [ $SECONDS -gt 530 ] && return; timeout 70 $M -np 2 .devrun/$1/bin/streamcfd bench --backend gl-compute --cells 8205786 --only amg > $R/amg-$1-$2.log 2>&1; echo "amg $1 rc $? at ${SECONDS}s" >> $R/runs.txt; }
run() {  # name bundle np case sets...
  local name=$1 b=$2 n=$3 case=$4; shift 4
  [ $SECONDS -gt 530 ] && return
  timeout 60 $M -np $n .devrun/$b/bin/streamcfd run $case --set solver.backend=gl-compute \
    --set 'output.fields=[]' --set output.directory=\"/tmp/o$name\" "$@" > $R/$name.log 2>&1
  echo "$name rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o$name/*summary.json $R/$name.json 2>/dev/null; rm -rf /tmp/o$name
}
C="cases/cavity-box/case.toml --set mesh.divisions=[111,111,111] --set time.steps=10"
H="cases/heat-box/case.toml --set mesh.divisions=[111,111,111] --set time.dt=0.02 --set time.end=0.2"
a k 1; a m 1
run k2a k 2 $C; run m2a m 2 $C; run k2b k 2 $C; run m2b m 2 $C; run m1 m 1 $C
run h1j m 1 $H; run h2j m 2 $H; run h1a m 1 $H --set solver.preconditioner=\"amg\"; run h2a m 2 $H --set solver.preconditioner=\"amg\"
a k 2; a m 2
cat $R/runs.txt; grep -h "PASSED\|FAILED" $R/gpu-tests.txt | tail -8; grep -H -E "V-cycle|one V-cycle" $R/amg*.log
for f in $R/[mk][12]*.log; do echo "$(basename $f) $(grep -E '^step' $f | awk '{for(i=1;i<=NF;i++) if($i=="ms/step") v=$(i-1); split($2,a,"/"); if (a[1]>=3) {s+=v; c++}} END{if (c) print s/c}')"; done
for f in $R/*.json; do python3 -c "
import json;d=json.load(open('$f'));s=d['synchronisations']
print('$f'.split('/')[-1], d['solver'].get('solves',{}).get('pressure',{}).get('total'), d['solver']['iterations_total'], d['figures'].get('kinetic_energy'), round(d['seconds']['solve'],3), {k: round(v,3) for k,v in d['seconds'].items() if k.startswith('solve_')}, s['halo_rounds']['mean'], s['reductions']['mean'])"; done
cd $OUT && tar czf r.tgz r && rm -rf r
