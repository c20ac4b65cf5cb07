#!/usr/bin/env python3
"""Mindlin-Deresiewicz example: turn the outputs of in.mindlin-deresiewicz into a table and a plot.

Reads path_<model>_<nsub>.txt (model = jaeger, mindlin, mindlin_force; nsub = 1 and the fine
count) from DIR and compares the tangential force at the end of each leg with

  the closed form: the Mindlin-Deresiewicz rules for this path, written out by hand from the
      spring picture (Hertz + Cattaneo-Mindlin, the design note jaeger-algorithm.md), one
      evaluation per leg end, independent of the package's code:
        loading from (z0, 0) along s = c (z - z0), c > mu kappa:
            T = mu [P(z) - P(z*)],                  z*  = z - s / (mu kappa)
        unloading from the peak (z2, s2, apex z2*) along the same line reversed:
            T = mu [2 P(z**) - P(z2*) - P(z)],      z** = (z + z2)/2 - (s2 - s) / (2 mu kappa)
        (each valid while the apex lies inside the contact; the script checks it does);
  a spring bed: the same spring picture brute-forced on NBED springs (numpy), one straight
      step per leg; it checks the closed form to its discretisation error.

Writes into DIR: table.md (markdown), results.json (read by check.py) and
mindlin_deresiewicz.png (tangential force against tangential displacement, as the paper's
Fig. 8: (a) gran/jaeger, (b) LAMMPS granular mindlin, (c) the path in force space).

usage: mindlin_deresiewicz.py [DIR] [--fine N]    (default: the current folder, N = 100)
"""
import json
import math
import os
import sys

import numpy as np

MODELS = [
    ("jaeger", "gran/jaeger"),
    ("mindlin", "granular hertz/material + mindlin"),
    ("mindlin_force", "granular hertz/material + mindlin/force"),
]
NBED = 200000


def read_path(path):
    """Header (material, leg ends) and the rows of one run."""
    meta, rows = {}, []
    with open(path) as f:
        for line in f:
            if line.startswith("# model"):
                words = line.replace(":", " ").split()
                for k in ("R", "E", "nu", "mu"):
                    meta[k] = float(words[words.index(k) + 1])
            elif line.startswith("# ends z:"):
                meta["zend"] = [float(w) for w in line.split()[3:]]
            elif line.startswith("# ends s:"):
                meta["send"] = [float(w) for w in line.split()[3:]]
            elif line.strip() and not line.startswith("#"):
                w = line.split()
                rows.append((int(w[0]), int(w[1])) + tuple(float(x) for x in w[2:]))
    return meta, rows


class Contact:
    """Two identical Hertzian spheres (radius R, E, nu, mu)."""

    def __init__(self, R, E, nu, mu):
        self.Reff = R / 2.0
        self.estar = E / (2.0 * (1.0 - nu * nu))
        G = E / (2.0 * (1.0 + nu))
        self.gstar = 2.0 * G / (2.0 - nu)
        self.kappa = self.estar / self.gstar    # = (2 - nu) / (2 (1 - nu))
        self.mu = mu

    def P(self, z):
        return 4.0 / 3.0 * self.estar * math.sqrt(self.Reff) * max(z, 0.0) ** 1.5


def closed_form(c, ends_z, ends_s, z, s, leg):
    """Tangential force at (z, s) on leg 1..4 of the path (see the module doc)."""
    mk = c.mu * c.kappa
    if leg <= 2:    # loading from (z0, 0)
        zs = z - s / mk
        assert zs < ends_z[0], "the loading must slip from the start (c > mu kappa)"
        return c.mu * c.P(z) if zs <= 0.0 else c.mu * (c.P(z) - c.P(zs))
    z2, s2 = ends_z[2], ends_s[2]
    z2s = z2 - s2 / mk
    assert z2s > 0.0, "the peak must not be in full sliding"
    zss = 0.5 * (z + z2) - (s2 - s) / (2.0 * mk)
    assert z2s <= zss <= z, "the reverse slip must stay within the forward slip annulus"
    return c.mu * (2.0 * c.P(zss) - c.P(z2s) - c.P(z))


