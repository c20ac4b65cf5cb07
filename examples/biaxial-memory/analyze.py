#!/usr/bin/env python3
"""biaxial-memory: table, plot and results.json from the runs of run.sh.

usage: analyze.py OUTDIR [--caps A B] [--size NAME]

Reads, for every run NAME: biax_NAME.dat (every nout steps: strains, stresses, contacts and
gran/jaeger's history fix vector), log.NAME (loop times), final_NAME.atoms (per-atom contact
stresses at the end) and final_NAME.contacts (gran/jaeger: every contact's force at the end).
Writes OUTDIR/results.md, OUTDIR/results.json and OUTDIR/biaxial_memory.png.
"""
import argparse
import json
import math
import os
import re

import numpy as np

P0 = 1.0e5
HEADER_DOUBLES = 8      # gran/jaeger record: header of 8 doubles ...
POINT_DOUBLES = 4       # ... and 4 doubles per history point


def read_series(path):
    rows = [list(map(float, line.split())) for line in open(path)
            if line.strip() and not line.startswith("#")]
    a = np.array(rows)
    names = ["step", "ez", "ex", "ev", "sxx", "syy", "szz", "qp", "contacts",
             "records", "mean_len", "max_len", "bytes", "merges"]
    return {n: a[:, k] for k, n in enumerate(names)}


def loop_time(path):
    """sum of the loop times of the runs with steps (the pieces of the run every)"""
    total, steps = 0.0, 0
    for m in re.finditer(r"Loop time of ([0-9.eE+-]+) on \d+ procs for (\d+) steps", open(path).read()):
        if int(m.group(2)) > 0:
            total += float(m.group(1))
            steps += int(m.group(2))
    return total, steps


def read_dump_rows(path, ncol):
    rows, inside = [], False
    for line in open(path):
        if line.startswith("ITEM: ATOMS") or line.startswith("ITEM: ENTRIES"):
            inside = True
            continue
        if line.startswith("ITEM:"):
            inside = False
            continue
        if inside and line.strip():
            rows.append([float(v) for v in line.split()[:ncol]])
    return np.array(rows).reshape(-1, ncol)


def atom_stresses(path):
    a = read_dump_rows(path, 10)
    order = np.argsort(a[:, 0])
    return a[order, 0].astype(int), a[order, 4:10]


def contact_forces(path):
    """{(smaller id, larger id): (force on the smaller-id atom, history length)}"""
    a = read_dump_rows(path, 9)
    out = {}
    for row in a:
        i, j = int(row[0]), int(row[1])
        f = row[2:5] + row[5:8]
        if np.dot(f, f) == 0.0:
            continue
        if i > j:
            i, j, f = j, i, -f
        out[(i, j)] = (f, row[8])
    return out


def contact_series(path):
    """{step: contact_forces-like dict} of a multi-snapshot dump local"""
    snaps, step, rows, mode = {}, None, [], None
    def flush():
        if step is not None:
            d = {}
            for row in rows:
                i, j = int(row[0]), int(row[1])
                f = np.array(row[2:5]) + np.array(row[5:8])
                if np.dot(f, f) == 0.0:
                    continue
                if i > j:
                    i, j, f = j, i, -f
                d[(i, j)] = (f, row[8])
            snaps[step] = d
    for line in open(path):
        if line.startswith("ITEM: TIMESTEP"):
            flush()
            step, rows, mode = None, [], "step"
            continue
        if line.startswith("ITEM: ENTRIES"):
            mode = "rows"
            continue
        if line.startswith("ITEM:"):
            mode = None
            continue
        if mode == "step":
            step = int(line)
            mode = None
        elif mode == "rows" and line.strip():
            rows.append([float(v) for v in line.split()[:9]])
    flush()
    return snaps


def stress_error(ids_a, s_a, ids_e, s_e):
    """relative RMS of the per-atom contact stress (Frobenius, off-diagonals twice)"""
    assert np.array_equal(ids_a, ids_e)
    w = np.array([1, 1, 1, 2, 2, 2], dtype=float)
    d = ((s_a - s_e) ** 2 * w).sum()
    n = ((s_e ** 2) * w).sum()
    return math.sqrt(d / n)


def force_error(fa, fe):
    """relative RMS of the contact forces over the contacts of the exact run; a contact
    missing from the other run counts with force 0 there"""
    num = den = 0.0
    common = 0
    for key, (f, _) in fe.items():
        den += float(np.dot(f, f))
        g = fa.get(key)
        if g is None:
            num += float(np.dot(f, f))
        else:
            common += 1
            num += float(np.dot(g[0] - f, g[0] - f))
    return math.sqrt(num / den), common / max(len(fe), 1)


