#!/usr/bin/env python3
"""Summary of shadow.dat files written by a plugin built with bench/prune_shadow.patch: each
contact of an examples/biaxial-memory run carries a second history, stepped along the same path
(overlap, shift, frame) with prune = $DEMC_SHADOW_PRUNE; every 50 steps the sums of the force
differences dT = T(pruned) - T(run's own history) over the contacts (rate 20/s: 2e-6 strain a
step). Used for issue 54 (bench/HISTORY.md).

  prune_shadow.py shadow.dat ...
"""
import sys
import numpy as np

WINDOWS = ((0.0, 0.003), (0.003, 0.010), (0.010, 0.015), (0.015, 0.0201))
for f in sys.argv[1:]:
    S = np.loadtxt(f, comments='#')
    S = S[S[:, 0] >= 50]
    ez = 2e-6 * S[:, 0]
    print(f"{f}: {S[:, 1].sum():.0f} contact samples; beyond the spent bound + 1e-6 mu P: "
          f"{S[:, 16].sum():.0f} (beyond twice it: {S[:, 21].sum():.0f}), by at most "
          f"{S[:, 15].max():.2e} mu P, largest |dT| of those {S[:, 22].max():.2e} mu P; "
          f"largest |dT| {S[:, 4].max():.2e} mu P (P now)")
    for a, b in WINDOWS:
        m = (ez >= a) & (ez < b)
        w = S[m]
        print(f"  {100 * a:.1f}-{100 * b:.1f} %: d(q/p) {np.mean(w[:, 7] / w[:, 10]):+.2e}, "
              f"mean dT.t/muP {w[:, 2].mean():+.2e}, sum dT.t / sum muP {w[:, 14].mean():+.2e}, "
              f"mean |dT|/muP {w[:, 3].mean():.2e}, mean spent/muP {w[:, 6].mean():.2e}, "
              f"mean length {w[:, 11].mean():.1f} (pruned {w[:, 12].mean():.1f})")
