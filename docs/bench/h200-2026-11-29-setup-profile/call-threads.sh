#!/usr/bin/env bash
# One H200: the 8.2M-tet set-up, g8 (the Lanczos start vector and host_apply on threads) against
# g7, interleaved, three runs each after one warm-up run.
set -u
cd "$(dirname "$0")/.."
for b in g7 g8; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=/tmp/res33; rm -rf $R; mkdir -p $R
save() { tar czf $OUT/res.tgz -C /tmp res33; }
big() {
  local name=$1 b=$2
  .devrun/$b/bin/streamcfd run cases/cavity-box/case.toml --set 'mesh.divisions=[111,111,111]' --set time.steps=2 \
    --set solver.backend=gl-compute --set 'output.fields=[]' --set output.directory=\"/tmp/o-$name\" > $R/$name.log 2> $R/$name.err
  echo "$name rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o-$name/*summary.json $R/$name.json 2>/dev/null; rm -rf /tmp/o-$name; save
}
big warm g8
for k in a b c; do big g8-$k g8; big g7-$k g7; done
save
cat $R/runs.txt