def spring_bed(c, ends_z, ends_s, n):
    """The spring picture brute-forced: n springs on [0, a_max], one straight step per leg.
    Spring x (depth g = x^2/R) touches while z > g, enters with zero displacement and is
    elastic-perfectly-plastic with the yield limit mu kappa (z - g); T = 2 G* int u dx.
    On these legs every spring that reaches its limit keeps sliding to the leg's end
    (|ds| > mu kappa |dz|), so the end-of-step clamp is exact for each spring."""
    amax = math.sqrt(c.Reff * max(ends_z))
    dx = amax / n
    x = (np.arange(n) + 0.5) * dx
    g = x * x / c.Reff
    u = np.zeros(n)
    z_old, s_old = 0.0, 0.0
    out = []
    for z, s in zip(ends_z, ends_s):
        dz, ds = z - z_old, s - s_old
        inside_old = g < z_old
        entering = (~inside_old) & (g < z)
        u = np.where(inside_old, u + ds, 0.0)
        if dz > 0.0:    # a spring entering part-way feels the movement after it entered
            u = np.where(entering, ds * (z - g) / dz, u)
        cap = c.mu * c.kappa * np.maximum(z - g, 0.0)
        u = np.clip(u, -cap, cap)
        out.append(2.0 * c.gstar * u.sum() * dx)
        z_old, s_old = z, s
    return out[1:]


def rk(m, n):
    """Key of a run in results.json."""
    return f"{m}_4steps" if n == 1 else f"{m}_fine"


def leg_ends(rows):
    """Rows at the end of the pressing and of legs 1..4."""
    return [r for r in rows if r[1] == max(q[1] for q in rows if q[0] == r[0])]


def realized_overlaps(R, ends):
    """The overlaps the pair styles see: q's height z_q rounded to a double, p at the origin,
    overlap = (R + R) - sqrt(z_q^2), as the styles compute it."""
    return [(R + R) - math.sqrt(e[4] * e[4]) for e in ends]


