import h5py, numpy as np, sys
from scipy.spatial import cKDTree
f = h5py.File(sys.argv[1])
P = f['particles/trajectory/position/value'][:]
I = f['particles/trajectory/image/value'][:]
V = f['particles/trajectory/velocity/value'][:]
L = f['particles/trajectory/box/edges/value'][0].diagonal()
U = P + I * L
nf, N, _ = P.shape
rc, T, dt, cap = 2.5, 60, 0.005, 0.44
res = {}
for t0 in range(0, nf - 40, 10):
    te = min(nf, t0 + T + 1)
    for tau in (0, 5, 8, 10, 15, 20, 30):
        sp = np.sqrt((V[t0] ** 2).sum(1))[:, None]
        for s in (0.35, 0.4, 0.45):
            C = U[t0] + V[t0] * np.minimum(tau * dt, 0.95 * (s / 2) / np.maximum(sp, 1e-9))
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
                d = U[t, jj] - U[t, ii] - shh
                if ((d * d).sum(1) < rc * rc).any():
                    miss = t - t0
                    break
            # first step a particle passes the cap (forced rebuild), and
            # suspects (> s/2) at the miss
            over = np.nonzero((delta[1:] > cap).any(1))[0]
            capt = over[0] + 1 if len(over) else T + 1
            nlist = 0
            res.setdefault((tau, s), []).append((miss, capt, listed.sum() * 2.0 / N,
                                                  (delta[min(miss, te - t0 - 1)] > s / 2).mean()))
for k in sorted(res):
    a = np.array(res[k])
    print('tau %2d s %.2f: missing pair after %5.1f steps (min %2d), cap passed after %5.1f, suspects then %.4f; list %.1f'
          % (k[0], k[1], a[:, 0].mean(), a[:, 0].min(), a[:, 1].mean(), a[:, 3].mean(), a[:, 2].mean()))
