#!/usr/bin/env bash
# One H200: the momentum application against the copy ceiling at 8.2M tets with today's main (r2),
# then issue 40's baseline (b0 = 6ce928d) against r2 on the answers: DFG 2D-1 level 3 (300 steps,
# forces every step) and cases/cavity3d to t = 0.5, both models.
set -u
cd "$(dirname "$0")/.."
for b in b0 r2; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
[ -f /tmp/cyl2d-3.msh ] || xz -dc .devrun/meshes/cyl2d-3.msh.xz > /tmp/cyl2d-3.msh
sed -e 's/^end = 8$/steps = 300/' cases/cylinder2d/case.toml > cases/cylinder2d/steps300.toml
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt
for k in a b; do
  timeout 200 .devrun/r2/bin/streamcfd bench --cells 8205786 --backend gl-compute --only momentum --json $R/momentum-$k.json > $R/momentum-$k.log 2>&1
  echo "momentum-$k rc $? at ${SECONDS}s" >> $R/runs.txt
done
one() {  # name build case extra-sets...
  local n=$1 b=$2 c=$3; shift 3
  .devrun/$b/bin/streamcfd run $c --set solver.backend=gl-compute --set output.directory=\"/tmp/o$n\" "$@" > $R/$n.log 2>&1
  echo "$n rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o$n/*summary.json $R/$n.json; rm -rf /tmp/o$n
}
for b in b0 r2; do
  for model in ns-classical ns-exact; do
    one L3-$model-$b $b cases/cylinder2d/steps300.toml --set mesh.file=\"/tmp/cyl2d-3.msh\" --set physics.model=$model
    one cav3d-$model-$b $b cases/cavity3d/case.toml --set time.end=0.5 --set physics.model=$model
  done
done
python3 - "$R" <<'PY' > $R/table.txt
import json,sys,glob,os
R=sys.argv[1]
for f in sorted(glob.glob(R+'/momentum-*.json')):
    d=json.load(open(f)); k=d['momentum']
    print(os.path.basename(f), 'copy gbps %.0f' % d['copy']['gbps'], ' '.join('%s %.3f ms %.2f' % (n, k[n]['time_s']*1000, k[n]['ratio_to_copy']) for n in k))
for f in sorted(glob.glob(R+'/L3-*.json')+glob.glob(R+'/cav3d-*.json')):
    d=json.load(open(f)); g=d['figures']
    print(os.path.basename(f), 'ke %s cd %s cl %s steps %s' % (g.get('kinetic_energy'), g.get('drag_coefficient'), g.get('lift_coefficient'), d.get('steps')))
PY
cat $R/table.txt; cat $R/runs.txt
cd $OUT && tar czf r.tgz r && rm -rf r
