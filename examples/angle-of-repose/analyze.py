#!/usr/bin/env python3
"""Angle of repose of the piles of examples/angle-of-repose (see README.md).

usage: analyze.py DIR CASE... [--seeds "1 2"]
CASE is LAW_ROLL (e.g. kuhn_none, granular_rolling); DIR holds pile_CASE_SEED.dump (written by
in.pile) and times.txt (run.sh). Writes DIR/results.json and DIR/results.md.

The free surface h(x) of a ridge (periodic along y) is the top z + r of the highest grain in
cells 1 d long in x and 2 d wide in y, averaged over the cells of each x column. Each flank's
angle is atan(|slope|) of a least-squares line through h(x) where the flank is between 25 %
and 75 % of the pile's height above the floor: the rounded top and the toe are left out. The
left and right flanks of each pile and the seeds are repeats of the same experiment; their
scatter is the noise: a case's angle is the mean of its flanks, its standard error the larger
of the flanks' standard deviation over the square root of their number and the piles' (each the
mean of its two flanks), in case the two flanks of one pile are not independent.
"""
import argparse
import json
import math
import os

import numpy as np

D = 0.002               # nominal diameter (in.pile's d)
WINDOW = (0.25, 0.75)   # fitted part of each flank, as fractions of the pile's height
MOVING = 0.01           # m/s: a grain faster than this at the end has not come to rest
                        # (0.07 sqrt(g d); stray grains may still roll on the bare floor)


def read_dump(path):
    """The step, radii and positions (in units of D) and velocities of in.pile's dump."""
    with open(path) as f:
        lines = f.readlines()
    step = int(lines[lines.index("ITEM: TIMESTEP\n") + 1])
    start = next(i for i, l in enumerate(lines) if l.startswith("ITEM: ATOMS")) + 1
    a = np.array([l.split() for l in lines[start:]], dtype=float)
    return step, a[:, 1] / D, a[:, 2] / D, a[:, 3] / D, a[:, 4] / D, a[:, 5:8]


def surface(r, x, y, z, cell_x=1.0, cell_y=2.0, width=6.0, length=100.0):
    """Column centres and the mean over y of each cell's highest grain top (0: bare floor)."""
    nx, ny = int(length / cell_x), int(round(width / cell_y))
    top = np.zeros((nx, ny))
    ix = np.clip(((x + length / 2) / cell_x).astype(int), 0, nx - 1)
    iy = np.clip((np.mod(y, width) / cell_y).astype(int), 0, ny - 1)
    np.maximum.at(top, (ix, iy), z + r)
    centres = -length / 2 + cell_x * (np.arange(nx) + 0.5)
    return centres, top.mean(axis=1)


def flank_angle(xs, h, side, height):
    """Angle (degrees) and the fitted points of one flank: from the peak outwards, the columns
    whose height is within WINDOW of the pile's height, up to the first that falls below it."""
    peak = int(np.argmax(h))
    order = range(peak, -1, -1) if side == "left" else range(peak, len(h))
    lo, hi = WINDOW[0] * height, WINDOW[1] * height
    pts = []
    for i in order:
        if h[i] < lo:
            break
        if h[i] <= hi:
            pts.append(i)
    if len(pts) < 4:
        return float("nan"), len(pts)
    slope = np.polyfit(xs[pts], h[pts], 1)[0]
    return math.degrees(math.atan(abs(slope))), len(pts)


