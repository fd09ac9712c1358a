#!/usr/bin/env bash
# One H200: where the 8.2M-tet set-up's serial seconds go: perf samples of cavity-box 111^3
# (ns-classical, gl-compute, one step, 16 host threads), per thread and symbol (g5).
set -u
cd "$(dirname "$0")/.."
for b in g5 perfb; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=/tmp/res; mkdir -p $R
save() { tar czf $OUT/res.tgz -C /tmp res; }
P() { LD_LIBRARY_PATH=$PWD/.devrun/perfb/lib .devrun/perfb/perf "$@"; }
cat /proc/sys/kernel/perf_event_paranoid > $R/paranoid.txt; uname -r >> $R/paranoid.txt
P --version >> $R/paranoid.txt 2>&1
P record -F 500 -o /tmp/perf.data -- .devrun/g5/bin/streamcfd run cases/cavity-box/case.toml --set 'mesh.divisions=[111,111,111]' --set time.steps=1 \
  --set solver.backend=gl-compute --set 'output.fields=[]' --set output.directory=\"/tmp/o-s\" > $R/setup.log 2> $R/perf-record.err
echo "record rc $? at ${SECONDS}s" >> $R/runs.txt
cp /tmp/o-s/*summary.json $R/setup.json 2>/dev/null; save
P script -i /tmp/perf.data -F tid,time,ip,sym 2> $R/script.err | gzip > $R/script.txt.gz
P report -i /tmp/perf.data --no-children --sort symbol --stdio 2>> $R/report.err | head -200 > $R/report-sym.txt
P report -i /tmp/perf.data --no-children --sort pid --stdio 2>> $R/report.err | head -80 > $R/report-threads.txt
echo "report at ${SECONDS}s" >> $R/runs.txt
save
cat $R/runs.txt
