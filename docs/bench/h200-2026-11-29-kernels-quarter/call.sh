#!/usr/bin/env bash
# One H200: streamcfd bench --only kernels at one 4-GPU rank's share of the 111^3 cube (2.05M
# cells) and at the whole cube (8.2M): the kernels' rates and the dependent-dispatch floor.
set -u
cd "$(dirname "$0")/.."
b=g2; [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1)
R=$OUT/r; mkdir -p $R
for c in 2051446 8205786; do
  timeout 200 .devrun/$b/bin/streamcfd bench --cells $c --backend gl-compute --only kernels --json $R/k$c.json > $R/k$c.log 2>&1
  echo "k$c rc $? at ${SECONDS}s" >> $R/runs.txt
done
cat $R/runs.txt; grep -E "dependent|copy ceiling|axpy|dot|sparse|laplac" $R/k*.log | head -30
cd $OUT && tar czf r.tgz r && rm -rf r
