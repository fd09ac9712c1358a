#!/usr/bin/env bash
# 2 x H200: today's main (h1) at np 1 and np 2 on cavity-box 111^3, 10 steps (the set-up with the
# projection mass beside the stars on every rank; MPI_THREAD_FUNNELED), per-step lines kept.
set -u
cd "$(dirname "$0")/.."
b=h1; [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1)
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt
M="mpirun --allow-run-as-root --bind-to none --mca btl_vader_single_copy_mechanism cma"
i=0
for n in 1 2 2; do
  i=$((i+1))
  timeout 200 $M -np $n .devrun/$b/bin/streamcfd run cases/cavity-box/case.toml --set 'mesh.divisions=[111,111,111]' --set time.steps=10 \
    --set solver.backend=gl-compute --set 'output.fields=[]' --set output.directory=\"/tmp/o$i\" > $R/np$n-$i.log 2>&1
  echo "np$n-$i rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o$i/*summary.json $R/np$n-$i.json 2>/dev/null; rm -rf /tmp/o$i
done
python3 - "$R" <<'PY' > $R/table.txt
import json,sys,glob,os,re
for f in sorted(glob.glob(sys.argv[1]+'/np*.json')):
    d=json.load(open(f)); s=d['seconds']; y=d['synchronisations']
    log=open(f[:-5]+'.log').read()
    ms=[]
    for m in re.finditer(r'step\s+(\d+)/\d+.*?\s([\d.]+) (ms|s)/step',log):
        if int(m.group(1))>=3: ms.append(float(m.group(2))*(1000 if m.group(3)=='s' else 1))
    print(os.path.basename(f), 'mesh %.2f setup %.2f (ranks %.2f-%.2f)' % (s['mesh'], s['setup'], s['setup_ranks']['min'], s['setup_ranks']['max']),
          'steps3-10 %.1f ms' % (sum(ms)/max(1,len(ms))), 'rounds %.0f sums %.0f gathers %.0f other %.0f waits %.0f' % (y['halo_rounds']['mean'], y['reductions']['mean'], y['coarse_gathers']['mean'], y['other_collectives']['mean'], y['gpu_waits']['mean']),
          d['figures']['kinetic_energy'], d['solver']['solves'])
PY
cat $R/table.txt $R/runs.txt
grep -h "^set-up" $R/*.log