def pile(path, profiles):
    step, r, x, y, z, v = read_dump(path)
    xs, h = surface(r, x, y, z)
    profiles.append((xs, h))
    height = float(h.max())
    left, nl = flank_angle(xs, h, "left", height)
    right, nr = flank_angle(xs, h, "right", height)
    return {"grains": len(r), "steps": step, "height_d": height, "left_deg": left, "right_deg": right,
            "columns_fitted": [nl, nr], "mean_deg": 0.5 * (left + right),
            "moving_grains": int((np.sqrt((v ** 2).sum(axis=1)) > MOVING).sum())}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("cases", nargs="+")
    ap.add_argument("--seeds", default="1 2")
    args = ap.parse_args()
    seeds = args.seeds.split()
    times = {}
    tpath = os.path.join(args.dir, "times.txt")
    if os.path.exists(tpath):
        for line in open(tpath):
            case, seed, cpu = line.split()
            times[(case, seed)] = float(cpu)
    res = {"cases": {}}
    profiles = {}
    for case in args.cases:
        profiles[case] = []
        runs = {s: pile(os.path.join(args.dir, f"pile_{case}_{s}.dump"), profiles[case])
                for s in seeds}
        flanks = [v for s in seeds for v in (runs[s]["left_deg"], runs[s]["right_deg"])]
        std = float(np.std(flanks, ddof=1)) if len(flanks) > 1 else float("nan")
        piles = [r["mean_deg"] for r in runs.values()]
        pile_std = float(np.std(piles, ddof=1)) if len(piles) > 1 else 0.0
        res["cases"][case] = {
            "angle_deg": float(np.mean(flanks)), "flank_std_deg": std, "pile_std_deg": pile_std,
            "stderr_deg": max(std / math.sqrt(len(flanks)), pile_std / math.sqrt(len(piles))),
            "cpu_s": [times.get((case, s)) for s in seeds],
            "fewest_grains": min(r["grains"] for r in runs.values()),
            "most_moving_grains": max(r["moving_grains"] for r in runs.values()),
            "most_steps": max(r["steps"] for r in runs.values()),
            "runs": runs}
    c = res["cases"]

    def diff(a, b):
        if a in c and b in c:
            return {"deg": c[a]["angle_deg"] - c[b]["angle_deg"],
                    "stderr_deg": math.hypot(c[a]["stderr_deg"], c[b]["stderr_deg"])}
        return None
    res["differences"] = {k: v for k, v in {
        "kuhn_rolling_minus_none": diff("kuhn_rolling", "kuhn_none"),
        "granular_rolling_minus_none": diff("granular_rolling", "granular_none"),
        "kuhn_minus_granular_none": diff("kuhn_none", "granular_none"),
        "kuhn_minus_granular_rolling": diff("kuhn_rolling", "granular_rolling"),
        "kuhn_minus_granular_twisting": diff("kuhn_twisting", "granular_twisting"),
    }.items() if v is not None}
    with open(os.path.join(args.dir, "results.json"), "w") as f:
        json.dump(res, f, indent=1)
    rows = ["| case | angle (°) | ± (std error) | flanks' std (°) | piles' std (°) "
            "| flanks, seed by seed (°) | height (d) | CPU per run (s) |",
            "|---|---|---|---|---|---|---|---|"]
    for case, v in c.items():
        fl = "; ".join(f"{r['left_deg']:.1f} {r['right_deg']:.1f}" for r in v["runs"].values())
        hts = ", ".join(f"{r['height_d']:.1f}" for r in v["runs"].values())
        cpu = ", ".join("-" if t is None else f"{t:.0f}" for t in v["cpu_s"])
        rows.append(f"| {case} | {v['angle_deg']:.1f} | {v['stderr_deg']:.1f} | "
                    f"{v['flank_std_deg']:.1f} | {v['pile_std_deg']:.1f} | {fl} | {hts} | {cpu} |")
    rows.append("")
    for k, v in res["differences"].items():
        rows.append(f"- {k}: {v['deg']:+.1f} ± {v['stderr_deg']:.1f}°")
    text = "\n".join(rows) + "\n"
    with open(os.path.join(args.dir, "results.md"), "w") as f:
        f.write(text)
    print(text, end="")
    plot(args.dir, profiles, c)


COLOURS = {"none": "tab:blue", "rolling": "tab:red", "twisting": "tab:green"}


def plot(out, profiles, cases):
    """angle_of_repose.png: each case's surface h(x), averaged over its pours."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("analyze: no matplotlib, no plot")
        return
    fig, ax = plt.subplots(figsize=(8, 3.2))
    for case, prof in profiles.items():
        xs = prof[0][0]
        h = np.mean([p[1] for p in prof], axis=0)
        law, roll = case.split("_", 1)
        ax.plot(xs, h, "-" if law == "kuhn" else "--", color=COLOURS.get(roll, "k"), label=f"{case}: {cases[case]['angle_deg']:.1f}°")
    ax.set_xlim(-40, 40)
    ax.set_ylim(0, None)
    ax.set_aspect("equal")
    ax.set_xlabel("x / d")
    ax.set_ylabel("surface height / d")
    ax.set_title("poured ridges, mean surface of the pours")
    ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "angle_of_repose.png"), dpi=110)


if __name__ == "__main__":
    main()
