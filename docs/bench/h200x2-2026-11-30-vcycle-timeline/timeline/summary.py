# python3 summary.py TRACE...: per V-cycle of a trace (30 cycles) written by trial.patch's
# SCFD_TRACE: dispatches, the GPU's span and busy time (E - D of each dispatch), its idle gaps at
# the synchronisations (a GPU or MPI wait between two dispatches) and elsewhere, and the host's
# time between consecutive events (W/w GPU wait, M/m MPI wait, F/f fence, B halo begin, S sends
# posted, U unpack queued, D/E a dispatch queued with a GL timestamp before and after it).
import gzip
import sys
def load(p):
    ev=[]
    for line in (gzip.open(p, 'rt') if p.endswith('.gz') else open(p)):
        if line.startswith('#'): continue
        ns,w,g=line.split(); ev.append((int(ns),w,int(g)))
    return ev
for p in sys.argv[1:]:
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
