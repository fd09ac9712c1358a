#!/usr/bin/env bash
# 2 x H200: GL twin tests of bundle r (q + the multi-rank PCG's fused update), then r against q
# (main 1e0af6a), interleaved. The first run of an allocation is slow: q's first heat run.
set -u
cd "$(dirname "$0")/.."
for b in r q; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=$OUT/r; mkdir -p $R
timeout 120 .devrun/r/bin/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu-tests rc $? at ${SECONDS}s" >> $R/runs.txt
M="mpirun --allow-run-as-root --bind-to none --mca btl_vader_single_copy_mechanism cma"
run() {  # name bundle np case sets...
  local name=$1 b=$2 n=$3 case=$4; shift 4
  [ $SECONDS -gt 250 ] && return
  timeout 50 $M -np $n .devrun/$b/bin/streamcfd run $case --set solver.backend=gl-compute \
    --set 'output.fields=[]' --set output.directory=\"/tmp/o$name\" "$@" > $R/$name.log 2>&1
  echo "$name rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o$name/*summary.json $R/$name.json 2>/dev/null; rm -rf /tmp/o$name
}
pcg() { [ $SECONDS -gt 250 ] && return; timeout 40 $M -np 2 .devrun/$1/bin/streamcfd bench --backend gl-compute --cells 8205786 --only pcg > $R/pcg-$1-$2.log 2>&1; echo "pcg $1 rc $? at ${SECONDS}s" >> $R/runs.txt; }
C="cases/cavity-box/case.toml --set mesh.divisions=[111,111,111] --set time.steps=10"
H="cases/heat-box/case.toml --set mesh.divisions=[111,111,111] --set time.dt=0.02 --set time.end=0.2"
run hq1 q 2 $H; run hr1 r 2 $H; run hq2 q 2 $H; run hr2 r 2 $H
pcg r 1; pcg q 1
run cr1 r 2 $C; run cq1 q 2 $C
cat $R/runs.txt; grep -h "PASSED\|FAILED" $R/gpu-tests.txt | tail -8; grep -H -i "iteration" $R/pcg*.log | head
for f in $R/c*.log; do echo "$(basename $f) $(grep -E '^step' $f | awk '{for(i=1;i<=NF;i++) if($i=="ms/step") v=$(i-1); split($2,a,"/"); if (a[1]>=3) {s+=v; c++}} END{if (c) print s/c}')"; done
for f in $R/*.json; do python3 -c "
import json;d=json.load(open('$f'));s=d['synchronisations'];sec=d['seconds']
print('$f'.split('/')[-1], d['solver'].get('solves',{}).get('pressure',{}).get('total'), d['solver']['iterations_total'], d['figures'].get('kinetic_energy'), d['figures'].get('error_l2'), round(sec['solve'],3), round(sec.get('solve_pressure',0),3), s['halo_rounds']['mean'], s['reductions']['mean'], s['gpu_dispatches']['mean'])"; done
cd $OUT && tar czf r.tgz r && rm -rf r
