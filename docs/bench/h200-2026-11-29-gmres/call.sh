#!/usr/bin/env bash
# One H200: ns-exact's stream solve by GMRES against BiCGStab (g4: the committed build, GMRES with fused dots, axpys and normalisation), ns-classical for the ratio.
set -u
cd "$(dirname "$0")/.."
for b in g4; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
for l in 3 4; do [ -f /tmp/cyl2d-$l.msh ] || xz -dc .devrun/meshes/cyl2d-$l.msh.xz > /tmp/cyl2d-$l.msh; done
for m in 49k 289k; do [ -f /tmp/cav3d-$m.msh ] || xz -dc .devrun/meshes/cav3d-$m.msh.xz > /tmp/cav3d-$m.msh; done
sed -e 's/^end = 8$/steps = 300/' cases/cylinder2d/case.toml > cases/cylinder2d/steps300.toml
R=/tmp/res; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt
save() { tar czf $OUT/res.tgz -C /tmp res; }
one() {  # name build case extra-sets...
  local name=$1 b=$2 c=$3; shift 3
  .devrun/$b/bin/streamcfd run $c --set solver.backend=gl-compute --set 'output.fields=[]' \
    --set output.directory=\"/tmp/o-$name\" "$@" > $R/$name.log 2> $R/$name.err
  echo "$name rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o-$name/*summary.json $R/$name.json 2>/dev/null; rm -rf /tmp/o-$name; save
}
cav() { local name=$1 b=$2 mesh=$3 end=$4; shift 4; one $name $b cases/cavity3d/case.toml --set mesh.file=\"/tmp/cav3d-$mesh.msh\" --set time.cfl=0.5 --set time.end=$end "$@"; }
dfg() { local name=$1 b=$2 l=$3; shift 3; one $name $b cases/cylinder2d/steps300.toml --set mesh.file=\"/tmp/cyl2d-$l.msh\" "$@"; }
X="--set physics.model=ns-exact"
G="--set solver.stream_solver=\"gmres\""
cav warm g4 49k 0.05 $X
for k in a b c; do
  cav x289-bi-$k g4 289k 0.1 $X
  cav x289-gm-$k g4 289k 0.1 $X $G
  cav c289-$k g4 289k 0.1
  cav x49-bi-$k g4 49k 0.5 $X
  cav x49-gm-$k g4 49k 0.5 $X $G
  cav c49-$k g4 49k 0.5
  for l in 4 3; do
    dfg L${l}x-bi-$k g4 $l $X
    dfg L${l}x-gm-$k g4 $l $X $G
    dfg L${l}c-$k g4 $l
  done
done
for m in 289k 49k; do
  .devrun/g4/bin/streamcfd bench /tmp/cav3d-$m.msh --backend gl-compute --only stream --repeat 50 --json $R/bench-stream-$m.json > $R/bench-stream-$m.log 2>&1
  echo "bench $m rc $? at ${SECONDS}s" >> $R/runs.txt; save
done
SCFD_GL_DEVICE=0 timeout 200 .devrun/g4/bin/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu-tests rc $? at ${SECONDS}s" >> $R/runs.txt
save
tail -3 $R/runs.txt
