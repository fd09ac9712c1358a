#!/usr/bin/env bash
# One H200: a sampled timeline of the 8.2M-tet set-up with a warm driver cache (g7: kernels built
# at backend creation): cavity-box 111^3, ns-classical, gl-compute, one step, 16 host threads.
set -u
cd "$(dirname "$0")/.."
for b in g7 perfb; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=/tmp/res32; rm -rf $R; mkdir -p $R
save() { tar czf $OUT/res.tgz -C /tmp res32; }
P() { LD_LIBRARY_PATH=$PWD/.devrun/perfb/lib .devrun/perfb/perf "$@"; }
big() {
  local name=$1; shift
  "$@" .devrun/g7/bin/streamcfd run cases/cavity-box/case.toml --set 'mesh.divisions=[111,111,111]' --set time.steps=1 \
    --set solver.backend=gl-compute --set 'output.fields=[]' --set output.directory=\"/tmp/o-$name\" > $R/$name.log 2> $R/$name.err
  echo "$name rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o-$name/*summary.json $R/$name.json 2>/dev/null; rm -rf /tmp/o-$name; save
}
big first
big second
big profiled P record -F 500 -o /tmp/perf.data --
P script -i /tmp/perf.data -F tid,time,ip,sym 2> $R/script.err | gzip > $R/script.txt.gz
P report -i /tmp/perf.data --no-children --sort symbol --stdio 2>> $R/report.err | head -150 > $R/report-sym.txt
echo "report at ${SECONDS}s" >> $R/runs.txt
save
cat $R/runs.txt
