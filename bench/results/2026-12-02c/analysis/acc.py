import h5py, numpy as np, sys
from scipy.spatial import cKDTree
f = h5py.File(sys.argv[1])
P = f['particles/trajectory/position/value'][:]
I = f['particles/trajectory/image/value'][:]
V = f['particles/trajectory/velocity/value'][:]
F = f['particles/trajectory/force/value'][:]
L = f['particles/trajectory/box/edges/value'][0].diagonal()
U = P + I * L
nf, N, _ = P.shape
rc, T, dt = 2.5, 60, 0.005
res = {}
print('F rms per component', np.sqrt((F**2).mean()), 'v rms', np.sqrt((V**2).mean()))
variants = [(8, 0), (8, 8), (8, 12), (8, 16), (10, 10), (10, 14), (12, 12), (12, 16), (6, 10)]
for t0 in range(0, nf - T, 10):
    te = min(nf, t0 + T + 1)
    for (tau, ta) in variants:
        for s in (0.35,):
            d = V[t0] * tau * dt + 0.5 * F[t0] * (ta * dt) ** 2
            dn = np.sqrt((d ** 2).sum(1))[:, None]
            lim = 0.95 * s / 2
            d = d * np.minimum(1.0, lim / np.maximum(dn, 1e-12))
            C = U[t0] + d
            tree = cKDTree(np.mod(C, L), boxsize=L)
            pairs = tree.query_pairs(4.0, output_type='ndarray')
            i, j = pairs[:, 0], pairs[:, 1]
            dc = C[j] - C[i]; sh = L * np.round(dc / L); dc -= sh
            rcc = np.sqrt((dc * dc).sum(1))
            delta = np.sqrt(((U[t0:te] - C) ** 2).sum(2))
            D = delta.max(0)
            keep = rcc - D[i] - D[j] < rc
            i, j, rcc, sh = i[keep], j[keep], rcc[keep], sh[keep]
            listed = rcc < rc + s
            ii, jj, shh = i[~listed], j[~listed], sh[~listed]
            miss = T + 1
            for t in range(t0, te):
                dd = U[t, jj] - U[t, ii] - shh
                if ((dd * dd).sum(1) < rc * rc).any():
                    miss = t - t0
                    break
            res.setdefault((tau, ta, s), []).append((miss, listed.sum() * 2.0 / N))
for k in sorted(res):
    a = np.array(res[k])
    print('tau %2d tacc %2d s %.2f: missing pair after %5.1f steps (%s); list %.1f'
          % (k[0], k[1], k[2], a[:, 0].mean(), ' '.join(str(int(x)) for x in a[:, 0]), a[:, 1].mean()))
