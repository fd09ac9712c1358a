#!/usr/bin/env bash
# 4 x H200: main (p5) against receives into staging + list ids (x2), and x2 sending straight from
# the gather's mapped memory (SCFD_DIRECT_SEND): cavity-box 111^3 ns-classical, 4 GPUs twice, then 2 GPUs.
set -u
cd "$(dirname "$0")/.."
for b in p5 x2; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=$OUT/r; mkdir -p $R
M="mpirun --allow-run-as-root --bind-to none --mca btl_vader_single_copy_mechanism cma"
run() {  # name np bundle env...
  local name=$1 n=$2 b=$3; shift 3
  [ $SECONDS -gt 520 ] && return
  timeout 100 $M "$@" -np $n .devrun/$b/bin/streamcfd run cases/cavity-box/case.toml --set 'mesh.divisions=[111,111,111]' --set time.steps=10 \
    --set solver.backend=gl-compute --set 'output.fields=[]' --set output.directory=\"/tmp/o$name\" > $R/$name.log 2>&1
  echo "$name rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o$name/*summary.json $R/$name.json 2>/dev/null; rm -rf /tmp/o$name
}
for round in 1 2; do
  run n4-main-$round 4 p5
  run n4-x2-$round 4 x2
  run n4-send-$round 4 x2 -x SCFD_DIRECT_SEND=1
done
run n2-main 2 p5
run n2-send 2 x2 -x SCFD_DIRECT_SEND=1
cat $R/runs.txt
for f in $R/n*.log; do echo "$(basename $f) $(grep -E '^step' $f | awk '{for(i=1;i<=NF;i++) if($i=="ms/step") v=$(i-1); split($2,a,"/"); if (a[1]>=3) {s+=v; c++}} END{if (c) print s/c}')"; done
grep -hi "error\|abort" $R/*.log | head -5
cd $OUT && tar czf r.tgz r && rm -rf r
