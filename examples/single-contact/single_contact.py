#!/usr/bin/env python3
"""Single-contact example: turn the outputs of in.single-contact into a table and a plot.

Reads results_<model>.txt (model = kuhn, kuhn_conv, hooke) from DIR. Each line holds a
movement size E = kt |dxi| / (mu fn) and the force on p after the step. The final direction
of the tangential force is theta1 = atan2(F.m_perp, F.m) with m = +x the direction of the
movement and m_perp = n x m = +y (theta0 = -90 deg: the force starts along -y). Compared with

  closed form (Kuhn et al., Eq. 18 with constant fn):  tan(theta1/2) = tan(theta0/2) exp(-E)
  add, then scale:  f0 + kt dxi scaled onto the cone:  theta1 = atan2(-1, E)

Writes into DIR: table.md (markdown), results.json (read by check.py), single_contact.png.

usage: single_contact.py [DIR]      (default: the current folder)
"""
import json
import math
import os
import sys

MODELS = [
    ("kuhn", "gran/kuhn (all refinements)"),
    ("kuhn_conv", "gran/kuhn conventional"),
    ("hooke", "gran/hooke/history"),
]
THETA0 = -90.0


def read(path):
    meta, rows = {}, []
    with open(path) as f:
        for line in f:
            if line.startswith("# model"):
                w = line.replace(":", " ").split()
                for k in ("kn", "kt", "mu", "fn"):
                    meta[k] = float(w[w.index(k) + 1])
                meta["unit"] = float(w[w.index("fn/kt)") + 1])
                meta["nload"] = int(w[w.index("nload") + 1])
            elif line.strip() and not line.startswith("#"):
                rows.append([float(x) for x in line.split()])
    return meta, rows


def closed_form(E):
    return math.degrees(2.0 * math.atan(math.tan(math.radians(THETA0) / 2.0) * math.exp(-E)))


def add_then_scale(E):
    return math.degrees(math.atan2(-1.0, E))


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    data = {}
    for m, _ in MODELS:
        p = os.path.join(d, f"results_{m}.txt")
        if os.path.exists(p):
            data[m] = read(p)
    if "kuhn" not in data:
        sys.exit(f"no results_kuhn.txt in {d}")
    meta = data["kuhn"][0]
    mufn = meta["mu"] * meta["fn"]
    sizes = [r[0] for r in data["kuhn"][1]]

    res = {"theta0_deg": THETA0, "E": sizes, "closed_form_deg": [closed_form(E) for E in sizes],
           "add_then_scale_deg": [add_then_scale(E) for E in sizes], "models": {}}
    for m, (mm, rows) in data.items():
        assert [r[0] for r in rows] == sizes, f"{m}: other sizes than gran/kuhn"
        theta = [math.degrees(math.atan2(r[2], r[1])) for r in rows]
        mob = [math.hypot(r[1], r[2]) / mufn for r in rows]
        r = {"theta_deg": theta,
             "dev_closed_deg": [t - c for t, c in zip(theta, res["closed_form_deg"])],
             "dev_add_then_scale_deg": [t - c for t, c in zip(theta, res["add_then_scale_deg"])],
             "mobilisation": mob,
             "normal_force_rel_err": max(abs(-r[3] - mm["fn"]) / mm["fn"] for r in rows),
             # sanity of the prescribed movement: force after the first loading step = kt * step
             "first_step_rel_err": max(abs(-r[4] - 2.0 * mufn / mm["nload"]) / (2.0 * mufn / mm["nload"])
                                      for r in rows)}
        r["max_abs_dev_closed_deg"] = max(abs(x) for x in r["dev_closed_deg"])
        r["max_abs_dev_add_then_scale_deg"] = max(abs(x) for x in r["dev_add_then_scale_deg"])
        r["max_abs_mobilisation_err"] = max(abs(x - 1.0) for x in mob)
        res["models"][m] = r
    ats = [a - c for a, c in zip(res["add_then_scale_deg"], res["closed_form_deg"])]
    imax = max(range(len(ats)), key=lambda i: abs(ats[i]))
    res["add_then_scale_max_error_deg"] = ats[imax]
    res["add_then_scale_max_error_at_E"] = sizes[imax]
    with open(os.path.join(d, "results.json"), "w") as f:
        json.dump(res, f, indent=1)

    present = [m for m, _ in MODELS if m in data]
    lab = dict(MODELS)
    out = []
    out.append("Final direction theta1 (deg) of the tangential force after one step of size "
               "|dxi| = E mu fn/kt orthogonal to it (theta0 = -90 deg, fn constant).\n")
    hdr = "| E = kt\\|dxi\\|/(mu fn) | closed form | " + " | ".join(lab[m] for m in present) + \
          " | add, then scale (formula) | gran/kuhn - closed | add-then-scale - closed |"
    out.append(hdr)
    out.append("|" + "---|" * (hdr.count(" | ") + 1))
    for i, E in enumerate(sizes):
        cells = [f"{E:g}", f"{res['closed_form_deg'][i]:.6f}"]
        cells += [f"{res['models'][m]['theta_deg'][i]:.6f}" for m in present]
        cells += [f"{res['add_then_scale_deg'][i]:.6f}", f"{res['models']['kuhn']['dev_closed_deg'][i]:.1e}",
                  f"{ats[i]:+.4g}"]
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    out.append("| style | max \\|theta1 - closed form\\| (deg) | max \\|theta1 - add-then-scale formula\\| (deg) "
               "| max \\|\\|f_t\\|/(mu fn) - 1\\| | max rel. error fn | first loading step: rel. error of kt*step |")
    out.append("|---|---|---|---|---|---|")
    for m in present:
        r = res["models"][m]
        out.append(f"| {lab[m]} | {r['max_abs_dev_closed_deg']:.2e} | {r['max_abs_dev_add_then_scale_deg']:.2e} "
                   f"| {r['max_abs_mobilisation_err']:.1e} | {r['normal_force_rel_err']:.1e} "
                   f"| {r['first_step_rel_err']:.1e} |")
    out.append("")
    out.append(f"Largest error of add-then-scale against the closed form: {ats[imax]:+.3f} deg at E = {sizes[imax]:g}.")
    table = "\n".join(out) + "\n"
    with open(os.path.join(d, "table.md"), "w") as f:
        f.write(table)
    print(table)
    plot(d, res, present, lab)


