#!/bin/bash
# After "the pressure solve starts from the last step's answer": the 1.3M-tet cavity (AMG and
# Jacobi) and cavity3d on the H200, as in long-rows/run.sh.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/../.bundle/lib
S=../.bundle/libexec/streamcfd
R=$OUT/guess; mkdir -p $R
[ -f cav1m.msh ] || xz -d -T8 cav1m.msh.xz
timeout 150 ../.bundle/bin/gpu-tests --gtest_brief=1 2>&1 | grep -E "tests from .* ran|PASSED|FAILED" > $R/gpu-tests.log; echo "gpu-tests exit $?" >> $R/gpu-tests.log
run() { local name=$1 case=$2; shift 2
  $S run $case --set output.interval=0 --set output.directory=/tmp/o_$name "$@" > $R/$name.log 2>&1; echo "exit $?" >> $R/$name.log
  cp /tmp/o_$name/ns-classical_summary.json $R/$name.json 2>/dev/null; }
run warm ../cases/cavity3d/case.toml --set time.end=0.05 --set solver.backend=gl-compute
for i in 1 2 3; do run c5k_amg_$i ../cases/cavity3d/case.toml --set time.end=2 --set solver.backend=gl-compute; done
for pc in amg jacobi; do
  run c1m_$pc cav1m.toml --set solver.backend=gl-compute --set time.steps=20 --set solver.preconditioner=$pc
done
cd $OUT && tar czf guess.tgz guess && rm -rf guess
