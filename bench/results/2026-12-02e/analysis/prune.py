"""Dynamic pruning, offline (CPU trajectory, no GPU): an outer list of skin
s_out built at step t0 at the predicted build positions (as rb_ref: x + v 8 dt
+ a (12 dt)^2 / 2, capped at 0.95 s_out/2), and an inner list of skin s_in cut
from it (the outer pairs within rc + s_in at the prune step's own predicted
positions, cap 0.95 s_in/2), re-cut whenever a pair within rc is missing from
the inner list (as the refined check would find), the outer rebuilt when a
pair within rc is missing from the outer list. s_in = s_out: one list, as now.

  python3 prune.py run.h5 > prune.txt
"""
import sys
import h5py
import numpy as np
from scipy.spatial import cKDTree

f = h5py.File(sys.argv[1])
P = f['particles/trajectory/position/value'][:]
I = f['particles/trajectory/image/value'][:]
V = f['particles/trajectory/velocity/value'][:]
F = f['particles/trajectory/force/value'][:]
L = f['particles/trajectory/box/edges/value'][0].diagonal()
U = P + I * L
nf, N, _ = P.shape
rc, dt, T = 2.5, 0.005, 120


def predicted(t, skin):
    d = V[t] * 8 * dt + 0.5 * F[t] * (12 * dt) ** 2
    dn = np.sqrt((d ** 2).sum(1))[:, None]
    return U[t] + d * np.minimum(1.0, 0.95 * skin / 2 / np.maximum(dn, 1e-12))


def first_miss(t0, te, C, i, j, sh, listed):
    """First offset m >= 1 (t0 + m < te) at which a pair (i, j, sh) not
    listed is within rc; te - t0 if none. Pairs that cannot get within rc
    (their distance at C minus the two largest displacements from C) are
    dropped first."""
    D = np.sqrt(((U[t0:te] - C) ** 2).sum(2)).max(0)
    dc = C[j] - C[i] - sh
    r = np.sqrt((dc * dc).sum(1))
    k = (~listed) & (r - D[i] - D[j] < rc)
    ii, jj, ss = i[k], j[k], sh[k]
    for t in range(t0 + 1, te):
        dd = U[t, jj] - U[t, ii] - ss
        if ((dd * dd).sum(1) < rc * rc).any():
            return t - t0
    return te - t0


def run(s_out, s_in, starts):
    out_life, prunes, inner_len, outer_len, in_life = [], [], [], [], []
    for t0 in starts:
        te = min(nf, t0 + T)
        C = predicted(t0, s_out)
        tree = cKDTree(np.mod(C, L), boxsize=L)
        pr = tree.query_pairs(rc + s_out + 1.2, output_type='ndarray')
        i, j = pr[:, 0], pr[:, 1]
        dc = C[j] - C[i]
        sh = L * np.round(dc / L)
        r = np.sqrt(((dc - sh) ** 2).sum(1))
        listed = r < rc + s_out
        m_out = first_miss(t0, te, C, i, j, sh, listed)
        out_life.append(m_out)
        outer_len.append(2.0 * listed.sum() / N)
        oi, oj, osh = i[listed], j[listed], sh[listed]
        tp, n = t0, 0
        while tp < t0 + m_out:
            Cp = predicted(tp, s_in)
            d = Cp[oj] - Cp[oi] - osh
            inl = np.sqrt((d * d).sum(1)) < rc + s_in
            m_in = first_miss(tp, t0 + m_out, Cp, oi, oj, osh, inl)
            inner_len.append((m_in, 2.0 * inl.sum() / N))
            in_life.append(m_in)
            n += 1
            tp += m_in
        prunes.append(n - 1)   # the cut at t0 comes with the build
    il = np.array(inner_len)
    return (np.mean(out_life), np.min(out_life), np.mean(prunes),
            (il[:, 0] * il[:, 1]).sum() / il[:, 0].sum(), np.mean(outer_len),
            np.mean(in_life))


starts = list(range(0, nf - T, 20))
print('N', N, 'frames', nf, 'builds at', starts, 'horizon', T)
print('s_out s_in | outer life (min) | cuts a build | inner list (step-weighted) | outer list | inner life')
for s_out, s_in in [(0.3, 0.3), (0.35, 0.35), (0.4, 0.4),
                    (0.5, 0.2), (0.5, 0.25), (0.5, 0.3),
                    (0.6, 0.2), (0.6, 0.25), (0.6, 0.3),
                    (0.7, 0.2), (0.7, 0.25), (0.7, 0.3),
                    (0.8, 0.25), (0.8, 0.3)]:
    a = run(s_out, s_in, starts)
    print('%.2f %.2f | %6.1f (%3d) | %5.2f | %6.1f | %6.1f | %5.1f' % ((s_out, s_in) + a))
    sys.stdout.flush()
