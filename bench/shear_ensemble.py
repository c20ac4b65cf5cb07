#!/usr/bin/env python3
"""Ensembles of examples/direct-shear runs (shear_<model>.dat of in.shear): tau/sigma_n in windows
of shear displacement, the peak and the residual as the example's analyze.py takes them, and each
group against a reference group (the first).

  shear_ensemble.py REF=GLOB [LABEL=GLOB ...]      GLOB matches shear_*.dat files
  shear_ensemble.py --pairs A=GLOB B=GLOB          runs paired by the jitter and seed in their
                                                   path (..._j<J>_s<seed>/; one packing per
                                                   call): B - A per pair, and where the two
                                                   curves part

Per run: the peak after analyze.py's 0.5 mm running mean (and where it lies), the means of the raw
tau/sigma_n over 0.5-1, 1-2, 2-3, 3-4 mm, and analyze.py's residual (mean over the last 30 % of
the displacement: 7-10 mm of a 10 mm run). If the run's log.shear (same folder) has a line
"HISTSTATS ... mean M longest N" (gran/jaeger's history fix at the end), those too.
Prints, per group, mean and sd of each figure; for the later groups, the difference of means
from the reference, Welch's t and the share of runs inside the reference's range, then a
markdown table of the same. Used for issue 54's noise measurements (bench/HISTORY.md)."""
import glob
import os
import re
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "examples", "direct-shear"))
sys.path.insert(0, HERE)
from analyze import analyse, load           # noqa: E402  the example's own conventions
from biax_ensemble import welch             # noqa: E402

WINDOWS_MM = ((0.5, 1.0), (1.0, 2.0), (2.0, 3.0), (3.0, 4.0))
NAMES = ["peak", "peak at mm", "0.5-1 mm", "1-2 mm", "2-3 mm", "3-4 mm", "residual 7-10 mm",
         "mean points", "longest"]
COMPARED = [0, 2, 3, 4, 5, 6]                # figures compared with the reference
SMAX_MM = 10.0


def history_stats(dat):
    log = os.path.join(os.path.dirname(dat), "log.shear")
    text = open(log).read() if os.path.exists(log) else ""
    m = re.search(r"^HISTSTATS .* mean ([0-9.eE+-]+) longest ([0-9.eE+-]+)", text, re.M)
    return (float(m.group(1)), float(m.group(2))) if m else (np.nan, np.nan)


def figures(path):
    d = load(path)
    if d["s"][-1] * 1e3 < SMAX_MM - 0.1:     # finished runs only (s: means over 0.05 mm)
        return None
    a = analyse(d)
    s_mm, r = d["s"] * 1e3, d["ratio"]
    w = [r[(s_mm >= lo) & (s_mm < hi)].mean() for lo, hi in WINDOWS_MM]
    return [a["peak"], a["s_peak_mm"]] + w + [a["residual"]] + list(history_stats(path))


def parting_mm(path_a, path_b, gap=0.005):
    """first shear displacement (mm) where the two runs' tau/sigma_n differ by more than gap"""
    a, b = load(path_a), load(path_b)
    n = min(len(a["s"]), len(b["s"]))
    far = np.nonzero(np.abs(a["ratio"][:n] - b["ratio"][:n]) > gap)[0]
    return a["s"][far[0]] * 1e3 if len(far) else np.nan


def pairs(a_arg, b_arg):
    (la, pa), (lb, pb) = a_arg.split("=", 1), b_arg.split("=", 1)

    def by_key(pattern):
        keyed = {}
        for p in sorted(glob.glob(pattern)):
            m = re.search(r"_j([^_/]+)_s([0-9]+)", p)
            f = figures(p)
            if m and f is not None:
                keyed[m.group(0)] = (p, f)
        return keyed
    A, B = by_key(pa), by_key(pb)
    common = sorted(set(A) & set(B))
    if not common:
        sys.exit("no pairs")
    D = np.array([np.array(B[k][1]) - np.array(A[k][1]) for k in common])
    part = np.array([parting_mm(A[k][0], B[k][0]) for k in common])
    print(f"{len(common)} pairs of {la} and {lb}")
    for k, d, s_part in zip(common, D, part):
        print(f"  {k}: {lb} - {la} " + " ".join(f"{d[i]:+.4f}" for i in COMPARED) +
              f"; curves part (> 0.005) at {s_part:.2f} mm")
    for i in COMPARED:
        d = D[:, i]
        t = d.mean() / (sd(d) / np.sqrt(len(d))) if len(d) > 1 and sd(d) > 0 else float("nan")
        print(f"  {NAMES[i]}: {lb} - {la} {d.mean():+.5f}, sd {sd(d):.5f} "
              f"[{d.min():+.5f}, {d.max():+.5f}], paired t {t:.1f}")


def sd(v):
    return v.std(ddof=1) if len(v) > 1 else 0.0


def group(pattern):
    rows = [f for f in (figures(p) for p in sorted(glob.glob(pattern))) if f is not None]
    return np.array(rows)


def main(args):
    groups = []
    for arg in args:
        label, pattern = arg.split("=", 1)
        M = group(pattern)
        if len(M) == 0:
            print(f"{label}: no finished runs")
            continue
        groups.append((label, M))
    if not groups:
        sys.exit("no finished runs")
    ref_label, ref = groups[0]
    for label, M in groups:
        print(f"{label}: {len(M)} runs")
        for i, nm in enumerate(NAMES):
            v = M[:, i]
            line = f"  {nm}: {v.mean():.5f}, sd {sd(v):.5f} [{v.min():.5f}, {v.max():.5f}]"
            if M is not ref and i in COMPARED:
                a = ref[:, i]
                inside = np.mean((v >= a.min()) & (v <= a.max()))
                line += (f"; - {ref_label} {v.mean() - a.mean():+.5f} (Welch t {welch(a, v):.1f},"
                         f" inside its range {inside:.2f})")
            print(line)
    print()
    print("| window | " + " | ".join(f"{lb} ({len(M)} runs)" for lb, M in groups) +
          " | " + " | ".join(f"{lb} - {ref_label}, t" for lb, _ in groups[1:]) + " |")
    print("|---" * (1 + 2 * len(groups) - 1) + "|")
    for i in COMPARED:
        cells = [f"{M[:, i].mean():.4f} ± {sd(M[:, i]):.4f}" for _, M in groups]
        cells += [f"{M[:, i].mean() - ref[:, i].mean():+.4f}, t = {welch(ref[:, i], M[:, i]):.1f}"
                  for _, M in groups[1:]]
        print(f"| {NAMES[i]} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--pairs":
        pairs(sys.argv[2], sys.argv[3])
    elif len(sys.argv) > 1 and all("=" in a for a in sys.argv[1:]):
        main(sys.argv[1:])
    else:
        sys.exit(__doc__)
