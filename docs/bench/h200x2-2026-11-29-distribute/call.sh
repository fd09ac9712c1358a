#!/usr/bin/env bash
# Run on 2 x H200 (32 cores; the 4-GPU kind was not lent at the time): the 4-rank mesh phase of cavity-box 111^3, p4 (main 07e323b) vs p5 (rank 0 cuts the ranks' meshes on its threads), interleaved.
set -u
cd "$(dirname "$0")/.."
for b in p4 p5; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=$OUT/r; mkdir -p $R
for i in 1 2; do for b in p4 p5; do
  n=$b-$i
  timeout 120 mpirun --allow-run-as-root --bind-to none --mca btl_vader_single_copy_mechanism cma -np 4 \
    .devrun/$b/bin/streamcfd run cases/cavity-box/case.toml --set 'mesh.divisions=[111,111,111]' --set time.steps=1 \
    --set solver.backend=gl-compute --set 'output.fields=[]' --set output.directory=\"/tmp/o$n\" > $R/$n.log 2>&1
  echo "$n rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o$n/*summary.json $R/$n.json 2>/dev/null; rm -rf /tmp/o$n
done; done
python3 - "$R" <<'PY'
import json,sys,glob,os
for f in sorted(glob.glob(sys.argv[1]+'/p*.json')):
    d=json.load(open(f)); s=d['seconds']
    print(os.path.basename(f), 'mesh %.2f (ranks %.2f-%.2f) setup %.2f' % (s['mesh'], s['mesh_ranks']['min'], s['mesh_ranks']['max'], s['setup']), 'rank0 peak %.2f GB others %.2f GB' % (d['memory']['peak_rank0_bytes']/1e9, d['memory']['peak_others_max_bytes']/1e9), d['figures']['kinetic_energy'])
PY
cat $R/runs.txt
