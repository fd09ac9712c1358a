#!/usr/bin/env bash
# One H200: set-up parts of cavity-box 111^3 (ns-classical, gl-compute) against the host threads.
set -u
cd "$(dirname "$0")/.."
for b in exp3; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=/tmp/res; mkdir -p $R
save() { tar czf $OUT/res.tgz -C /tmp res; }
for t in 16 8 4; do
  .devrun/exp3/bin/streamcfd run cases/cavity-box/case.toml --set 'mesh.divisions=[111,111,111]' --set time.steps=1 \
    --set solver.backend=gl-compute --set 'output.fields=[]' --set parallel.threads=$t \
    --set output.directory=\"/tmp/o-t$t\" > $R/setup-t$t.log 2>&1
  echo "t$t rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o-t$t/*summary.json $R/setup-t$t.json; rm -rf /tmp/o-t$t; save
done
grep -h "^set-up\|^mesh:" $R/setup-t*.log
cat $R/runs.txt
