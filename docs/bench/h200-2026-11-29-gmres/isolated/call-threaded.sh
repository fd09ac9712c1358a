#!/usr/bin/env bash
# One H200: is a dependent dispatch bound by the host? CPU time against wall time, and the
# NVIDIA driver's threaded GL (__GL_THREADED_OPTIMIZATIONS=1), on the 289k cavity (g3).
set -u
cd "$(dirname "$0")/.."
for b in g3; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
for m in 289k; do [ -f /tmp/cav3d-$m.msh ] || xz -dc .devrun/meshes/cav3d-$m.msh.xz > /tmp/cav3d-$m.msh; done
R=/tmp/res; mkdir -p $R
save() { tar czf $OUT/res.tgz -C /tmp res; }
which perf > $R/tools.txt 2>&1; ls /usr/bin/time >> $R/tools.txt 2>&1
B=.devrun/g3/bin/streamcfd
for v in 0 1; do
  export __GL_THREADED_OPTIMIZATIONS=$v
  /usr/bin/time -v $B bench /tmp/cav3d-289k.msh --backend gl-compute --only stream --repeat 50 --json $R/bench-t$v.json > $R/bench-t$v.log 2> $R/bench-t$v.time
  echo "bench t$v rc $? at ${SECONDS}s" >> $R/runs.txt; save
  for s in bicgstab gmres; do
    /usr/bin/time -v $B run cases/cavity3d/case.toml --set solver.backend=gl-compute --set 'output.fields=[]' --set mesh.file=\"/tmp/cav3d-289k.msh\" \
      --set time.cfl=0.5 --set time.end=0.1 --set physics.model=ns-exact --set solver.stream_solver=\"$s\" --set output.directory=\"/tmp/o-$s-$v\" > $R/x289-$s-t$v.log 2> $R/x289-$s-t$v.time
    echo "x289 $s t$v rc $? at ${SECONDS}s" >> $R/runs.txt
    cp /tmp/o-$s-$v/*summary.json $R/x289-$s-t$v.json; save
  done
done
cat $R/runs.txt
