#!/usr/bin/env bash
# One H200: where the 8.2M-tet set-up's "rest" goes (a probe build printing seconds between points of the model's constructors), two runs.
set -u
cd "$(dirname "$0")/.."
b=pr; [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1)
.devrun/$b/bin/streamcfd run cases/cavity-box/case.toml --set 'mesh.divisions=[40,40,40]' --set time.steps=1 --set solver.backend=gl-compute --set 'output.fields=[]' --set output.directory=\"/tmp/ow\" > /dev/null 2>&1
for i in 1 2; do
  .devrun/$b/bin/streamcfd run cases/cavity-box/case.toml --set 'mesh.divisions=[111,111,111]' --set time.steps=1 \
    --set solver.backend=gl-compute --set 'output.fields=[]' --set output.directory=\"/tmp/o$i\" > $OUT/probe-$i.log 2>&1
  grep -E "PROBE|^set-up" $OUT/probe-$i.log
done
