#!/usr/bin/env bash
# A/B on one H200: p1 (main 4732090 with temporary timers inside the set-up, none in the mesh phase) vs p4 (HEAD: the topology and the Morton sorts on the host threads):
# the 8.2M-tet mesh phase and set-up, and the same answers after 2 steps.
set -u
cd "$(dirname "$0")/.."
for b in p1 p4; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt
for i in 1 2; do for b in p1 p4; do
  n=$b-$i
  .devrun/$b/bin/streamcfd run cases/cavity-box/case.toml --set 'mesh.divisions=[111,111,111]' --set time.steps=2 \
    --set solver.backend=gl-compute --set 'output.fields=[]' --set output.directory=\"/tmp/o$n\" > /tmp/$n.log 2>&1
  echo "$n rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o$n/*summary.json $R/$n.json; rm -rf /tmp/o$n
done; done
python3 - "$R" <<'PY'
import json,sys,glob,os
R=sys.argv[1]
for f in sorted(glob.glob(R+'/p*.json')):
    d=json.load(open(f)); s=d['seconds']
    ke=[v for k,v in d['figures'].items() if 'kinetic' in k] if isinstance(d.get('figures'),dict) else d.get('figures')
    print(os.path.basename(f), 'mesh %.2f setup %.2f' % (s['mesh'], s['setup']), ke)
PY
cat $R/runs.txt
