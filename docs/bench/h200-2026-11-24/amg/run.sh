#!/bin/bash
# The device run of docs/bench/README.md "AMG pressure solve": ns-classical on gl-compute, fp64,
# buffer fields, Jacobi vs AMG pressure PCG, plus the GPU twin tests. Run from a folder beside
# the bundle (.bundle, scripts/bundle_gpu_tests.sh) holding these case files and the meshes,
# xz-compressed: cav049.msh / cav289.msh = scripts/peer/icofoam_cavity3d.sh's cavity3d.msh for
# h 0.046 / 0.025 (msh22), cav1m.msh = `gmsh meshes/cavity3d.geo -setnumber h 0.015 -3 -format
# msh41 -bin` (1,342,701 tets). Results under $OUT/amg.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/../.bundle/lib
S=../.bundle/libexec/streamcfd
[ -x $S ] || S=../.bundle/bin/streamcfd
R=$OUT/amg; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt 2>&1
for f in *.xz; do xz -d -T4 $f; done
timeout 200 ../.bundle/bin/gpu-tests --gtest_brief=1 > $R/gpu-tests.log 2>&1; echo "gpu-tests exit $?" >> $R/gpu-tests.log
run() {  # name case sets...
  local name=$1 case=$2; shift 2
  $S run $case --set solver.backend=gl-compute --set output.interval=0 --set output.directory=/tmp/o_$name "$@" > $R/$name.log 2>&1
  echo "exit $?" >> $R/$name.log
  cp /tmp/o_$name/ns-classical_summary.json $R/$name.json 2>/dev/null
}
run warm ../cases/cavity3d/case.toml --set time.end=0.05 --set solver.preconditioner=amg
run warm2 ../cases/cavity3d/case.toml --set time.end=0.05
for pc in jacobi amg; do
  run c5k_$pc ../cases/cavity3d/case.toml --set time.end=2 --set solver.preconditioner=$pc
  run c5k_${pc}_fp32 ../cases/cavity3d/case.toml --set time.end=2 --set solver.preconditioner=$pc --set solver.precision=fp32 --set solver.pressure_tolerance=1e-5
done
for pc in jacobi amg; do for tol in 1e-9 1e-6; do
  run c49k_${pc}_$tol cav049.toml --set time.steps=100 --set solver.preconditioner=$pc --set solver.pressure_tolerance=$tol
  run c289k_${pc}_$tol cav289.toml --set time.steps=100 --set solver.preconditioner=$pc --set solver.pressure_tolerance=$tol
done; done
for pc in amg jacobi; do
  run c1m_$pc cav1m.toml --set time.steps=20 --set solver.preconditioner=$pc
done
cd $OUT && tar czf amg.tgz amg && rm -rf amg