def main():
    args = sys.argv[1:]
    fine = 100
    if "--fine" in args:
        i = args.index("--fine")
        fine = int(args[i + 1])
        del args[i:i + 2]
    d = args[0] if args else "."
    runs = {}
    for m, _ in MODELS:
        for n in (1, fine):
            p = os.path.join(d, f"path_{m}_{n}.txt")
            if os.path.exists(p):
                runs[(m, n)] = read_path(p)
    if ("jaeger", 1) not in runs:
        sys.exit(f"no path_jaeger_1.txt in {d}")
    meta = runs[("jaeger", 1)][0]
    c = Contact(meta["R"], meta["E"], meta["nu"], meta["mu"])
    ez, es = meta["zend"], meta["send"]

    # the closed form at the leg ends, with the target overlaps and shifts
    legs = []
    for leg in range(1, 5):
        z, s = ez[leg], es[leg]
        legs.append({"leg": leg, "z": z, "s": s, "P": c.P(z), "T_closed": closed_form(c, ez, es, z, s, leg)})
    bed = spring_bed(c, ez, es, NBED)
    for L, tb in zip(legs, bed):
        L["T_bed"] = tb

    res = {"fine": fine, "nbed": NBED, "kappa": c.kappa, "legs": legs, "runs": {}}
    for (m, n), (_, rows) in runs.items():
        ends = leg_ends(rows)
        zr = realized_overlaps(meta["R"], ends)
        ends = ends[1:]
        key = rk(m, n)
        r = {"nsub": n, "T": [e[5] for e in ends], "Ty": [e[6] for e in ends], "P": [e[7] for e in ends],
             "z_q": [e[4] for e in ends], "z_realized": zr[1:]}
        r["rel_T_vs_closed"] = [abs(t - L["T_closed"]) / abs(L["T_closed"]) for t, L in zip(r["T"], legs)]
        r["T_over_muP_minus_closed"] = [(t - L["T_closed"]) / (c.mu * L["P"]) for t, L in zip(r["T"], legs)]
        # the closed form at the overlaps the positions realise (round-off of z_q ~ 1e-13 z)
        tcr = [closed_form(c, zr, es, zr[leg], es[leg], leg) for leg in range(1, 5)]
        r["rel_T_vs_closed_realized"] = [abs(t - x) / abs(x) for t, x in zip(r["T"], tcr)]
        r["max_rel_T_vs_closed_realized"] = max(r["rel_T_vs_closed_realized"])
        r["rel_P_vs_hertz"] = [abs(p - L["P"]) / L["P"] for p, L in zip(r["P"], legs)]
        r["rel_P_vs_hertz_realized"] = [abs(p - c.P(z)) / c.P(z) for p, z in zip(r["P"], zr[1:])]
        r["max_rel_T_vs_closed"] = max(r["rel_T_vs_closed"])
        r["max_rel_P_vs_hertz"] = max(r["rel_P_vs_hertz"])
        r["max_abs_Ty"] = max(abs(t) for t in r["Ty"])
        res["runs"][key] = r
    for m, _ in MODELS:
        a, b = res["runs"].get(rk(m, 1)), res["runs"].get(rk(m, fine))
        if a and b:
            rel = [abs(x - y) / abs(y) for x, y in zip(a["T"], b["T"])]
            a["rel_T_vs_fine"] = rel
            a["max_rel_T_vs_fine"] = max(rel)
    res["max_rel_bed_vs_closed"] = max(abs(L["T_bed"] - L["T_closed"]) / abs(L["T_closed"]) for L in legs)
    with open(os.path.join(d, "results.json"), "w") as f:
        json.dump(res, f, indent=1)

    # table
    lines = []
    lines.append(f"Leg ends (z: overlap, s: tangential shift, P: Hertz force; T in N; "
                 f"mu = {c.mu}, kappa = {c.kappa:.6f}; fine = {fine} steps per leg)\n")
    hdr = "| leg | z (um) | s (um) | P (N) | T closed form | T spring bed | " + \
          " | ".join(f"{lab} {'4 steps' if n == 1 else f'{fine}/leg'}"
                     for m, lab in MODELS for n in (1, fine) if (m, n) in runs) + " |"
    lines.append(hdr)
    lines.append("|" + "---|" * (hdr.count("|") - 1))
    for i, L in enumerate(legs):
        cells = [str(L["leg"]), f"{L['z'] * 1e6:.3f}", f"{L['s'] * 1e6:.6f}", f"{L['P']:.6f}",
                 f"{L['T_closed']:.12f}", f"{L['T_bed']:.8f}"]
        for m, _ in MODELS:
            for n in (1, fine):
                if (m, n) in runs:
                    cells.append(f"{res['runs'][rk(m, n)]['T'][i]:.12f}")
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("Relative difference |T - T_closed| / |T_closed| at the leg ends:\n")
    hdr = "| run | leg 1 | leg 2 | leg 3 | leg 4 | max |"
    lines.append(hdr)
    lines.append("|---|---|---|---|---|---|")
    lines.append("| spring bed (%d springs) | " % NBED +
                 " | ".join(f"{abs(L['T_bed'] - L['T_closed']) / abs(L['T_closed']):.2e}" for L in legs) +
                 f" | {res['max_rel_bed_vs_closed']:.2e} |")
    for m, lab in MODELS:
        for n in (1, fine):
            k = rk(m, n)
            if k in res["runs"]:
                r = res["runs"][k]
                lines.append(f"| {lab}, {'4 steps' if n == 1 else f'{fine} steps/leg'} | " +
                             " | ".join(f"{v:.2e}" for v in r["rel_T_vs_closed"]) +
                             f" | {r['max_rel_T_vs_closed']:.2e} |")
    lines.append("")
    lines.append("The same differences as friction mobilisation, (T - T_closed) / (mu P):\n")
    lines.append("| run | leg 1 | leg 2 | leg 3 | leg 4 |")
    lines.append("|---|---|---|---|---|")
    for m, lab in MODELS:
        for n in (1, fine):
            k = rk(m, n)
            if k in res["runs"]:
                lines.append(f"| {lab}, {'4 steps' if n == 1 else f'{fine} steps/leg'} | " +
                             " | ".join(f"{v:+.4f}" for v in res["runs"][k]["T_over_muP_minus_closed"]) + " |")
    lines.append("")
    lines.append("4 steps against the fine run of the same style; closed form and Hertz evaluated at the "
                 "overlaps that the positions realise (z_q rounded to a double):\n")
    lines.append("| style | max rel. T, 4 steps vs fine | max rel. T vs closed form (realised z) "
                 "| max rel. P vs Hertz (target z) | max rel. P vs Hertz (realised z) |")
    lines.append("|---|---|---|---|---|")
    for m, lab in MODELS:
        k = rk(m, 1)
        if k in res["runs"] and "max_rel_T_vs_fine" in res["runs"][k]:
            r, rf = res["runs"][k], res["runs"][rk(m, fine)]
            tr = max(r["max_rel_T_vs_closed_realized"], rf["max_rel_T_vs_closed_realized"])
            pmax = max(r["max_rel_P_vs_hertz"], rf["max_rel_P_vs_hertz"])
            pr = max(r["rel_P_vs_hertz_realized"] + rf["rel_P_vs_hertz_realized"])
            lines.append(f"| {lab} | {r['max_rel_T_vs_fine']:.2e} | {tr:.2e} | {pmax:.2e} | {pr:.2e} |")
    table = "\n".join(lines) + "\n"
    with open(os.path.join(d, "table.md"), "w") as f:
        f.write(table)
    print(table)

    plot(d, c, ez, es, runs, fine)


