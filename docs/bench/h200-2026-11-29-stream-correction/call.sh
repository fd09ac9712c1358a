#!/usr/bin/env bash
# One H200: ns-exact's stream guess corrected by the kept solutions while the flow starts (r2, the
# default) against the extrapolation alone (the same build, solver.stream_projection = 0: main's
# guess) and ns-classical, interleaved; each step's progress line kept.
set -u
cd "$(dirname "$0")/.."
b=r2; [ -d .devrun/$b ] || (mkdir -p .devrun/$b && tar xJf .devrun/$b.tar.xz -C .devrun/$b --strip-components=1)
for m in 49k 289k; do [ -f /tmp/cav3d-$m.msh ] || xz -dc .devrun/meshes/cav3d-$m.msh.xz > /tmp/cav3d-$m.msh; done
[ -f /tmp/cyl2d-4.msh ] || xz -dc .devrun/meshes/cyl2d-4.msh.xz > /tmp/cyl2d-4.msh
sed -e 's/^end = 8$/steps = 300/' cases/cylinder2d/case.toml > cases/cylinder2d/steps300.toml
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt
one() {  # name case extra-sets...
  local name=$1 c=$2; shift 2
  .devrun/$b/bin/streamcfd run $c --set solver.backend=gl-compute --set 'output.fields=[]' \
    --set output.directory=\"/tmp/o-$name\" "$@" > $R/$name.log 2> $R/$name.err
  echo "$name rc $? at ${SECONDS}s" >> $R/runs.txt
  cp /tmp/o-$name/*summary.json $R/$name.json 2>/dev/null; rm -rf /tmp/o-$name
}
cav() { local name=$1 mesh=$2; shift 2; one $name cases/cavity3d/case.toml --set mesh.file=\"/tmp/cav3d-$mesh.msh\" --set time.cfl=0.5 --set time.end=1.0 "$@"; }
dfg() { local name=$1; shift 1; one $name cases/cylinder2d/steps300.toml --set mesh.file=\"/tmp/cyl2d-4.msh\" "$@"; }
X="--set physics.model=ns-exact"
cav warm 49k $X --set time.end=0.05
for k in a b c; do
  cav x-289-$k 289k $X
  cav x0-289-$k 289k $X --set solver.stream_projection=0
  cav c-289-$k 289k
done
for k in a b; do
  cav x-49-$k 49k $X
  cav x0-49-$k 49k $X --set solver.stream_projection=0
  cav c-49-$k 49k
  dfg x-L4-$k $X
  dfg x0-L4-$k $X --set solver.stream_projection=0
  dfg c-L4-$k
done
one x-cyl3d cases/cylinder3d/case.toml $X --set time.end=0.2
one x0-cyl3d cases/cylinder3d/case.toml $X --set time.end=0.2 --set solver.stream_projection=0
one x-cav2d cases/cavity2d/case.toml $X --set time.end=2
one x0-cav2d cases/cavity2d/case.toml $X --set time.end=2 --set solver.stream_projection=0
python3 - $R <<'PY' > $R/table.txt
import re,sys,glob,os,json
R=sys.argv[1]
def steps(f):
    out=[]
    for l in open(f):
        m=re.match(r'step\s+(\d+)/\d+\s+t = (\S+)\s+it\s+(\d+).*?\s([\d.]+) (ms|s|µs)/step',l)
        if m:
            v=float(m.group(4)); u=m.group(5); ms=v*1000 if u=='s' else (v/1000 if u=='µs' else v)
            out.append((int(m.group(1)),float(m.group(2)),int(m.group(3)),ms))
    return out
def mean(x): return sum(x)/len(x) if x else float('nan')
for f in sorted(glob.glob(R+'/*.log')):
    n=os.path.basename(f)[:-4]
    if n=='warm': continue
    s=steps(f)
    w=[r for r in s if 5<=r[0]<=40]; t1=[r for r in s if r[1]<=0.1+1e-9]
    d=json.load(open(R+'/'+n+'.json')) if os.path.exists(R+'/'+n+'.json') else {}
    ke=d.get('figures',{}).get('kinetic_energy'); cd=d.get('figures',{}).get('drag_coefficient')
    sol=d.get('seconds',{}).get('solve',0); smp=d.get('seconds',{}).get('sampling',0)
    print(f"{n:12s} steps {len(s):4d} | 5-40: {mean([r[3] for r in w]):7.2f} ms {mean([r[2] for r in w]):6.2f} it | t<=0.1: {mean([r[3] for r in t1]):7.2f} ms | all: {mean([r[3] for r in s]):7.2f} ms {mean([r[2] for r in s]):6.2f} it | (solve+sampling)/steps {1000*(sol+smp)/max(1,len(s)):7.2f} | ke {ke} cd {cd}")
PY
cat $R/table.txt; tail -2 $R/runs.txt
cd $OUT && tar czf r.tgz r && rm -rf r
