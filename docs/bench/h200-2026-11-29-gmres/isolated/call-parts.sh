#!/usr/bin/env bash
# One H200: bench --only stream with the solver rows and temporary Gram-Schmidt part rows (g3).
set -u
cd "$(dirname "$0")/.."
for b in g3; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
for m in 49k 289k; do [ -f /tmp/cav3d-$m.msh ] || xz -dc .devrun/meshes/cav3d-$m.msh.xz > /tmp/cav3d-$m.msh; done
R=/tmp/res; mkdir -p $R
save() { tar czf $OUT/res.tgz -C /tmp res; }
for m in 289k 49k; do
  .devrun/g3/bin/streamcfd bench /tmp/cav3d-$m.msh --backend gl-compute --only stream --repeat 50 --json $R/bench-stream-$m.json > $R/bench-stream-$m.log 2>&1
  echo "$m rc $? at ${SECONDS}s" >> $R/runs.txt; save
done
cat $R/runs.txt
