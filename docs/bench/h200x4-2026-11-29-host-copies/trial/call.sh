#!/usr/bin/env bash
# 4 x H200: halo receives straight into the staging memory (bundle x1) against the copy
# (SCFD_NO_DIRECT), and the index lists trusted without a compare (SCFD_TRUST): cavity-box 111^3
# ns-classical at 4 GPUs, two rounds interleaved.
set -u
cd "$(dirname "$0")/.."
for b in x1; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=$OUT/r; mkdir -p $R
M="mpirun --allow-run-as-root --bind-to none --mca btl_vader_single_copy_mechanism cma"
for round in 1 2; do
for v in copy direct trust; do
  case $v in
    copy) E="-x SCFD_NO_DIRECT=1" ;;
    direct) E="" ;;
    trust) E="-x SCFD_TRUST=1" ;;
  esac
  [ $SECONDS -gt 500 ] && break
  timeout 100 $M $E -np 4 \
    .devrun/x1/bin/streamcfd run cases/cavity-box/case.toml --set 'mesh.divisions=[111,111,111]' --set time.steps=10 \
    --set solver.backend=gl-compute --set 'output.fields=[]' --set output.directory=\"/tmp/o$v\" > $R/n4-$v-$round.log 2>&1
  echo "n4-$v-$round rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o$v/*summary.json $R/n4-$v-$round.json 2>/dev/null; rm -rf /tmp/o$v
done; done
cat $R/runs.txt
for f in $R/n4-*.log; do echo "$f $(grep -E '^step' $f | awk '{for(i=1;i<=NF;i++) if($i=="ms/step") v=$(i-1); split($2,a,"/"); if (a[1]>=3) {s+=v; c++}} END{print s/c}')"; done
cd $OUT && tar czf r.tgz r && rm -rf r
