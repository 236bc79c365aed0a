import h5py, numpy as np
from scipy.spatial import cKDTree
f = h5py.File('eq.h5','r')
p = f['particles/trajectory/position/value'][-1]
L = np.diag(f['particles/trajectory/box/edges/value'][-1])
p = np.mod(p, L); n = len(p); rl = 2.9
nc = np.floor(L/rl).astype(int); a = L/nc
def key_of(p, fine):
    c = np.minimum((p/a).astype(int), nc-1)
    sub = np.minimum((p/(a/2)).astype(int) - 2*c, 1)
    k = ((c[:,2]*nc[1]+c[:,1])*nc[0]+c[:,0])*8 + sub[:,2]*4+sub[:,1]*2+sub[:,0]
    if fine:  # morton within octant at 4 more levels
        q = np.minimum((p/(a/32)).astype(int) - 32*c, 31) % 16
        m = np.zeros(n, dtype=np.int64)
        for b in range(4):
            for d in (2,1,0):
                m = m*2 + ((q[:,d] >> (3-b)) & 1)
        return k*65536 + m
    return k.astype(np.float64) + np.random.default_rng(1).random(n)*0.5
t = cKDTree(p, boxsize=L)
nbr = t.query_ball_point(p, rl)
def measure(order, name, perm_nn=False):
    rank = np.empty(n, int); rank[order] = np.arange(n)
    lists = []
    for s in range(n):
        i = order[s]
        js = np.array([rank[j] for j in nbr[i] if j != i])
        lists.append(np.sort(js))   # list sorted by new index (cell order)
    nn = np.array([len(x) for x in lists])
    slots_order = np.arange(n)
    if perm_nn:
        slots_order = np.concatenate([b[np.argsort(nn[b], kind='stable')] for b in np.arange(n//128*128).reshape(-1,128)])
    tot_lines = 0; tot_inst = 0
    for w in range(0, len(slots_order)//32*32, 32):
        idx = slots_order[w:w+32]
        m = nn[idx].max()
        for k in range(m):
            js = [lists[s][k] if k < nn[s] else s for s in idx]
            tot_lines += len(set(j//16 for j in js)); tot_inst += 1
    print(f"{name}: lines per warp gather {tot_lines/tot_inst:.2f}, gathers {tot_inst}")
measure(np.argsort(key_of(p, False), kind='stable'), "cell+octant, random within")
measure(np.argsort(key_of(p, False), kind='stable'), "same, ordered by nn in 128", perm_nn=True)
measure(np.argsort(key_of(p, True), kind='stable'), "cell+octant+morton")
