#!/usr/bin/env bash
# One H200: bench --only stream / momentum on the 3D cavity meshes, and a kernels row set.
set -u
cd "$(dirname "$0")/.."
for b in exp3; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
for m in 49k 289k; do [ -f /tmp/cav3d-$m.msh ] || xz -dc .devrun/meshes/cav3d-$m.msh.xz > /tmp/cav3d-$m.msh; done
R=/tmp/res; mkdir -p $R
save() { tar czf $OUT/res.tgz -C /tmp res; }
B=.devrun/exp3/bin/streamcfd
for m in 289k 49k; do
  for part in stream momentum; do
    $B bench /tmp/cav3d-$m.msh --backend gl-compute --only $part --repeat 50 --json $R/bench-$part-$m.json > $R/bench-$part-$m.log 2>&1
    echo "$part $m rc $? at ${SECONDS}s" >> $R/runs.txt; save
  done
done
$B bench /tmp/cav3d-289k.msh --backend gl-compute --only amg --repeat 50 --json $R/bench-amg-289k.json > $R/bench-amg-289k.log 2>&1
echo "amg 289k rc $? at ${SECONDS}s" >> $R/runs.txt; save
cat $R/runs.txt
