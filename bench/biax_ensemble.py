#!/usr/bin/env python3
"""Ensembles of examples/biaxial-memory runs (biax_<name>.dat, q/p every 50 steps): window means
of q/p over axial strain, the early peak, and each group against a reference group.

  biax_ensemble.py REF=GLOB [LABEL=GLOB ...]       groups of runs (the first is the reference)
  biax_ensemble.py --pairs A=GLOB B=GLOB           runs paired by folder (independent packings):
                                                   B - A per folder against the spread of A
Used for issue 54's noise measurements (bench/HISTORY.md)."""
import glob, os, sys
import numpy as np

WINDOWS = ((0.003, 0.010), (0.010, 0.015), (0.015, 0.0201))    # axial strain
NAMES = ['0.3-1.0', '1.0-1.5', '1.5-2.0', 'post 0.3-2', 'peak', 'peak strain %']


def load(pattern):
    runs = {}
    for f in sorted(glob.glob(pattern)):
        d = np.loadtxt(f, comments='#')
        if d.ndim == 2 and d[-1, 0] >= 10000:    # finished runs only
            runs[f] = d
    return runs


def figures(d):
    step, ez, qp = d[:, 0], d[:, 1], d[:, 7]
    post = step >= 1500
    w = [qp[post & (ez >= a) & (ez < b)].mean() for a, b in WINDOWS]
    early = np.where(ez <= 0.003, qp, -np.inf)
    k = int(np.argmax(early))
    return w + [qp[post].mean(), qp[k], 100 * ez[k]]


def describe(v):
    sd = v.std(ddof=1) if len(v) > 1 else 0.0
    return f"{v.mean():.4f}, sd {sd:.4f} [{v.min():.4f}, {v.max():.4f}]"


def welch(a, b):
    va = a.var(ddof=1) / len(a) if len(a) > 1 else 0.0
    vb = b.var(ddof=1) / len(b) if len(b) > 1 else 0.0
    return (b.mean() - a.mean()) / np.sqrt(va + vb) if va + vb > 1e-20 else float("nan")


def groups(args):
    ref = None
    for arg in args:
        label, pattern = arg.split('=', 1)
        M = np.array([figures(d) for d in load(pattern).values()])
        if len(M) == 0:
            print(f"{label}: no finished runs")
            continue
        print(f"{label}: {len(M)} runs")
        for i, nm in enumerate(NAMES):
            line = f"  {nm}: {describe(M[:, i])}"
            if ref is not None and i < 5:
                a, b = ref[:, i], M[:, i]
                inside = np.mean((b >= a.min()) & (b <= a.max()))
                sd = a.std(ddof=1) if len(a) > 1 else 0.0
                line += (f"; - ref {b.mean() - a.mean():+.4f} (ref sd {sd:.4f}, Welch t "
                         f"{welch(a, b):.1f}, inside ref range {inside:.2f})")
            print(line)
        if ref is None:
            ref = M


def pairs(a_arg, b_arg):
    (la, pa), (lb, pb) = a_arg.split('=', 1), b_arg.split('=', 1)
    A = {os.path.dirname(f): figures(d) for f, d in load(pa).items()}
    B = {os.path.dirname(f): figures(d) for f, d in load(pb).items()}
    common = sorted(set(A) & set(B))
    MA = np.array([A[k] for k in common])
    MB = np.array([B[k] for k in common])
    print(f"{len(common)} folders with both {la} and {lb}")
    for k, a, b in zip(common, MA, MB):
        print(f"  {k}: {la} " + ' '.join(f"{x:.4f}" for x in a[:5]) +
              f" | {lb} - {la} " + ' '.join(f"{y - x:+.4f}" for x, y in zip(a[:5], b[:5])))
    for i, nm in enumerate(NAMES[:5]):
        d = MB[:, i] - MA[:, i]
        t = d.mean() / (d.std(ddof=1) / np.sqrt(len(d))) if len(d) > 1 else float('inf')
        print(f"  {nm}: {la} across folders {describe(MA[:, i])}; {lb} - {la}: {describe(d)}, "
              f"paired t {t:.1f}")


if __name__ == '__main__':
    if len(sys.argv) > 1 and sys.argv[1] == '--pairs' and len(sys.argv) == 4:
        pairs(sys.argv[2], sys.argv[3])
    elif len(sys.argv) > 1 and '=' in sys.argv[1]:
        groups(sys.argv[1:])
    else:
        sys.exit(__doc__)
