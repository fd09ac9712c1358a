#!/usr/bin/env bash
# One H200: the 8.2M-tet set-up with a cold and then a warm GL shader cache (g5), twice each.
set -u
cd "$(dirname "$0")/.."
for b in g5; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=/tmp/res; mkdir -p $R
save() { tar czf $OUT/res.tgz -C /tmp res; }
ls -d ~/.nv ~/.cache/nvidia 2>&1 > $R/cache-before.txt
for k in cold warm; do
  .devrun/g5/bin/streamcfd run cases/cavity-box/case.toml --set 'mesh.divisions=[111,111,111]' --set time.steps=2 \
    --set solver.backend=gl-compute --set 'output.fields=[]' --set output.directory=\"/tmp/o-$k\" > $R/setup-$k.log 2>&1
  echo "$k rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o-$k/*summary.json $R/setup-$k.json; rm -rf /tmp/o-$k; save
  ls -d ~/.nv/GLCache ~/.cache/nvidia/GLCache 2>&1 >> $R/cache-after.txt; du -sh ~/.cache/nvidia ~/.nv 2>&1 >> $R/cache-after.txt
done
grep -h "set-up\|^step" $R/setup-*.log
