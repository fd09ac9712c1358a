#!/usr/bin/env bash
# 2 x H200, trial bundle h (g + SCFD_SEND_COPY / SCFD_RECV_COPY: send from / receive into the
# plan's own host arrays instead of the GL-mapped buffers): is the ~3 GB/s of the halo messages
# the transport, or reading / writing GL-mapped memory? Then bench --only halo.
set -u
cd "$(dirname "$0")/.."
for b in h; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=$OUT/r; mkdir -p $R
M="mpirun --allow-run-as-root --bind-to none --mca btl_vader_single_copy_mechanism cma"
B=".devrun/h/bin/streamcfd bench --backend gl-compute --cells 8205786"
t() { # name mpirun-env-args...
  local name=$1; shift
  timeout 90 $M -x SCFD_TRACE=$R/$name "$@" -np 2 $B --only amg > $R/$name.log 2>&1
  echo "$name rc $? at ${SECONDS}s" >> $R/runs.txt
}
t base
t send -x SCFD_SEND_COPY=1
t recv -x SCFD_RECV_COPY=1
t both -x SCFD_SEND_COPY=1 -x SCFD_RECV_COPY=1
timeout 200 $M -np 2 $B --only halo --json $R/halo.json > $R/halo.log 2>&1; echo "halo rc $? at ${SECONDS}s" >> $R/runs.txt
cat $R/runs.txt; grep V-cycle $R/*.log; grep -E "^(halo|pack|unpack|messages) " $R/halo.log
cd $OUT && tar czf r.tgz r && rm -rf r
