#!/bin/bash
# The device run of docs/bench/README.md "BiCGStab scalars on the device", its coarse-level part:
# cavity3d (three repeats) and ns-exact, the 49k-tet cavity of ../amg/ (case file and mesh as
# described in ../amg/run.sh), gl-compute fp64. Results under $OUT/c4.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/../.bundle/lib
S=../.bundle/libexec/streamcfd
R=$OUT/c4; mkdir -p $R
for f in *.xz; do xz -d -T4 $f; done
timeout 200 ../.bundle/bin/gpu-tests --gtest_brief=1 > $R/gpu-tests.log 2>&1; echo "gpu-tests exit $?" >> $R/gpu-tests.log
run() { local name=$1 case=$2 model=$3; shift 3
  $S run $case --set solver.backend=gl-compute --set output.interval=0 --set physics.model=$model --set output.directory=/tmp/o_$name "$@" > $R/$name.log 2>&1; echo "exit $?" >> $R/$name.log
  cp /tmp/o_$name/${model}_summary.json $R/$name.json 2>/dev/null; }
run warm ../cases/cavity3d/case.toml ns-classical --set time.end=0.05
run warm2 ../cases/cavity3d/case.toml ns-exact --set time.end=0.05
for i in 1 2 3; do
run c5k_classical_$i ../cases/cavity3d/case.toml ns-classical --set time.end=2
done
run c5k_exact_1 ../cases/cavity3d/case.toml ns-exact --set time.end=2
run c49k cav049.toml ns-classical --set time.steps=100
cd $OUT && tar czf c4.tgz c4 && rm -rf c4
