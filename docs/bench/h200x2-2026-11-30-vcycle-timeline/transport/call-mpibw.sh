#!/usr/bin/env bash
# 2 x H200 host: Open MPI's bidirectional exchange between two ranks in host memory, by transport
# and binding (the halo messages measured ~2 GB/s inside streamcfd).
set -u
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p $R
lscpu > $R/lscpu.txt 2>&1; nvidia-smi topo -m > $R/topo.txt 2>&1; ompi_info > $R/ompi_info.txt 2>&1
M="mpirun --allow-run-as-root"
x() { local name=$1; shift; echo "== $name: $*" >> $R/bw.txt; timeout 60 $M "$@" -np 2 .devrun/mpibw >> $R/bw.txt 2>&1; echo "rc $?" >> $R/bw.txt; }
x cma-none --bind-to none --mca btl_vader_single_copy_mechanism cma
x cma-core --bind-to core --mca btl_vader_single_copy_mechanism cma
x cma-numa --bind-to core --map-by numa --mca btl_vader_single_copy_mechanism cma
x default --bind-to none
x nosc --bind-to none --mca btl_vader_single_copy_mechanism none
x ucx --bind-to none --mca pml ucx
x ucx-core --bind-to core --mca pml ucx
x cma-none2 --bind-to none --mca btl_vader_single_copy_mechanism cma
cat $R/bw.txt; grep -iE "numa|model name|^cpu\(s\)" $R/lscpu.txt; cat $R/topo.txt; grep -iE "ucx|vader|knem|xpmem" $R/ompi_info.txt | head
cd $OUT && tar czf r.tgz r && rm -rf r
