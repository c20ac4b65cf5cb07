#!/usr/bin/env python3
"""examples/exact-coulomb: geometry of the tetrahedron pile, and the analysis of the runs.

usage: exact_coulomb.py geometry FACTOR    LAMMPS -var arguments of the pile with mu = FACTOR x
                                           its friction threshold tan(theta / 2)
       exact_coulomb.py analyze DIR        table.md, results.json and exact_coulomb.png in DIR
"""
import json
import math
import os
import sys

R, RHO, KN, G, MU = 0.01, 2500.0, 1e5, 9.81, 0.6
MASS = RHO * 4.0 / 3.0 * math.pi * R ** 3
I = 0.4 * MASS * R * R
LAWS = ["coulomb", "kuhn", "hooke"]
NAMES = {"coulomb": "gran/coulomb", "coulomb_iterate": "gran/coulomb iterate 1e-10",
         "kuhn": "gran/kuhn", "hooke": "gran/hooke/history"}
FACTORS = [0.8, 1.0, 1.2]


def pile_geometry(factor):
    """The pile of the package's test: three spheres at distance d from the axis on the wall, one
    on top, each contact at its static overlap (statics determinate by symmetry)."""
    W = MASS * G
    d = 1.2 * 2.0 * R / math.sqrt(3.0)
    overlap_wall = 4.0 * W / (3.0 * KN)
    theta = math.asin(d / (2.0 * R))
    for _ in range(5):
        N = (W / 3.0) / (math.cos(theta) + math.tan(0.5 * theta) * math.sin(theta))
        overlap_top = N / KN
        theta = math.asin(d / (2.0 * R - overlap_top))
    zlow = R - overlap_wall
    ztop = zlow + (2.0 * R - overlap_top) * math.cos(theta)
    threshold = math.tan(0.5 * theta)
    return dict(mu=factor * threshold, d=d, zlow=zlow, ztop=ztop, threshold=threshold)


def read(path):
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            rows.append([float(v) for v in line.split()[1:]])
    return rows


def slope(out):
    """sphere (rolling) and block (rotation locked) on the slope at 0.8, 1.0, 1.2 x arctan(mu)"""
    res, lines = {}, []
    lines.append("| law | tan(alpha)/mu | body | x after 0.2 s (m) | closed form (m) | "
                 "largest contact-point speed in the last 0.1 s (m/s) |")
    lines.append("|---|---|---|---|---|---|")
    for law in LAWS:
        for factor in FACTORS:
            for body, rot in (("block", 0), ("sphere", 1)):
                rows = read(os.path.join(out, "slope_%s_%g_%d.txt" % (law, factor, rot)))
                t, x = rows[-1][0], rows[-1][1]
                alpha = math.atan(factor * MU)
                s, c = math.sin(alpha), math.cos(alpha)
                overlap = MASS * G * c / KN
                arm = R - 0.5 * overlap
                if rot:
                    a = G * s / (1.0 + I / (MASS * arm * arm))    # rolls: tan <= 3.5 mu here
                else:
                    a = G * (s - MU * c) if factor > 1.0 else 0.0
                exact = 0.5 * a * t * t
                slip = max(abs(r[4]) for r in rows if r[0] >= 0.5 * t)
                # (keys without dots: check.py's paths are dotted)
                label = "f" + ("%.1f" % factor).replace(".", "p")
                res.setdefault(law, {}).setdefault(body, {})[label] = dict(
                    x=x, exact=exact, dev=x - exact, slip=slip)
                lines.append("| %s | %g | %s | %.6e | %.6e | %.1e |"
                             % (NAMES[law], factor, body, x, exact, slip))
    return res, lines


