import h5py, numpy as np
from scipy.spatial import cKDTree
f = h5py.File('eq.h5','r')
p = f['particles/trajectory/position/value'][-1]
L = np.diag(f['particles/trajectory/box/edges/value'][-1])
p = np.mod(p, L); n = len(p); rl = 2.9
nc = np.floor(L/rl).astype(int); a = L/nc
c = np.minimum((p/a).astype(int), nc-1)
sub = np.minimum((p/(a/2)).astype(int) - 2*c, 1)
k = ((c[:,2]*nc[1]+c[:,1])*nc[0]+c[:,0])*8 + sub[:,2]*4+sub[:,1]*2+sub[:,0]
order = np.argsort(k + np.random.default_rng(1).random(n)*0.5, kind='stable')
rank = np.empty(n, int); rank[order] = np.arange(n)
cs = c[order]; rowkey = cs[:,2]*nc[1] + cs[:,1]   # row of a sorted particle
t = cKDTree(p, boxsize=L)
nbr = t.query_ball_point(p, rl)
lists = [np.sort(np.array([rank[j] for j in nbr[order[s]] if j != order[s]])) for s in range(n)]
nn = np.array([len(x) for x in lists])
res = {}
def lines(js): return len(set(j//16 for j in js))
A_sl = A_ln = B_sl = B_ln = A_ln_own = 0
for w in range(0, n//32*32, 32):
    idx = range(w, w+32)
    m = nn[w:w+32].max()
    for kk in range(m):
        live = [lists[s][kk] for s in idx if kk < nn[s]]
        dead = [s for s in idx if kk >= nn[s]]
        A_sl += 1; A_ln += lines(live); A_ln_own += lines(live + dead)
    # padded per row
    rows = {}
    for s in idx:
        for j in lists[s]:
            rows.setdefault(rowkey[j], {}).setdefault(s, []).append(j)
    for r in sorted(rows, key=lambda r: min(min(v) for v in rows[r].values())):
        per = rows[r]; mm = max(len(v) for v in per.values())
        for kk in range(mm):
            live = [v[kk] for v in per.values() if kk < len(v)]
            B_sl += 1; B_ln += lines(live)
print(f"current: slots {A_sl}, line touches {A_ln} (dead at own: {A_ln_own}), per slot {A_ln/A_sl:.2f}")
print(f"row-padded: slots {B_sl} ({B_sl/A_sl:.3f}x), line touches {B_ln} ({B_ln/A_ln:.3f}x), per slot {B_ln/B_sl:.2f}")
