# python3 timeline.py WHAT TRACE...: reads the traces trial.patch writes (SCFD_TRACE; 30 V-cycles
# per file: one line per event, the host's clock in ns, the event, the GPU's clock in ns or -1).
# Events: W/w a GPU wait begins/ends, M/m an MPI wait, F/f a fence, B a halo exchange begins, S its
# sends are posted, U its unpack is queued, D/E a dispatch queued, with a GL timestamp before/after.
#   summary    per V-cycle: dispatches, the GPU's span and busy time (E - D of each dispatch), its
#              idle gaps at the synchronisations (a GPU or MPI wait between two dispatches) and
#              elsewhere, and the host's time between consecutive events
#   positions  each dispatch of the cycle in order: the host's events before it, its median GPU
#              time and the GPU's median idle time before it (first file only)
#   waits      the median, least and most time of each GPU wait (W) and MPI wait (M), in order
import gzip
import sys


def load(p):
    ev = []
    for line in (gzip.open(p, 'rt') if p.endswith('.gz') else open(p)):
        if line.startswith('#'):
            continue
        ns, w, g = line.split()
        ev.append((int(ns), w, int(g)))
    return ev


def summary(paths):
    for p in paths:
        ev=load(p)
        t0=ev[0][0]
        ds=[]  # (host_D, gpu_D, gpu_E, index in ev)
        for i,(ns,w,g) in enumerate(ev):
            if w=='D': cur=[ns,g,None,i]
            if w=='E': cur[2]=g; ds.append(cur)
        lag=[d[1]-d[0] for d in ds]
        print(p, 'dispatches', len(ds), 'per V-cycle', len(ds)/30, 'span ms', (ev[-1][0]-t0)/1e6, 'per V', (ev[-1][0]-t0)/30e3,'us')
        print(' gpu-host lag at D (us): min %.1f median %.1f max %.1f'%(min(lag)/1e3, sorted(lag)[len(lag)//2]/1e3, max(lag)/1e3))
        busy=sum(d[2]-d[1] for d in ds); span=ds[-1][2]-ds[0][1]
        print(' GPU span %.1f us/V, busy (E-D) %.1f us/V'%(span/30e3, busy/30e3))
        # gaps between consecutive dispatches on the GPU
        sync_gap=0; host_gap=0; nsync=0; parts={}
        for a,b in zip(ds,ds[1:]):
            gap=b[1]-a[2]
            kinds=''.join(e[1] for e in ev[a[3]+1:b[3]] if e[1] not in 'DE')
            if 'M' in kinds or 'W' in kinds:
                sync_gap+=gap; nsync+=1
                parts.setdefault(kinds,[0,0]); parts[kinds][0]+=1; parts[kinds][1]+=gap
            else: host_gap+=gap
        print(' GPU gaps at syncs %.1f us/V (%.1f syncs/V), other gaps %.1f us/V'%(sync_gap/30e3, nsync/30, host_gap/30e3))
        for k,(n,g) in sorted(parts.items(), key=lambda x:-x[1][1]): print('   %-20s n/V %.2f mean gap %.1f us'%(k,n/30,g/n/1e3))
        # host time spent: between events
        acc={}
        for (a,wa,_),(b,wb,_) in zip(ev,ev[1:]):
            acc.setdefault(wa+wb,[0,0]); acc[wa+wb][0]+=1; acc[wa+wb][1]+=b-a
        print(' host intervals (from->to: n/V, mean us, total us/V):')
        for k,(n,g) in sorted(acc.items(), key=lambda x:-x[1][1])[:14]: print('   %s n/V %.2f mean %.2f total %.1f'%(k,n/30,g/n/1e3,g/30e3))


def positions(paths):
    p = paths[0]
    ev=load(p)
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


def waits(paths):
    for p in paths:
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


{'summary': summary, 'positions': positions, 'waits': waits}[sys.argv[1]](sys.argv[2:])
