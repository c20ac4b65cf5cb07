#!/usr/bin/env python3
"""Objectivity example: turn the outputs of in.objectivity into a table and a plot.

For every variant found in DIR (rot_<variant>.dat, meta_<variant>.txt, mob_<variant>.dump):
  sigma(theta)      the Love-Weber stress of the rotating assembly, lab frame (kPa)
  restored(theta) = Omega(theta)^T sigma(theta) Omega(theta), Omega = rotation by theta about x
  error(theta)    = |restored(theta) - sigma(0)|_F / |sigma(0)|_F
A contact law whose force turns with the pair gives restored = sigma(0) at every angle.

Also reads log.two_spheres.lammps (in.two_spheres: one contact turned rigidly).
Writes into DIR: table.md (markdown), results.json (the same numbers, read by check.py),
objectivity.png (error against rotation angle).

usage: objectivity.py [DIR]      (default: the current folder)
"""
import json
import math
import os
import sys

import numpy as np

VARIANTS = [
    ("kuhn", "gran/kuhn, all refinements (projection + twirl)"),
    ("kuhn_project", "gran/kuhn `twirl no` (projection only)"),
    ("kuhn_none", "gran/kuhn `project no twirl no` (neither)"),
    ("hooke", "LAMMPS gran/hooke/history"),
    ("linear", "LAMMPS granular, hooke + tangential linear_history"),
    ("mindlin", "LAMMPS granular, hertz + tangential mindlin"),
]
MU = 0.55


def omega_x(theta_deg):
    """Rotation by theta about x (right-hand rule, as fix move rotate with axis 1 0 0)."""
    t = math.radians(theta_deg)
    c, s = math.cos(t), math.sin(t)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def read_rotation(path):
    rows = np.loadtxt(path, comments="#", ndmin=2)
    theta = rows[:, 1]
    sigma = rows[:, 2:11].reshape(-1, 3, 3)    # s11 s12 s13 / s21 s22 s23 / s31 s32 s33
    contacts = rows[:, 11]
    return theta, sigma, contacts


def read_meta(path):
    meta = {}
    with open(path) as f:
        for line in f:
            words = line.split()
            i = 0
            while i < len(words):
                key = words[i]
                if key == "periodic_sigma_kPa":
                    meta[key] = [float(w) for w in words[i + 1:i + 4]]
                    i += 4
                    continue
                val = words[i + 1]
                try:
                    meta[key] = int(val)
                except ValueError:
                    try:
                        meta[key] = float(val)
                    except ValueError:
                        meta[key] = val
                i += 2
    return meta


def read_mobilisation(path, model):
    """Fraction of contacts at the friction limit, per dump snapshot (0 and 90 degrees)."""
    fractions = []
    with open(path) as f:
        lines = f.read().splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("ITEM: NUMBER OF ENTRIES"):
            n = int(lines[i + 1])
            j = i + 2
            while not lines[j].startswith("ITEM: ENTRIES"):
                j += 1
            data = np.array([[float(w) for w in l.split()] for l in lines[j + 1:j + 1 + n]]).reshape(-1, 2)
            fn, col = data[:, 0], data[:, 1]
            touching = fn > 0.0
            # gran/kuhn: col = |ft|/(mu fn); LAMMPS styles: col = |ft|
            mob = col[touching] if model == "kuhn" else col[touching] / (MU * fn[touching])
            fractions.append(float(np.mean(mob >= 1.0 - 1e-6)) if mob.size else 0.0)
            i = j + 1 + n
        else:
            i += 1
    return fractions


def read_two_spheres(path):
    """TWO_SPHERES lines of in.two_spheres: model -> (fn, |ft|, |ft|/(mu fn)) after 90 degrees."""
    out = {}
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 8 and w[0] == "TWO_SPHERES":
                out[w[1]] = {"fn_N": float(w[3]), "ft_N": float(w[5]), "mobilisation": float(w[7])}
    return out


def fmt_row(row):
    return " ".join(f"{v:8.2f}" for v in row)


def analyse(folder):
    results = {}
    for name, label in VARIANTS:
        rot = os.path.join(folder, f"rot_{name}.dat")
        if not os.path.exists(rot):
            continue
        theta, sigma, contacts = read_rotation(rot)
        meta = read_meta(os.path.join(folder, f"meta_{name}.txt"))
        s0 = sigma[0]
        norm0 = np.linalg.norm(s0)
        restored = np.array([omega_x(t).T @ s @ omega_x(t) for t, s in zip(theta, sigma)])
        err = np.array([np.linalg.norm(r - s0) / norm0 for r in restored])
        p0 = -np.trace(s0) / 3.0
        q0 = -(s0[0, 0] - 0.5 * (s0[1, 1] + s0[2, 2]))
        mob_path = os.path.join(folder, f"mob_{name}.dump")
        model = meta.get("model", name)
        sliding = read_mobilisation(mob_path, model) if os.path.exists(mob_path) else []
        results[name] = {
            "label": label,
            "model": model,
            "atoms": meta.get("atoms"),
            "prepared_axial_strain": meta.get("axial_strain"),
            "prepared_qp_periodic": meta.get("q/p"),
            "prepared_sigma_periodic_kPa": meta.get("periodic_sigma_kPa"),
            "prepared_contacts_periodic": meta.get("periodic_contacts"),
            "qp_assembly": q0 / p0,
            "contacts": int(contacts[0]),
            "contacts_end": int(contacts[-1]),
            "theta_end": float(theta[-1]),
            "increments": meta.get("nrot"),
            "original_kPa": s0.tolist(),
            "rotated_kPa": sigma[-1].tolist(),
            "restored_kPa": restored[-1].tolist(),
            "error_pct": 100.0 * float(err[-1]),
            "max_error_pct": 100.0 * float(err.max()),
            "sliding_fraction": sliding,
            "theta": theta.tolist(),
            "error_curve_pct": (100.0 * err).tolist(),
        }
    return results


