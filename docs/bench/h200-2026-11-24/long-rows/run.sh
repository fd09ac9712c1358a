#!/bin/bash
# The device runs of docs/bench/README.md "Where the step goes; long matrix rows split". Run from
# a folder beside the bundle (.bundle, scripts/bundle_gpu_tests.sh) holding cav1m.toml and
# cav1m.msh.xz (`gmsh meshes/cavity3d.geo -setnumber h 0.015 -3 -format msh41 -bin`, 1,342,701
# tets). The "before" figures are the same commands on the build before the split (ab3d93b).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/../.bundle/lib OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
S=../.bundle/libexec/streamcfd
R=$OUT/long-rows; mkdir -p $R
[ -f cav1m.msh ] || xz -d -T8 cav1m.msh.xz
timeout 200 ../.bundle/bin/gpu-tests --gtest_brief=1 > $R/gpu-tests.log 2>&1; echo "gpu-tests exit $?" >> $R/gpu-tests.log
run() { local name=$1 case=$2; shift 2
  $S run $case --set output.interval=0 --set output.directory=/tmp/o_$name "$@" > $R/$name.log 2>&1; echo "exit $?" >> $R/$name.log
  cp /tmp/o_$name/ns-classical_summary.json $R/$name.json 2>/dev/null; }
run warm ../cases/cavity3d/case.toml --set time.end=0.05 --set solver.backend=gl-compute
for i in 1 2 3; do run c5k_amg_$i ../cases/cavity3d/case.toml --set time.end=2 --set solver.backend=gl-compute; done
for pc in amg jacobi; do
  run c1m_$pc cav1m.toml --set solver.backend=gl-compute --set time.steps=20 --set solver.preconditioner=$pc
done
timeout 200 $S bench cav1m.msh --backend gl-compute --only amg --json $R/bench_amg_1m.json > $R/bench_amg_1m.log 2>&1
timeout 200 $S bench cav1m.msh --backend gl-compute --only kernels --json $R/bench_kernels_1m.json > $R/bench_kernels_1m.log 2>&1
for pc in amg jacobi; do
  timeout 150 mpirun -np 16 $S run cav1m.toml --set solver.backend=cpu --set time.steps=5 --set solver.preconditioner=$pc --set output.interval=0 --set output.directory=/tmp/o_c$pc > $R/c1m_cpu_np16_$pc.log 2>&1
  cp /tmp/o_c$pc/ns-classical_summary.json $R/c1m_cpu_np16_$pc.json
done
cd $OUT && tar czf long-rows.tgz long-rows && rm -rf long-rows