def plot(d, c, ez, es, runs, fine):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # the closed form along the path, densely
    cz, cs, cT = [], [], []
    for leg in range(1, 5):
        for lam in np.linspace(0.0, 1.0, 201)[1:]:
            z = ez[leg - 1] + lam * (ez[leg] - ez[leg - 1])
            s = es[leg - 1] + lam * (es[leg] - es[leg - 1])
            cz.append(z), cs.append(s), cT.append(closed_form(c, ez, es, z, s, leg))
    cs, cT = np.array(cs), np.array(cT)
    cP = np.array([c.P(z) for z in cz])
    P0 = c.P(ez[0])

    def series(m, n):
        rows = runs[(m, n)][1]
        rows = [r for r in rows if r[0] >= 1]
        s = np.array([0.0] + [r[3] for r in rows])
        T = np.array([0.0] + [r[5] for r in rows])
        P = np.array([P0] + [r[7] for r in rows])
        return s, T, P

    fig, axs = plt.subplots(1, 3, figsize=(15, 4.6))
    for ax, models, title in ((axs[0], ["jaeger"], "(a) gran/jaeger"),
                              (axs[1], ["mindlin", "mindlin_force"], "(b) LAMMPS granular, incremental")):
        ax.plot(cs * 1e6, cT / (c.mu * P0), "k-", lw=1.5, label="Mindlin-Deresiewicz (closed form)")
        styles = {"jaeger": ("C0", "o"), "mindlin": ("C3", "s"), "mindlin_force": ("C2", "^")}
        for m in models:
            lab = dict(MODELS)[m]
            col, mk = styles[m]
            if (m, fine) in runs:
                s, T, _ = series(m, fine)
                ax.plot(s * 1e6, T / (c.mu * P0), "-", color=col, lw=0.9, alpha=0.8,
                        label=f"{lab}, {fine} steps/leg")
            if (m, 1) in runs:
                s, T, _ = series(m, 1)
                ax.plot(s * 1e6, T / (c.mu * P0), "--", color=col, marker=mk, ms=7, mfc="none",
                        label=f"{lab}, 4 steps")
        ax.set_xlabel("tangential displacement s (um)")
        ax.set_ylabel("T / (mu P0)")
        ax.set_title(title)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="lower right")
    ax = axs[2]
    ax.plot(cP / P0, cT / (c.mu * P0), "k-", lw=1.5, label="closed form")
    ax.plot(cP / P0, c.mu * cP / (c.mu * P0), "k:", lw=1, label="T = mu P")
    ax.plot(cP / P0, -c.mu * cP / (c.mu * P0), "k:", lw=1)
    for m, col in (("jaeger", "C0"), ("mindlin", "C3"), ("mindlin_force", "C2")):
        if (m, fine) in runs:
            _, T, P = series(m, fine)
            ax.plot(P / P0, T / (c.mu * P0), "-", color=col, lw=0.9, label=f"{dict(MODELS)[m]}, fine")
    ax.set_xlabel("P / P0")
    ax.set_ylabel("T / (mu P0)")
    ax.set_title("(c) the path in force space")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="center right")
    fig.tight_layout()
    fig.savefig(os.path.join(d, "mindlin_deresiewicz.png"), dpi=110)


if __name__ == "__main__":
    main()
