#!/usr/bin/env bash
# One H200: the cavity3d windows (t <= 1, per-step lines) with the guesses weighted by the true
# step times (g7) against main 59adffd (g5), interleaved, three runs each; g7's GL twin tests.
set -u
cd "$(dirname "$0")/.."
for b in g5 g7; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
for m in 49k 289k; do [ -f /tmp/cav3d-$m.msh ] || xz -dc .devrun/meshes/cav3d-$m.msh.xz > /tmp/cav3d-$m.msh; done
R=/tmp/res31; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt
save() { tar czf $OUT/res.tgz -C /tmp res31; }
one() {  # name build case extra-sets...
  local name=$1 b=$2 c=$3; shift 3
  .devrun/$b/bin/streamcfd run $c --set solver.backend=gl-compute --set 'output.fields=[]' \
    --set output.directory=\"/tmp/o-$name\" "$@" > $R/$name.log 2> $R/$name.err
  echo "$name rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o-$name/*summary.json $R/$name.json 2>/dev/null; rm -rf /tmp/o-$name; save
}
cav() { local name=$1 b=$2 mesh=$3; shift 3; one $name $b cases/cavity3d/case.toml --set mesh.file=\"/tmp/cav3d-$mesh.msh\" --set time.cfl=0.5 --set time.end=1.0 "$@"; }
X="--set physics.model=ns-exact --set solver.stream_solver=\"gmres\""
cav warm g7 49k $X --set time.end=0.05
for k in a b c; do
  for b in g7 g5; do
    cav $b-x289-$k $b 289k $X
    cav $b-c289-$k $b 289k
    cav $b-x49-$k $b 49k $X
    cav $b-c49-$k $b 49k
  done
done
SCFD_GL_DEVICE=0 timeout 200 .devrun/g7/bin/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu-tests rc $? at ${SECONDS}s" >> $R/runs.txt
save
tail -3 $R/runs.txt
