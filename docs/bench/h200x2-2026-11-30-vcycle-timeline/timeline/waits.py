# python3 waits.py TRACE...: the median, least and most time of each GPU wait (W) and MPI wait
# (M) of the V-cycle, in order.
import gzip
import sys
def load(p):
    ev=[]
    for line in (gzip.open(p, 'rt') if p.endswith('.gz') else open(p)):
        if line.startswith('#'): continue
        ns,w,g=line.split(); ev.append((int(ns),w,int(g)))
    return ev
for p in sys.argv[1:]:
    ev=load(p); print(p)
    # per V-cycle: index sync events by order within cycle
    # find cycles by dispatch count
    nd=sum(1 for e in ev if e[1]=='D')//30
    k=0; cyc=[]; cur=[]
    for e in ev:
        cur.append(e)
        if e[1]=='E':
            k+=1
            if k%nd==0: cyc.append(cur); cur=[]
    # for each cycle, list of (label, duration) of intervals M->m, W->w, and gpu gap
    rows={}
    for c in cyc[1:]:
        j=0; lastE=None
        for i,e in enumerate(c):
            if e[1]=='E': lastEg=e[2]; lastEh=e[0]
            if e[1] in 'WM':
                end={'W':'w','M':'m'}[e[1]]
                for f in c[i+1:]:
                    if f[1]==end: break
                rows.setdefault((j,e[1]),[]).append((f[0]-e[0])/1e3); j+=1
    for (j,w),v in sorted(rows.items()):
        v.sort(); print('  %2d %s median %.1f us  min %.1f max %.1f'%(j,w,v[len(v)//2],v[0],v[-1]))