def table(results, pair):
    out = []
    first = next(iter(results.values()))
    out.append(f"{first['atoms']} spheres, rigid rotation by {first['theta_end']:.0f} degrees about x in "
               f"{first['increments']} increments. Stresses in kPa (compression negative), each tensor on "
               "three lines.")
    out.append("")
    out.append("| variant | original sigma | restored Omega^T sigma90 Omega | error | max error 0-90 deg "
               "| at friction limit 0 / 90 deg |")
    out.append("|---|---|---|---|---|---|")
    for name, r in results.items():
        sl = r["sliding_fraction"]
        slid = f"{100 * sl[0]:.1f} % / {100 * sl[-1]:.1f} %" if len(sl) >= 2 else "n/a"
        o, x = r["original_kPa"], r["restored_kPa"]
        out.append(f"| {r['label']} | `{fmt_row(o[0])}` | `{fmt_row(x[0])}` | {r['error_pct']:.2g} % | "
                   f"{r['max_error_pct']:.2g} % | {slid} |")
        for k in (1, 2):
            out.append(f"| | `{fmt_row(o[k])}` | `{fmt_row(x[k])}` | | | |")
    out.append("")
    out.append("Prepared states (periodic box, then the free assembly that is rotated):")
    out.append("")
    out.append("| model | axial strain | periodic: sigma_xx, sigma_yy, sigma_zz (kPa) | periodic: q/p "
               "| periodic: contacts | free assembly: contacts | free assembly: q/p |")
    out.append("|---|---|---|---|---|---|---|")
    seen = set()
    for name, r in results.items():
        if r["model"] in seen:
            continue
        seen.add(r["model"])
        s = r["prepared_sigma_periodic_kPa"] or [float("nan")] * 3
        out.append(f"| {r['model']} | {r['prepared_axial_strain']} | {s[0]:.1f}, {s[1]:.1f}, {s[2]:.1f} | "
                   f"{r['prepared_qp_periodic']} | {r.get('prepared_contacts_periodic')} | {r['contacts']} | "
                   f"{r['qp_assembly']:.3f} |")
    if pair:
        out.append("")
        out.append("One contact (in.two_spheres): two 1 mm spheres pressed by 0.1 N, turned rigidly by 90 degrees "
                   "about an axis normal to the line of centres:")
        out.append("")
        out.append("| model | f_n (N) | tangential force after 90 deg (N) | / (mu f_n) |")
        out.append("|---|---|---|---|")
        for model, r in pair.items():
            out.append(f"| {model} | {r['fn_N']:.4g} | {r['ft_N']:.3g} | {r['mobilisation']:.3g} |")
    return "\n".join(out) + "\n"


def plot(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    styles = {"kuhn": "k-", "kuhn_project": "b-", "kuhn_none": "c--", "hooke": "r-", "linear": "m--",
              "mindlin": "g-."}
    for name, r in results.items():
        theta, e = np.array(r["theta"]), np.array(r["error_curve_pct"])
        keep = theta > 0.0    # the error is 0 at 0 degrees by definition
        ax.semilogy(theta[keep], np.maximum(e[keep], 1e-12), styles.get(name, "-"), label=r["label"], lw=1.6)
    ax.axhline(0.5, color="grey", lw=0.8, ls=":")
    ax.text(1, 0.55, "0.5 %", color="grey", fontsize=8)
    ax.set_xlabel("rigid rotation about x (degrees)")
    ax.set_ylabel("|Omega^T sigma Omega - sigma0| / |sigma0|  (%)")
    ax.set_xlim(0, 90)
    ax.set_xticks(range(0, 91, 15))
    ax.grid(True, which="major", alpha=0.3)
    first = next(iter(results.values()))
    ax.set_title(f"Stress restored to the original frame, {first['atoms']} spheres, q/p = 0.8", fontsize=10)
    ax.legend(fontsize=7.5, loc="center right")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "."
    results = analyse(folder)
    if not results:
        sys.exit(f"no rot_<variant>.dat in {folder}")
    pair = read_two_spheres(os.path.join(folder, "log.two_spheres.lammps"))
    md = table(results, pair)
    with open(os.path.join(folder, "table.md"), "w") as f:
        f.write(md)
    with open(os.path.join(folder, "results.json"), "w") as f:
        json.dump({"variants": results, "two_spheres": pair}, f, indent=1)
    plot(results, os.path.join(folder, "objectivity.png"))
    print(md)


if __name__ == "__main__":
    main()
