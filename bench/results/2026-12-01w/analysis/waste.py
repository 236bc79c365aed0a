import h5py, numpy as np
from scipy.spatial import cKDTree
f = h5py.File('eq.h5','r')
p = f['particles/trajectory/position/value'][-1]
L = np.diag(f['particles/trajectory/box/edges/value'][-1])
L = np.atleast_1d(L); L = L if L.size==3 else np.repeat(L,3)
p = np.mod(p, L)
n = len(p)
for rl in (2.8, 2.85, 2.9, 2.95):
    t = cKDTree(p, boxsize=L)
    nn = np.array([len(x)-1 for x in t.query_ball_point(p, rl)])
    nc = np.floor(L/rl).astype(int); a = L/nc
    c = np.minimum((p/a).astype(int), nc-1)
    sub = np.minimum((p/(a/2)).astype(int) - 2*c, 1)
    key = ((c[:,2]*nc[1]+c[:,1])*nc[0]+c[:,0])*8 + sub[:,2]*4+sub[:,1]*2+sub[:,0]
    rng = np.random.default_rng(1)
    order = np.lexsort((rng.random(n), key))
    m = nn[order]
    w = len(m)//32*32
    m = m[:w].reshape(-1,32)
    for B in (8,4):
        slots = (np.ceil(m.max(1)/B)*B*32).sum()
        print(f"rl {rl} B {B}: mean nn {m.mean():.1f} std {m.std():.2f}  slots/useful {slots/m.sum():.3f}", end='')
        # sorted by nn within blocks of 128
        m2 = np.sort(m.reshape(-1,128),axis=1).reshape(-1,32)
        s2 = (np.ceil(m2.max(1)/B)*B*32).sum()
        # max-only (no rounding)
        print(f"  sorted-128: {s2/m.sum():.3f}  no-rounding: {(m.max(1)*32).sum()/m.sum():.3f}")
print("group sizes at rl 2.9, B 8")
rl=2.9
t = cKDTree(p, boxsize=L)
nn = np.array([len(x)-1 for x in t.query_ball_point(p, rl)])
nc = np.floor(L/rl).astype(int); a = L/nc
c = np.minimum((p/a).astype(int), nc-1)
sub = np.minimum((p/(a/2)).astype(int) - 2*c, 1)
key = ((c[:,2]*nc[1]+c[:,1])*nc[0]+c[:,0])*8 + sub[:,2]*4+sub[:,1]*2+sub[:,0]
order = np.lexsort((np.random.default_rng(1).random(n), key))
m = nn[order][:31744]
for G in (32,64,128,256,512,1024):
    m2 = np.sort(m.reshape(-1,G),axis=1).reshape(-1,32)
    print(G, (np.ceil(m2.max(1)/8)*8*32).sum()/m.sum())