def launch(out):
    """a sphere launched at v0 = 0.5 m/s without spin on the level wall"""
    v0 = 0.5
    res, lines = {}, ["| law | v / v0 at the end | closed form | roll onset (s) | "
                      "2 v0 / (7 mu g) (s) |", "|---|---|---|---|---|"]
    overlap = MASS * G / KN
    arm = R - 0.5 * overlap
    ratio = 1.0 / (1.0 + I / (MASS * arm * arm))
    t_roll = 2.0 * v0 / (7.0 * MU * G)
    for law in LAWS:
        rows = read(os.path.join(out, "launch_%s.txt" % law))
        # the first output at which the contact point is at rest (none: it never is)
        onset = next((r[0] for r in rows if abs(r[4]) < 1e-6 * v0), None)
        v = rows[-1][2] / v0
        res[law] = dict(v_over_v0=v, dev=v - ratio, onset=onset,
                        onset_dev=None if onset is None else onset - t_roll)
        shown = "never at rest" if onset is None else "%.4f" % onset
        lines.append("| %s | %.9f | %.9f | %s | %.4f |" % (NAMES[law], v, ratio, shown, t_roll))
    return res, lines


def pile(out):
    """creep of the tetrahedron's top sphere at mu = 1.1 x threshold, drop at 0.9 x"""
    res, lines = {}, ["| law | top sphere's creep at 1.1 x threshold (m/s) | "
                      "its drop at 0.9 x threshold after 0.05 s (m) |", "|---|---|---|"]
    for law in ["coulomb", "coulomb_iterate", "kuhn", "hooke"]:
        held = read(os.path.join(out, "pile_%s_1.1.txt" % law))
        falls = read(os.path.join(out, "pile_%s_0.9.txt" % law))
        # creep: the mean sinking speed over the second half of the run
        half = [r for r in held if r[0] >= 0.5 * held[-1][0]]
        creep = (half[0][1] - half[-1][1]) / (half[-1][0] - half[0][0])
        drop = falls[0][1] - falls[-1][1]
        res[law] = dict(creep=creep, drop=drop)
        lines.append("| %s | %.2e | %.2e |" % (NAMES[law], creep, drop))
    return res, lines


def plot(out, results):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    ax = axes[0]
    for law, style in zip(LAWS, ["-", "--", ":"]):
        for factor, colour in zip(FACTORS, ["C0", "C1", "C2"]):
            rows = read(os.path.join(out, "slope_%s_%g_0.txt" % (law, factor)))
            ax.plot([r[0] for r in rows], [r[1] for r in rows], style, color=colour,
                    label="%s, %.1f arctan mu" % (NAMES[law], factor))
    ax.set_xlabel("t (s)")
    ax.set_ylabel("block's displacement down the slope (m)")
    ax.set_yscale("symlog", linthresh=1e-9)
    ax.legend(fontsize=6)
    ax = axes[1]
    for law, style in zip(LAWS, ["-", "--", ":"]):
        rows = read(os.path.join(out, "launch_%s.txt" % law))
        ax.plot([r[0] for r in rows], [abs(r[4]) + 1e-17 for r in rows], style, label=NAMES[law])
    ax.set_yscale("log")
    ax.set_xlabel("t (s)")
    ax.set_ylabel("launched sphere's |contact-point speed| (m/s)")
    ax.legend(fontsize=7)
    ax = axes[2]
    for law, style in zip(["coulomb", "coulomb_iterate", "kuhn", "hooke"], ["-", "-.", "--", ":"]):
        rows = read(os.path.join(out, "pile_%s_1.1.txt" % law))
        ax.plot([r[0] for r in rows], [abs(rows[0][1] - r[1]) + 1e-16 for r in rows], style,
                label=NAMES[law])
    ax.set_yscale("log")
    ax.set_xlabel("t (s)")
    ax.set_ylabel("pile at 1.1 x threshold: top sphere's |drop| (m)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "exact_coulomb.png"), dpi=110)


def analyze(out):
    results, md = {}, ["# examples/exact-coulomb results", ""]
    for name, fn in (("slope", slope), ("launch", launch), ("pile", pile)):
        res, lines = fn(out)
        results[name] = res
        md += ["## " + (fn.__doc__ or name), ""] + lines + [""]
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write("\n".join(md))
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    plot(out, results)
    print("\n".join(md))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "geometry":
        g = pile_geometry(float(sys.argv[2]))
        print(" ".join("-var %s %.17g" % (k, g[k]) for k in ("mu", "d", "zlow", "ztop")))
    elif len(sys.argv) == 3 and sys.argv[1] == "analyze":
        analyze(sys.argv[2])
    else:
        sys.exit(__doc__)
