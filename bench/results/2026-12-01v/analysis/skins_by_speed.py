import h5py, numpy as np, sys
from scipy.spatial import cKDTree
f = h5py.File(sys.argv[1] if len(sys.argv) > 1 else '/tmp/adapt/run.h5')
P = f['particles/trajectory/position/value'][:]
I = f['particles/trajectory/image/value'][:]
V = f['particles/trajectory/velocity/value'][:]
L = f['particles/trajectory/box/edges/value'][0].diagonal()
U = P + I * L            # unwrapped
nf, N, _ = P.shape
rc = 2.5
T = 60
def first_miss(t0, s, pairs, r0):
    i, j = pairs[:, 0], pairs[:, 1]
    listed = r0 < rc + s[i] + s[j]
    cand = ~listed
    ii, jj = i[cand], j[cand]
    d0 = U[t0, jj] - U[t0, ii]
    d0 -= L * np.round(d0 / L)       # the pair's image at t0
    for t in range(t0 + 1, min(nf, t0 + T + 1)):
        d = d0 + (U[t, jj] - U[t0, jj]) - (U[t, ii] - U[t0, ii])
        r = np.sqrt((d * d).sum(1))
        if (r < rc).any():
            return t - t0, listed.sum() * 2.0 / N
    return T + 1, listed.sum() * 2.0 / N
t0s = list(range(0, nf - 40, 10))
res = {}
for t0 in t0s:
    tree = cKDTree(np.mod(P[t0], L), boxsize=L)
    pairs = tree.query_pairs(4.5, output_type='ndarray')
    d = P[t0, pairs[:, 1]] - P[t0, pairs[:, 0]]
    d -= L * np.round(d / L)
    r0 = np.sqrt((d * d).sum(1))
    te = min(nf, t0 + T + 1)
    D = np.sqrt(((U[t0:te] - U[t0]) ** 2).sum(2)).max(0)   # largest displacement in the window
    keep = r0 - D[pairs[:, 0]] - D[pairs[:, 1]] < rc            # pairs that can come within rc
    pairs, r0 = pairs[keep], r0[keep]
    sp = np.sqrt((V[t0] ** 2).sum(1))
    schemes = {'uniform 0.20': np.full(N, 0.20), 'uniform 0.25': np.full(N, 0.25), 'uniform 0.30': np.full(N, 0.30)}
    for smax in (0.25, 0.3, 0.4, 0.6):
        for smin in (0.05, 0.1, 0.15):
            # c so that the mean of clip(c v) is 0.2
            lo, hi = 0.0, 2.0
            for _ in range(50):
                c = 0.5 * (lo + hi)
                m = np.clip(c * sp, smin, smax).mean()
                lo, hi = (c, hi) if m < 0.2 else (lo, c)
            schemes['v-prop max %.2f min %.2f' % (smax, smin)] = np.clip(c * sp, smin, smax)
    for k, s in schemes.items():
        res.setdefault(k, []).append(first_miss(t0, s, pairs, r0))
for k, v in res.items():
    a = np.array(v)
    print('%-30s first missing pair after %5.1f steps (min %2d)  list %.1f per particle' % (k, a[:, 0].mean(), a[:, 0].min(), a[:, 1].mean()))