def plot(d, res, present, lab):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    E = np.logspace(-2.5, math.log10(max(max(res["E"]), 10.0)), 400)
    fig, axs = plt.subplots(1, 2, figsize=(11, 4.4))
    ax = axs[0]
    ax.plot(E, [closed_form(e) for e in E], "k-", lw=1.5, label="closed form, tan(θ1/2) = tan(θ0/2) exp(-E)")
    ax.plot(E, [add_then_scale(e) for e in E], "k--", lw=1, label="add, then scale (formula)")
    marks = {"kuhn": ("C0", "o", 8), "kuhn_conv": ("C3", "s", 6), "hooke": ("C2", "x", 6)}
    for m in present:
        c, mk, ms = marks[m]
        ax.plot(res["E"], res["models"][m]["theta_deg"], linestyle="none", color=c, marker=mk, ms=ms,
                mfc="none", label=f"{lab[m]} (LAMMPS)")
    ax.set_xscale("log")
    ax.set_xlabel("E = kt |Δξ| / (μ fn)")
    ax.set_ylabel("final force direction θ1 (deg)")
    ax.set_ylim(-92, 2)
    ax.set_title("movement orthogonal to the force (θ0 = -90°)")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    ax = axs[1]
    ax.plot(E, [add_then_scale(e) - closed_form(e) for e in E], "k--", lw=1, label="add, then scale − closed form")
    for m in present:
        c, mk, ms = marks[m]
        dev = res["models"][m]["dev_closed_deg"]
        ax.plot(res["E"], dev, linestyle="none", color=c, marker=mk, ms=ms, mfc="none", label=f"{lab[m]} − closed form")
    ax.set_xscale("log")
    ax.set_xlabel("E = kt |Δξ| / (μ fn)")
    ax.set_ylabel("error of θ1 (deg)")
    ax.set_title("error of the final direction")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(d, "single_contact.png"), dpi=110)


if __name__ == "__main__":
    main()
