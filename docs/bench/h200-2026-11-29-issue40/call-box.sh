#!/usr/bin/env bash
# One H200: issue 40's baseline (b0 = 6ce928d) against today's main (r2 = d14e92b, whose
# ns-classical is main's since), cavity-box 111^3, ns-classical, gl-compute fp64, 40 steps, two
# runs each interleaved (set-up and ms per step over steps 5-40); then one run of r2 with its
# default output (the initial and final VTU of 8.2M cells).
set -u
cd "$(dirname "$0")/.."
for b in b0 r2; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt
for b in b0 r2; do  # warm-ups (the driver's shader cache), not counted
  .devrun/$b/bin/streamcfd run cases/cavity-box/case.toml --set 'mesh.divisions=[40,40,40]' --set time.steps=2 --set solver.backend=gl-compute --set 'output.fields=[]' --set output.directory=\"/tmp/ow\" > /dev/null 2>&1
done
box() {  # name build extra-sets...
  local n=$1 b=$2; shift 2
  .devrun/$b/bin/streamcfd run cases/cavity-box/case.toml --set 'mesh.divisions=[111,111,111]' \
    --set solver.backend=gl-compute --set output.directory=\"/tmp/o$n\" "$@" > $R/$n.log 2>&1
  echo "$n rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o$n/*summary.json $R/$n.json; ls -la /tmp/o$n > $R/$n.files.txt; rm -rf /tmp/o$n
}
for i in 1 2; do
  box old-$i b0 --set time.steps=40 --set 'output.fields=[]'
  box new-$i r2 --set time.steps=40 --set 'output.fields=[]'
done
box new-output r2 --set time.steps=1
python3 - "$R" <<'PY' > $R/table.txt
import json,sys,glob,os,re
R=sys.argv[1]
for f in sorted(glob.glob(R+'/*.log')):
    n=os.path.basename(f)[:-4]
    rows=[]
    for l in open(f):
        m=re.match(r'step\s+(\d+)/\d+\s+.*?it\s+(\d+)\s+\(momentum (\d+), pressure (\d+)\).*?\s([\d.]+) (ms|s)/step',l)
        if m:
            v=float(m.group(5)); ms=v*1000 if m.group(6)=='s' else v
            rows.append((int(m.group(1)),int(m.group(3)),int(m.group(4)),ms))
    w=[r for r in rows if 5<=r[0]<=40]
    d=json.load(open(R+'/'+n+'.json')) if os.path.exists(R+'/'+n+'.json') else {}
    s=d.get('seconds',{})
    mean=lambda i: sum(r[i] for r in w)/len(w) if w else float('nan')
    print(f"{n:11s} steps {len(rows):3d} | 5-40: {mean(3):7.1f} ms/step, momentum {mean(1):5.2f}, pressure {mean(2):5.2f} | mesh {s.get('mesh',0):6.2f} setup {s.get('setup',0):6.2f} output {s.get('output',0):6.2f} | ke {d.get('figures',{}).get('kinetic_energy')}")
PY
cat $R/table.txt; cat $R/runs.txt
cd $OUT && tar czf r.tgz r && rm -rf r
