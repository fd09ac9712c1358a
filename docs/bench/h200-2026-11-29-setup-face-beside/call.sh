#!/usr/bin/env bash
# One H200: the 8.2M-tet set-up, r2 (main d14e92b) against r3 (the face mass and M C beside the edge star), interleaved.
set -u
cd "$(dirname "$0")/.."
for b in r2 r3; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt
# a warm-up run (the driver's shader cache), not counted
.devrun/r3/bin/streamcfd run cases/cavity-box/case.toml --set 'mesh.divisions=[40,40,40]' --set time.steps=1 --set solver.backend=gl-compute --set 'output.fields=[]' --set output.directory=\"/tmp/ow\" > /dev/null 2>&1
.devrun/r2/bin/streamcfd run cases/cavity-box/case.toml --set 'mesh.divisions=[40,40,40]' --set time.steps=1 --set solver.backend=gl-compute --set 'output.fields=[]' --set output.directory=\"/tmp/ow\" > /dev/null 2>&1
for i in 1 2 3 4; do for b in r2 r3; do
  n=$b-$i
  .devrun/$b/bin/streamcfd run cases/cavity-box/case.toml --set 'mesh.divisions=[111,111,111]' --set time.steps=1 \
    --set solver.backend=gl-compute --set 'output.fields=[]' --set output.directory=\"/tmp/o$n\" > $R/$n.log 2>&1
  echo "$n rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o$n/*summary.json $R/$n.json; rm -rf /tmp/o$n
done; done
python3 - "$R" <<'PY' > $R/table.txt
import json,sys,glob,os
for f in sorted(glob.glob(sys.argv[1]+'/*.json')):
    d=json.load(open(f)); s=d['seconds']
    parts=' '.join('%s %.2f'%(k[6:],v) for k,v in s.items() if k.startswith('setup_') and not k.endswith('_ranks'))
    print(os.path.basename(f), 'mesh %.2f setup %.2f' % (s['mesh'], s['setup']), d['figures']['kinetic_energy'], parts)
PY
cat $R/table.txt
cd $OUT && tar czf r.tgz r && rm -rf r
