# python3 positions.py TRACE: each dispatch of the V-cycle in order, the events on the host
# before it, its median GPU time (E - D) and the GPU's median idle time before it.
import gzip
import sys
def load(p):
    ev=[]
    for line in (gzip.open(p, 'rt') if p.endswith('.gz') else open(p)):
        if line.startswith('#'): continue
        ns,w,g=line.split(); ev.append((int(ns),w,int(g)))
    return ev
p=sys.argv[1]; ev=load(p)
ds=[]; between=''
for i,(ns,w,g) in enumerate(ev):
    if w=='D': cur=[ns,g,None,between]; between=''
    elif w=='E': cur[2]=g; ds.append(cur)
    else: between+=w
n=len(ds)//30
for k in range(n):
    durs=sorted(ds[c*n+k][2]-ds[c*n+k][1] for c in range(30))
    gaps=sorted(ds[c*n+k][1]-ds[c*n+k-1][2] for c in range(1,30))
    print('%2d %-10s dur %7.1f us   gap before %6.1f'%(k, ds[n+k][3], durs[15]/1e3, gaps[14]/1e3))
