import h5py, numpy as np, sys
from scipy.spatial import cKDTree
f = h5py.File(sys.argv[1])
P = f['particles/trajectory/position/value'][:]
I = f['particles/trajectory/image/value'][:]
V = f['particles/trajectory/velocity/value'][:]
L = f['particles/trajectory/box/edges/value'][0].diagonal()
U = P + I * L
nf, N, _ = P.shape
rc, T, dt = 2.5, 60, 0.005
def first_miss(t0, listed, pairs):
    cand = ~listed
    ii, jj = pairs[cand, 0], pairs[cand, 1]
    d0 = U[t0, jj] - U[t0, ii]
    d0 -= L * np.round(d0 / L)
    for t in range(t0 + 1, min(nf, t0 + T + 1)):
        d = d0 + (U[t, jj] - U[t0, jj]) - (U[t, ii] - U[t0, ii])
        if ((d * d).sum(1) < rc * rc).any():
            return t - t0
    return T + 1
res = {}
for t0 in range(0, nf - 40, 10):
    tree = cKDTree(np.mod(P[t0], L), boxsize=L)
    pairs = tree.query_pairs(4.5, output_type='ndarray')
    d = P[t0, pairs[:, 1]] - P[t0, pairs[:, 0]]
    d -= L * np.round(d / L)
    r0 = np.sqrt((d * d).sum(1))
    te = min(nf, t0 + T + 1)
    D = np.sqrt(((U[t0:te] - U[t0]) ** 2).sum(2)).max(0)
    keep = r0 - D[pairs[:, 0]] - D[pairs[:, 1]] < rc + 0.6
    pairs, r0, d = pairs[keep], r0[keep], d[keep]
    vr = V[t0, pairs[:, 1]] - V[t0, pairs[:, 0]]
    for h in (0, 5, 10, 20, 40):
        tau = h * dt
        # closest approach within [0, tau] along straight lines
        a = (vr * vr).sum(1); b = (d * vr).sum(1)
        tm = np.clip(-b / np.maximum(a, 1e-12), 0, tau)
        dm = d + vr * tm[:, None]
        rmin = np.sqrt((dm * dm).sum(1))
        for s in (0.3, 0.35, 0.4, 0.45, 0.5):
            listed = rmin < rc + s
            res.setdefault((h, s), []).append((first_miss(t0, listed, pairs), listed.sum() * 2.0 / N))
for k in sorted(res):
    a = np.array(res[k])
    print('horizon %2d steps skin %.2f: first missing pair after %5.1f steps (min %2d), list %.1f' % (k[0], k[1], a[:, 0].mean(), a[:, 0].min(), a[:, 1].mean()))
