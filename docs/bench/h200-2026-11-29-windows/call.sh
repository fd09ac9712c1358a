#!/usr/bin/env bash
# One H200 (g5 = main 59adffd's code): (1) does check-kernels on a fresh node warm the run's kernels;
# (2) the 8.2M set-up with glibc's malloc kept from mapping and trimming (GLIBC_TUNABLES) against
# the default; (3) ns-exact against ns-classical on the cavity3d meshes over the windows t <= 1.
set -u
cd "$(dirname "$0")/.."
for b in g5; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
for m in 49k 289k; do [ -f /tmp/cav3d-$m.msh ] || xz -dc .devrun/meshes/cav3d-$m.msh.xz > /tmp/cav3d-$m.msh; done
R=/tmp/res; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt
save() { tar czf $OUT/res.tgz -C /tmp res; }
s=$EPOCHREALTIME; .devrun/g5/bin/streamcfd check-kernels > $R/check-first.txt 2>&1; e=$EPOCHREALTIME
echo "check-kernels $s $e" >> $R/runs.txt
big() {  # name, env...
  local name=$1; shift
  /usr/bin/env "$@" $TM .devrun/g5/bin/streamcfd run cases/cavity-box/case.toml --set 'mesh.divisions=[111,111,111]' --set time.steps=2 \
    --set solver.backend=gl-compute --set 'output.fields=[]' --set output.directory=\"/tmp/o-$name\" > $R/$name.log 2>&1
  echo "$name rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o-$name/*summary.json $R/$name.json; rm -rf /tmp/o-$name; save
}
TM=""; [ -x /usr/bin/time ] && TM="/usr/bin/time -f %MKB_maxrss"
T="GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=68719476736"
big setup-1 A=1
big setup-2 A=1
big setup-t3 $T
big setup-4 A=1
big setup-t5 $T
one() {  # name case extra-sets...
  local name=$1 c=$2; shift 2
  .devrun/g5/bin/streamcfd run $c --set solver.backend=gl-compute --set 'output.fields=[]' \
    --set output.directory=\"/tmp/o-$name\" "$@" > $R/$name.log 2> $R/$name.err
  echo "$name rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o-$name/*summary.json $R/$name.json 2>/dev/null; rm -rf /tmp/o-$name; save
}
cav() { local name=$1 mesh=$2 end=$3; shift 3; one $name cases/cavity3d/case.toml --set mesh.file=\"/tmp/cav3d-$mesh.msh\" --set time.cfl=0.5 --set time.end=$end "$@"; }
X="--set physics.model=ns-exact --set solver.stream_solver=\"gmres\""
for k in a b c; do
  cav x289-$k 289k 1.0 $X
  cav c289-$k 289k 1.0
  cav x49-$k 49k 1.0 $X
  cav c49-$k 49k 1.0
done
save
tail -3 $R/runs.txt
