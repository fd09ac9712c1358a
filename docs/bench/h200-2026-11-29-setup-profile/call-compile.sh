#!/usr/bin/env bash
# One H200: how long the driver takes to compile every kernel build (check-kernels), cold, then
# again in the same allocation; where its shader cache lives (g5).
set -u
cd "$(dirname "$0")/.."
for b in g5; do [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1); done
R=/tmp/res; mkdir -p $R
save() { tar czf $OUT/res.tgz -C /tmp res; }
env | grep -i "cache\|home\|__GL" > $R/env.txt
for k in first second; do
  s=$EPOCHREALTIME; .devrun/g5/bin/streamcfd check-kernels > $R/check-$k.txt 2>&1; e=$EPOCHREALTIME
  echo "$k $s $e" >> $R/runs.txt
done
s=$EPOCHREALTIME; __GL_SHADER_DISK_CACHE=0 .devrun/g5/bin/streamcfd check-kernels > $R/check-nocache.txt 2>&1; e=$EPOCHREALTIME
echo "nocache $s $e" >> $R/runs.txt
find / -xdev \( -iname "*glcache*" -o -iname "*nvidia*cache*" \) 2>/dev/null | head -20 > $R/cache-dirs.txt
save
cat $R/runs.txt; tail -1 $R/check-first.txt
