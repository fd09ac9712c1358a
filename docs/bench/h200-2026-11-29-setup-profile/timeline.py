"""Bins `perf script -F tid,time,ip,sym` output (gzipped) per 0.1 s: the main thread (the busiest in the first
2 s) against the others, and the main thread's three commonest symbols. python3 timeline.py script.txt.gz"""
import gzip,re,sys,collections
rows=[]
for line in gzip.open(sys.argv[1],'rt'):
    m=re.match(r'\s*(\d+)\s+([\d.]+):\s+\S+\s+(.*)$',line)
    if m: rows.append((int(m.group(1)),float(m.group(2)),m.group(3).strip()))
t0=min(r[1] for r in rows)
cnt=collections.Counter(r[0] for r in rows if r[1]-t0<2)
main=cnt.most_common(1)[0][0]
bins=collections.defaultdict(lambda:[0,0,collections.Counter()])
for tid,t,sym in rows:
    b=int((t-t0)*10)
    if tid==main:
        bins[b][0]+=1; bins[b][2][re.sub(r'\(.*','',sym)[:60]]+=1
    else: bins[b][1]+=1
for b in sorted(bins):
    m,o,c=bins[b]
    s='S' if m>=45 and o<30 else ' '
    print(f"{b/10:5.1f} {s} m{m:2d} o{o:4d} "+' | '.join(f"{k}:{v}" for k,v in c.most_common(3)))