def key(name):
    """results.json key of a run: no dots (check_expected.py splits paths at dots)"""
    return name.replace("b0.1", "beta01").replace("b0.2", "beta02")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--caps", nargs=2, type=int, default=[16, 64])
    ap.add_argument("--size", default="default")
    ap.add_argument("--window", nargs=2, type=int, default=[0, 0], help="start and length (steps)")
    args = ap.parse_args()
    out = args.out
    cap1, cap2 = args.caps
    variants = [("jaeger", "gran/jaeger, exact (beta 0)"),
                ("jaeger_b0.1", "gran/jaeger beta 0.1"),
                ("jaeger_b0.2", "gran/jaeger beta 0.2"),
                ("jaeger_cap%d" % cap1, "gran/jaeger history/max %d" % cap1),
                ("jaeger_cap%d" % cap2, "gran/jaeger history/max %d" % cap2),
                ("jaeger_resorted", "gran/jaeger exact, atoms not sorted (round-off control)")]
    refs = ["mindlin", "mindlin_again"]

    series = {n: read_series(os.path.join(out, "biax_%s.dat" % n)) for n, _ in variants}
    for n in refs:
        series[n] = read_series(os.path.join(out, "biax_%s.dat" % n))
    times = {n: loop_time(os.path.join(out, "log." + n)) for n in list(series)}
    t_ref = 0.5 * (times["mindlin"][0] + times["mindlin_again"][0])
    natoms = int(re.search(r"PACKED atoms (\d+) phi ([0-9.]+)", open(os.path.join(out, "log.pack")).read()).group(1))
    phi0 = float(re.search(r"PACKED atoms (\d+) phi ([0-9.]+)", open(os.path.join(out, "log.pack")).read()).group(2))

    ids_e, s_e = atom_stresses(os.path.join(out, "final_jaeger.atoms"))
    f_e = contact_forces(os.path.join(out, "final_jaeger.contacts"))
    wids_e, ws_e = atom_stresses(os.path.join(out, "final_w_jaeger.atoms"))
    wf_e = contact_forces(os.path.join(out, "final_w_jaeger.contacts"))
    wser_e = contact_series(os.path.join(out, "window_w_jaeger.contacts"))
    ex = series["jaeger"]
    steps = int(ex["step"][-1])
    strain = float(ex["ez"][-1])

    runs = {}
    for n, label in variants + [(r, "LAMMPS granular hertz/material + mindlin") for r in refs]:
        s = series[n]
        r = {"label": label, "loop_time_s": times[n][0], "steps": times[n][1],
             "time_vs_mindlin": times[n][0] / t_ref,
             "qp_peak": float(s["qp"].max()), "ez_at_qp_peak": float(s["ez"][s["qp"].argmax()]),
             "qp_final": float(s["qp"][-1]), "ev_final": float(s["ev"][-1]),
             "sxx_over_p0_min_after_10pct_of_run": float(s["sxx"][len(s["sxx"]) // 10:].min() / P0),
             "sxx_over_p0_max_after_10pct_of_run": float(s["sxx"][len(s["sxx"]) // 10:].max() / P0),
             "contacts_final": float(s["contacts"][-1]),
             "contacts_mean": float(s["contacts"][1:].mean())}
        if n.startswith("jaeger"):
            k = int(s["mean_len"].argmax())
            r.update({
                "mean_len_peak": float(s["mean_len"][k]), "ez_at_mean_len_peak": float(s["ez"][k]),
                "mean_len_avg": float(s["mean_len"][1:].mean()),
                "mean_len_final": float(s["mean_len"][-1]),
                "mean_len_first_output": float(s["mean_len"][1]),
                "max_len": float(s["max_len"].max()),
                "arena_bytes_per_contact_at_peak": float(s["bytes"][k]),
                "arena_bytes_per_contact_max": float(s["bytes"].max()),
                "record_bytes_per_contact_at_peak": 8.0 * (HEADER_DOUBLES + POINT_DOUBLES * s["mean_len"][k]),
                "records_at_peak": float(s["records"][k]),
                "merges_per_contact_step": float(s["merges"][-1] / max(s["records"][1:].mean(), 1) / steps),
            })
            ids_a, s_a = atom_stresses(os.path.join(out, "final_%s.atoms" % n))
            r["atom_stress_error"] = stress_error(ids_a, s_a, ids_e, s_e)
            fa = contact_forces(os.path.join(out, "final_%s.contacts" % n))
            r["contact_force_error"], r["contacts_shared"] = force_error(fa, f_e)
            ids_a, s_a = atom_stresses(os.path.join(out, "final_w_%s.atoms" % n))
            r["window_atom_stress_error"] = stress_error(ids_a, s_a, wids_e, ws_e)
            fa = contact_forces(os.path.join(out, "final_w_%s.contacts" % n))
            r["window_contact_force_error"], _ = force_error(fa, wf_e)
            ws = contact_series(os.path.join(out, "window_w_%s.contacts" % n))
            r["window_error_series"] = [[st - args.window[0], force_error(ws[st], wser_e[st])[0]]
                                        for st in sorted(ws) if st in wser_e]
            w = read_series(os.path.join(out, "biax_w_%s.dat" % n))
            r["window_mean_len_end"] = float(w["mean_len"][-1])
            r["window_merges"] = float(w["merges"][-1])
            m = min(len(s["qp"]), len(ex["qp"]))
            r["qp_max_abs_diff_vs_exact"] = float(np.abs(s["qp"][:m] - ex["qp"][:m]).max())
        runs[key(n)] = r

    e = runs["jaeger"]
    derived = {
        "beta01_over_exact_mean_len_peak": runs["jaeger_beta01"]["mean_len_peak"] / e["mean_len_peak"],
        "beta02_over_beta01_mean_len_peak": runs["jaeger_beta02"]["mean_len_peak"] / runs["jaeger_beta01"]["mean_len_peak"],
        "beta01_over_exact_bytes_at_peak": runs["jaeger_beta01"]["arena_bytes_per_contact_at_peak"] / e["arena_bytes_per_contact_at_peak"],
        "beta02_over_beta01_bytes_at_peak": runs["jaeger_beta02"]["arena_bytes_per_contact_at_peak"] / runs["jaeger_beta01"]["arena_bytes_per_contact_at_peak"],
        "cap1_max_len_over_cap": runs["jaeger_cap%d" % cap1]["max_len"] / cap1,
        "cap2_max_len_over_cap": runs["jaeger_cap%d" % cap2]["max_len"] / cap2,
        "cap1_window_contact_force_error": runs["jaeger_cap%d" % cap1]["window_contact_force_error"],
        "exact_growth_first_output_to_peak": e["mean_len_peak"] / max(e["mean_len_first_output"], 1e-30),
        "exact_max_len_over_steps": e["max_len"] / steps,
        "beta01_window_force_error_over_control": runs["jaeger_beta01"]["window_contact_force_error"] / max(runs["jaeger_resorted"]["window_contact_force_error"], 1e-300),
        "beta02_over_beta01_window_force_error": runs["jaeger_beta02"]["window_contact_force_error"] / runs["jaeger_beta01"]["window_contact_force_error"],
        "mindlin_time_spread": abs(times["mindlin"][0] - times["mindlin_again"][0]) / t_ref,
    }
    res = {"size": args.size, "atoms": natoms, "window_start_step": args.window[0],
           "window_steps": args.window[1], "solid_fraction_start": phi0, "steps": steps,
           "axial_strain": strain, "strain_per_step": strain / steps, "caps": [cap1, cap2],
           "mindlin_loop_time_s": t_ref, "runs": runs, "derived": derived}
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(res, f, indent=1)

    # ---- table
    lines = ["# biaxial-memory: %d spheres, plane-strain biaxial compression to %.2g %% axial strain "
             "in %d steps (%.2g per step)" % (natoms, 100 * strain, steps, strain / steps), "",
             "History statistics from gran/jaeger's history fix (at the output with the largest mean "
             "length, \"peak\"; arena bytes include slack and free records). Errors against the exact "
             "run (beta 0, unbounded): contact forces (relative RMS over the exact run's contacts) and "
             "per-atom contact stresses (relative RMS), after the window (every variant continues the "
             "exact state of step %d for %d steps) and at the end of the separate runs (trajectories "
             "apart). Time: loop time against LAMMPS granular hertz/material + mindlin (mean of its "
             "two runs, %.1f s)." % (args.window[0], args.window[1], t_ref), "",
             "| variant | mean length, peak (strain) | mean length, end | longest | arena bytes per contact, peak | merges per contact and step | contact force error, window / end | per-atom stress error, window / end | max abs diff of q/p | loop time / mindlin |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for n, label in variants:
        r = runs[key(n)]
        exact = n == "jaeger"
        lines.append("| %s | %.1f (%.2f %%) | %.1f | %d | %.0f | %.2g | %s | %s | %s | %.2f |" % (
            label, r["mean_len_peak"], 100 * r["ez_at_mean_len_peak"], r["mean_len_final"], r["max_len"],
            r["arena_bytes_per_contact_at_peak"], r["merges_per_contact_step"],
            "—" if exact else "%.2g / %.2g" % (r["window_contact_force_error"], r["contact_force_error"]),
            "—" if exact else "%.2g / %.2g" % (r["window_atom_stress_error"], r["atom_stress_error"]),
            "—" if exact else "%.3f" % r["qp_max_abs_diff_vs_exact"], r["time_vs_mindlin"]))
    lines += ["", "| run | q/p peak (axial strain) | q/p end | volumetric strain end | sigma_xx/p0 after 10 % of the run | contacts, mean | loop time (s) |",
              "|---|---|---|---|---|---|---|"]
    for n, _ in variants + [(x, "") for x in refs]:
        r = runs[key(n)]
        lines.append("| %s | %.3f (%.2f %%) | %.3f | %.4f | %.3f–%.3f | %.0f | %.2f |" % (
            n, r["qp_peak"], 100 * r["ez_at_qp_peak"], r["qp_final"], r["ev_final"],
            r["sxx_over_p0_min_after_10pct_of_run"], r["sxx_over_p0_max_after_10pct_of_run"],
            r["contacts_mean"], r["loop_time_s"]))
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))

    # ---- plot
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axs = plt.subplots(2, 3, figsize=(16, 8))
    ax = axs[:, :2]
    styles = {"jaeger": ("k", "-"), "jaeger_b0.1": ("tab:blue", "-"), "jaeger_b0.2": ("tab:green", "-"),
              "jaeger_cap%d" % cap1: ("tab:red", "--"), "jaeger_cap%d" % cap2: ("tab:orange", "--"),
              "jaeger_resorted": ("0.6", ":"), "mindlin": ("tab:purple", "-."), "mindlin_again": ("tab:purple", ":")}
    for n in list(series):
        s = series[n]
        c, ls = styles[n]
        lab = dict(variants).get(n, "granular hertz/material + mindlin" if n == "mindlin" else None)
        ax[0, 0].plot(100 * s["ez"], s["qp"], color=c, ls=ls, label=lab)
        ax[0, 1].plot(100 * s["ez"], -100 * s["ev"], color=c, ls=ls, label=lab)
        if n.startswith("jaeger"):
            ax[1, 0].plot(100 * s["ez"], s["mean_len"], color=c, ls=ls, label=lab)
            ax[1, 1].plot(100 * s["ez"], s["bytes"], color=c, ls=ls, label=lab)
    ax[0, 0].set_ylabel("q/p = (σzz − σxx)/p")
    ax[0, 1].set_ylabel("dilation −εv (%)")
    ax[1, 0].set_ylabel("mean history length (points per contact)")
    ax[1, 1].set_ylabel("arena bytes per contact")
    ax[1, 1].set_yscale("log")
    for a in ax.flat:
        a.set_xlabel("axial strain εz (%)")
        a.grid(alpha=0.3)
    aw = axs[0, 2]
    for n, lab in variants[1:]:
        ser = np.array(runs[key(n)]["window_error_series"])
        ok = ser[:, 1] > 0
        c, ls = styles[n]
        aw.plot(ser[ok, 0], ser[ok, 1], color=c, ls=ls, marker="o", label=lab)
    aw.set_yscale("log")
    aw.set_xlabel("steps into the window (from step %d)" % args.window[0])
    aw.set_ylabel("contact force error against the exact run")
    aw.grid(alpha=0.3)
    aw.legend(fontsize=7)
    axs[1, 2].axis("off")
    ax[0, 0].legend(fontsize=7)
    ax[1, 0].legend(fontsize=7)
    fig.suptitle("Plane-strain biaxial compression, %d spheres, %d steps to %.2g %%" % (natoms, steps, 100 * strain))
    fig.tight_layout()
    fig.savefig(os.path.join(out, "biaxial_memory.png"), dpi=110)


if __name__ == "__main__":
    main()
