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
s = float(sys.argv[2]); cap = float(sys.argv[3])
res = {}
variants = [(8, 0), (12, 16), (12, 20), (14, 18), (14, 22), (16, 20), (16, 24), (20, 24), (12, 24), (16, 16), (20, 20)]
for t0 in range(0, nf - T, 10):
    te = min(nf, t0 + T + 1)
    for (tau, ta) in variants:
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
            over = np.nonzero((delta[1:] > cap).any(1))[0]
            capt = over[0] + 1 if len(over) else T + 1
            m = min(miss, te - t0 - 1)
            # suspect-steps: sum over steps before the miss of the fraction > s/2
            sus = (delta[1:m + 1] > s / 2).mean(1)
            res.setdefault((tau, ta), []).append((miss, capt, listed.sum() * 2.0 / N, sus.sum(), (sus > 0).sum()))
print('skin', s, 'cap', cap)
for k in sorted(res):
    a = np.array(res[k])
    print('tau %2d tacc %2d: missing pair after %5.1f (min %2d), cap after %5.1f (min %2d); list %.1f; suspect-steps %.3f, steps with suspects %.1f'
          % (k[0], k[1], a[:, 0].mean(), a[:, 0].min(), a[:, 1].mean(), a[:, 1].min(), a[:, 2].mean(), a[:, 3].mean(), a[:, 4].mean()))
