#!/usr/bin/env bash
# One H200, a fresh node: the 8.2M set-up with the kernels started at backend creation (g6),
# cold then warm, against g5 (main 59adffd) warm; glibc malloc tunables again; the GL twin tests of g6.
set -u
cd "$(dirname "$0")/.."
for b in g5 g6; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=/tmp/res; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt
ls -d ~/.cache/nvidia/GLCache > $R/cache-before.txt 2>&1
save() { tar czf $OUT/res.tgz -C /tmp res; }
big() {  # name build env...
  local name=$1 b=$2; shift 2
  /usr/bin/env "$@" .devrun/$b/bin/streamcfd run cases/cavity-box/case.toml --set 'mesh.divisions=[111,111,111]' --set time.steps=2 \
    --set solver.backend=gl-compute --set 'output.fields=[]' --set output.directory=\"/tmp/o-$name\" > $R/$name.log 2>&1
  echo "$name rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o-$name/*summary.json $R/$name.json; rm -rf /tmp/o-$name; save
}
T="GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=68719476736"
big g6-cold g6 A=1
big g6-warm1 g6 A=1
big g5-warm1 g5 A=1
big g6-warm2 g6 A=1
big g5-warm2 g5 A=1
big g6-t1 g6 $T
big g6-warm3 g6 A=1
big g6-t2 g6 $T
SCFD_GL_DEVICE=0 timeout 240 .devrun/g6/bin/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu-tests rc $? at ${SECONDS}s" >> $R/runs.txt
save
tail -4 $R/runs.txt
