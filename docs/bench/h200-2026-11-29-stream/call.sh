#!/usr/bin/env bash
# One H200: ns-exact's fused stream preconditioner, edge sweeps SW, cost-capped checks (CK0 = off),
# against head8 (4849fb2), on the 3D cavity 289k/49k and DFG 2D-1 levels 3/4.
set -u
cd "$(dirname "$0")/.."
for b in exp2 head8; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
for l in 3 4; do [ -f /tmp/cyl2d-$l.msh ] || xz -dc .devrun/meshes/cyl2d-$l.msh.xz > /tmp/cyl2d-$l.msh; done
for m in 49k 289k; do [ -f /tmp/cav3d-$m.msh ] || xz -dc .devrun/meshes/cav3d-$m.msh.xz > /tmp/cav3d-$m.msh; done
sed -e 's/^end = 8$/steps = 300/' cases/cylinder2d/case.toml > cases/cylinder2d/steps300.toml
R=/tmp/res; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt
save() { tar czf $OUT/res.tgz -C /tmp res; }
one() {  # name build env case extra-sets...
  local name=$1 b=$2 e=$3 c=$4; shift 4
  env $e .devrun/$b/bin/streamcfd run $c --set solver.backend=gl-compute --set 'output.fields=[]' \
    --set output.directory=\"/tmp/o-$name\" "$@" > $R/$name.log 2> $R/$name.err
  echo "$name rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o-$name/*summary.json $R/$name.json 2>/dev/null; rm -rf /tmp/o-$name; save
}
cav() { local name=$1 b=$2 e=$3 mesh=$4 end=$5; shift 5; one $name $b "$e" cases/cavity3d/case.toml --set mesh.file=\"/tmp/cav3d-$mesh.msh\" --set time.cfl=0.5 --set time.end=$end "$@"; }
dfg() { local name=$1 b=$2 e=$3 l=$4; shift 4; one $name $b "$e" cases/cylinder2d/steps300.toml --set mesh.file=\"/tmp/cyl2d-$l.msh\" "$@"; }
X="--set physics.model=ns-exact"
cav warm exp2 "SW=1" 49k 0.05 $X
box() { local name=$1 b=$2; shift 2; one $name $b "SW=1" cases/cavity-box/case.toml --set 'mesh.divisions=[111,111,111]' --set time.steps=40 "$@"; }
for k in a b c; do
  cav x289-head-$k head8 "SW=1" 289k 0.1 $X
  cav c289-head-$k head8 "SW=1" 289k 0.1
  for s in 1 2 3; do cav x289-s$s-$k exp2 "SW=$s" 289k 0.1 $X; done
  cav c289-new-$k exp2 "SW=1" 289k 0.1
  cav x49-head-$k head8 "SW=1" 49k 0.5 $X
  cav c49-head-$k head8 "SW=1" 49k 0.5
  for s in 1 2 3; do cav x49-s$s-$k exp2 "SW=$s" 49k 0.5 $X; done
  cav c49-new-$k exp2 "SW=1" 49k 0.5
  for l in 4 3; do
    dfg L${l}x-head-$k head8 "SW=1" $l $X
    dfg L${l}c-head-$k head8 "SW=1" $l
    for s in 1 3; do dfg L${l}x-s$s-$k exp2 "SW=$s" $l $X; done
    dfg L${l}c-new-$k exp2 "SW=1" $l
  done
done
SCFD_GL_DEVICE=0 timeout 200 .devrun/exp2/bin/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu-tests rc $? at ${SECONDS}s" >> $R/runs.txt
save
box box-new exp2
box box-head head8
save
cat $R/runs.txt
