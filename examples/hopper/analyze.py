#!/usr/bin/env python3
"""Mass flow rates of the hopper runs (see README.md).

usage: analyze.py OUTDIR [--seeds "1 2 3"] LAW...
reads OUTDIR/held_LAW_SEED.dat (time, mass in the hopper) and times.txt; writes
OUTDIR/results.json and OUTDIR/results.md.

The flow rate of a run is the slope of a least-squares line through the mass still in the
hopper while it falls from 80 % to 30 % of its mass at the opening of the gate (the steady
part of the discharge); a law's rate is the mean over its packings (seeds), with the
standard deviation of the runs. Beverloo's correlation, W = C rho_b sqrt(g) (D - k d)^(5/2)
with C = 0.58, k = 1.5, a bulk density of 0.6 times the particles' density, outlet D = 12 mm
and mean diameter d = 2 mm, gives the scale of a flat-bottomed silo's rate.
"""
import json
import math
import os
import sys

PAIRS = {"kuhn": "hooke", "jaeger": "mindlin"}    # our law and LAMMPS's of the same physics
WALLS = {"kuhn": "wall/gran/region/kuhn", "jaeger": "wall/gran/region/jaeger",
         "hooke": "wall/gran/region granular hooke + linear_history",
         "mindlin": "wall/gran/region granular hertz/material + mindlin"}


def read_rows(path):
    rows = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        t, m = map(float, line.split()[:2])
        rows.append((t, m))
    return rows


def flow_rate(rows):
    m0 = rows[0][1]
    part = [(t, m) for t, m in rows if 0.3 * m0 <= m <= 0.8 * m0]
    if len(part) < 3:
        return None
    n = len(part)
    st = sum(t for t, _ in part) / n
    sm = sum(m for _, m in part) / n
    return -sum((t - st) * (m - sm) for t, m in part) / sum((t - st) ** 2 for t, _ in part)


def mean_std(values):
    n = len(values)
    mean = sum(values) / n
    std = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return mean, std


def main():
    args = sys.argv[1:]
    out = args.pop(0)
    seeds = ["1"]
    if args and args[0] == "--seeds":
        seeds = args[1].split()
        args = args[2:]
    laws = args
    times = {}
    path = os.path.join(out, "times.txt")
    if os.path.exists(path):
        for line in open(path):
            law, _, wall = line.split()
            times[law] = times.get(law, 0.0) + float(wall)
    beverloo = 0.58 * 0.6 * 2500 * math.sqrt(9.81) * (0.012 - 1.5 * 0.002) ** 2.5
    res = {"beverloo_kg_per_s": beverloo, "seeds": len(seeds), "laws": {}, "ratios": {}}
    for law in laws:
        runs = [read_rows(os.path.join(out, f"held_{law}_{s}.dat")) for s in seeds]
        rates = [flow_rate(r) for r in runs]
        if any(w is None for w in rates):
            print(f"{law}: a run has no steady part of the discharge", file=sys.stderr)
            sys.exit(1)
        mean, std = mean_std(rates)
        res["laws"][law] = {"flow_rate_kg_per_s": mean, "std_kg_per_s": std, "runs": rates,
                            "mass_kg": runs[0][0][1],
                            "discharged_fraction": min(1.0 - r[-1][1] / r[0][1] for r in runs),
                            "flow_over_beverloo": mean / beverloo, "wall_s": times.get(law)}
    for ours, theirs in PAIRS.items():
        a, b = res["laws"].get(ours), res["laws"].get(theirs)
        if a and b:
            ratio = a["flow_rate_kg_per_s"] / b["flow_rate_kg_per_s"]
            # the ratio's noise: both rates' standard errors of the mean
            rel = math.hypot(a["std_kg_per_s"] / a["flow_rate_kg_per_s"],
                             b["std_kg_per_s"] / b["flow_rate_kg_per_s"]) / math.sqrt(len(seeds))
            res["ratios"][f"{ours}_over_{theirs}"] = ratio
            res["ratios"][f"{ours}_over_{theirs}_noise"] = ratio * rel
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(res, f, indent=1)
    lines = ["| law | walls | flow rate (g/s) | runs' std (g/s) | / Beverloo | run time (s) |",
             "|---|---|---|---|---|---|"]
    for law, r in res["laws"].items():
        lines.append(f"| {law} | {WALLS.get(law, '')} | {r['flow_rate_kg_per_s'] * 1e3:.2f} "
                     f"| {r['std_kg_per_s'] * 1e3:.2f} | {r['flow_over_beverloo']:.2f} "
                     f"| {r['wall_s'] or float('nan'):.1f} |")
    lines.append("")
    lines.append(f"Beverloo: {beverloo * 1e3:.2f} g/s; {len(seeds)} packings per law")
    for ours, theirs in PAIRS.items():
        key = f"{ours}_over_{theirs}"
        if key in res["ratios"]:
            lines.append(f"{ours} / {theirs}: {res['ratios'][key]:.3f} "
                         f"+- {res['ratios'][key + '_noise']:.3f}")
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
