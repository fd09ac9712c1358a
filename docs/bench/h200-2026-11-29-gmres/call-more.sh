#!/usr/bin/env bash
# One H200: GMRES against BiCGStab for ns-exact's stream solve beyond the cavity and DFG (g5):
# the viscous-dominated Ethier-Steinman flow (16^3, 32^3), the 3D cylinder, the 2D cavity.
set -u
cd "$(dirname "$0")/.."
for b in g5; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=/tmp/res; mkdir -p $R
save() { tar czf $OUT/res.tgz -C /tmp res; }
one() {  # name case extra-sets...
  local name=$1 c=$2; shift 2
  .devrun/g5/bin/streamcfd run $c --set solver.backend=gl-compute --set 'output.fields=[]' --set physics.model=ns-exact \
    --set output.directory=\"/tmp/o-$name\" "$@" > $R/$name.log 2> $R/$name.err
  echo "$name rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o-$name/*summary.json $R/$name.json 2>/dev/null; rm -rf /tmp/o-$name; save
}
for k in a b; do
  for s in bicgstab gmres; do
    one es16-$s-$k cases/beltrami3d/case.toml --set 'mesh.divisions=[16,16,16]' --set time.dt=0.0125 --set time.end=0.25 --set solver.stream_solver=\"$s\"
    one es32-$s-$k cases/beltrami3d/case.toml --set 'mesh.divisions=[32,32,32]' --set time.dt=0.00625 --set time.end=0.125 --set solver.stream_solver=\"$s\"
    one cyl3d-$s-$k cases/cylinder3d/case.toml --set time.end=0.2 --set solver.stream_solver=\"$s\"
    one cav2d-$s-$k cases/cavity2d/case.toml --set time.end=2 --set solver.stream_solver=\"$s\"
  done
done
SCFD_GL_DEVICE=0 timeout 200 .devrun/g5/bin/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu-tests rc $? at ${SECONDS}s" >> $R/runs.txt
save
tail -3 $R/runs.txt
