#!/usr/bin/env bash
# One H200: the 8.2M-tet mesh phase, p5 (e9c26ce) vs p6 (3695a5e: the input checks on the threads too), interleaved.
set -u
cd "$(dirname "$0")/.."
for b in p5 p6; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=$OUT/r; mkdir -p $R
for i in 1 2; do for b in p5 p6; do
  n=$b-$i
  .devrun/$b/bin/streamcfd run cases/cavity-box/case.toml --set 'mesh.divisions=[111,111,111]' --set time.steps=1 \
    --set solver.backend=gl-compute --set 'output.fields=[]' --set output.directory=\"/tmp/o$n\" > /tmp/$n.log 2>&1
  echo "$n rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o$n/*summary.json $R/$n.json; rm -rf /tmp/o$n
done; done
python3 - "$R" <<'PY'
import json,sys,glob,os
for f in sorted(glob.glob(sys.argv[1]+'/p*.json')):
    d=json.load(open(f)); s=d['seconds']
    print(os.path.basename(f), 'mesh %.2f setup %.2f' % (s['mesh'], s['setup']), d['figures']['kinetic_energy'])
PY
cat $R/runs.txt
