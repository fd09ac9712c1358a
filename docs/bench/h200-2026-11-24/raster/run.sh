#!/bin/bash
# gl-raster beside gl-compute on one GPU: the bench's kernel table and PCG on the generated
# 4.1M-tet cube (fp64 and fp32), cavity3d steps, the kernel builds and the twin tests; then the
# cpu backend on the node's 16 cores. Run from a folder beside the bundle of
# scripts/bundle_gpu_tests.sh; results under $OUT/raster. docs/bench/README.md "gl-raster".
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/../.bundle/lib
S=../.bundle/libexec/streamcfd
R=$OUT/raster; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt 2>&1
timeout 120 ../.bundle/bin/gpu-tests --gtest_brief=1 2>&1 | grep -v "GL debug" > $R/gpu-tests.log; echo "gpu-tests exit $?" >> $R/gpu-tests.log
$S check-kernels --backend gl-raster > $R/check_kernels_raster.txt 2>&1
for b in gl-raster gl-compute; do
  for p in fp64 fp32; do
    timeout 150 $S bench --backend $b --storage texture --precision $p --json $R/bench_${b}_${p}.json > $R/bench_${b}_${p}.log 2>&1
  done
done
run() { local name=$1; shift
  $S run ../cases/cavity3d/case.toml --set output.interval=0 --set output.directory=/tmp/o_$name "$@" > $R/$name.log 2>&1; echo "exit $?" >> $R/$name.log
  cp /tmp/o_$name/ns-classical_summary.json $R/$name.json 2>/dev/null; }
run warm --set time.end=0.05 --set solver.backend=gl-raster
for i in 1 2; do
  run c5k_raster_$i --set time.end=1 --set solver.backend=gl-raster
  run c5k_compute_tex_$i --set time.end=1 --set solver.backend=gl-compute --set solver.storage=texture
done
# The cpu backend on all 16 cores of the same node, the same mesh (run as a second device call).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
timeout 300 mpirun -np 16 $S bench --backend cpu --json $R/bench_cpu_np16_fp64.json > $R/bench_cpu_np16_fp64.log 2>&1
cd $OUT && tar czf raster.tgz raster && rm -rf raster
