#!/usr/bin/env python3
"""Relaxation time against time step: table, plot and results.json from in.relax runs.

usage: analyze.py OUTDIR      (reads OUTDIR/ek_<model>_<rot>_<dt/tc>.dat, OUTDIR/times.txt)
writes OUTDIR/results.md, OUTDIR/results.json, OUTDIR/relaxation_timestep.png

tR is fitted to the integral of the kinetic energy, I(t) = int_t^T Ek dt', which for
Ek ~ exp(-t/tR) is C (exp(-t/tR) - exp(-T/tR)) (T = end of the run): integrating first
removes the oscillation of Ek within a period, so no peak picking or window tuning is
needed. Fit range 400 t_c .. 1000 t_c, where the slowest mode dominates.

The reference, "continuum", is the same fit applied to the exact solution of the same
linear damped system without time discretisation (M q'' + C q' + K q = F from rest, built
from the contact geometry for small displacements with the springs and dashpots of
in.relax), sampled in the same windows: the fit's own bias (other modes have not quite
died out by 400 t_c) is then the same on both sides. Also given: the late-time limit, tR
of the slowest mode, -1/(2 Re lambda).
"""
import glob
import json
import os
import re
import sys

import numpy as np

T1, T2 = 400.0, 1000.0


def fit_tr(t, e, w):
    """t: window centres (t_c), e: window means of Ek, w: window length (t_c)"""
    integral = np.cumsum((e * w)[::-1])[::-1]
    ts = t - w / 2
    tend = ts[-1] + w
    sel = (ts >= T1) & (ts <= T2)
    x, y = ts[sel], np.log(integral[sel])

    def sse(tau):
        f = np.log(np.exp(-x / tau) - np.exp(-tend / tau))
        return np.sum((y - f - np.mean(y - f)) ** 2)

    lo, hi, g = 5.0, 5000.0, (5 ** 0.5 - 1) / 2   # golden-section search
    for _ in range(200):
        c, d = hi - g * (hi - lo), lo + g * (hi - lo)
        if sse(c) < sse(d):
            hi = d
        else:
            lo = c
    return 0.5 * (lo + hi)


def linear_system(meta, rot):
    """M, C, K and the applied step force of in.relax, linearised about the start state
    (small displacements; the contact point at the sphere radius)"""
    m, kn, kt = float(meta["m"]), float(meta["kn"]), float(meta["kt"])
    nun, nut = float(meta["nu_n"]), float(meta["nu_t"])
    R, F = 0.05, 1.0e4
    if rot == "no":            # q = (ux, uz); one contact, normal at 45 degrees
        normals = [np.array([-1.0, -1.0]) / np.sqrt(2)]
        M = np.diag([m, m])
        f = np.array([-F, 0.0])
    else:                      # q = (ux, uz, theta_y); two contacts at -+45 deg below
        normals = [np.array([-1.0, -1.0]) / np.sqrt(2), np.array([1.0, -1.0]) / np.sqrt(2)]
        M = np.diag([m, m, 0.4 * m * R * R])
        a = np.radians(20.0)
        f = np.array([-F * np.sin(a), -F * np.cos(a), 0.0])   # the preload is in balance
    n = M.shape[0]
    K, C = np.zeros((n, n)), np.zeros((n, n))
    for nv in normals:
        t = np.array([nv[1], -nv[0]])       # y x n: the tangent the spin moves
        bn, bt = np.zeros(n), np.zeros(n)
        bn[:2], bt[:2] = nv, t
        if n == 3:
            bt[2] = R
        K += kn * np.outer(bn, bn) + kt * np.outer(bt, bt)
        C += nun * np.outer(bn, bn) + nut * np.outer(bt, bt)
    return M, C, K, f


def continuum(meta, rot, t_centres, w):
    """Exact solution of M q'' + C q' + K q = f from rest: (window means of Ek at the
    given window centres, in t_c; late-time tR/t_c of the slowest mode)"""
    M, C, K, f = linear_system(meta, rot)
    tc = float(meta["tc"])
    n = M.shape[0]
    Minv = np.linalg.inv(M)
    A = np.block([[np.zeros((n, n)), np.eye(n)], [-Minv @ K, -Minv @ C]])
    lam, V = np.linalg.eig(A)
    y0 = np.concatenate([np.linalg.solve(K, f), np.zeros(n)])   # start minus equilibrium
    coef = np.linalg.solve(V, -y0)
    k = 400                                                     # points per window
    ek = []
    for tcen in t_centres:
        ts = (tcen - w / 2 + (np.arange(k) + 0.5) * w / k) * tc
        y = (V @ (coef[:, None] * np.exp(lam[:, None] * ts[None, :]))).real
        qd = y[n:]
        ek.append(np.mean(0.5 * np.einsum("it,ij,jt->t", qd, M, qd)))
    return np.array(ek), -1.0 / (2.0 * np.max(lam.real)) / tc


def main():
    out = sys.argv[1]
    runs = {}
    for f in glob.glob(os.path.join(out, "ek_*.dat")):
        mt = re.match(r"ek_(.+)_(no|yes)_([0-9.eE+-]+)\.dat$", os.path.basename(f))
        if not mt:
            continue
        model, rot, dtf = mt.group(1), mt.group(2), float(mt.group(3))
        meta = dict(re.findall(r"(\S+) ([0-9.eE+-]+)", open(f).readline()))
        d = np.loadtxt(f, comments="#")
        if d.ndim != 2 or len(d) < 3:
            runs[(model, rot, dtf)] = dict(tr=None, meta=meta, t=None)
            continue
        tr = fit_tr(d[:, 1], d[:, 2], float(meta["window_tc"])) if d[-1, 1] > T2 else None
        runs[(model, rot, dtf)] = dict(tr=tr, meta=meta, t=d[:, 1])
    if not runs:
        sys.exit("no ek_*.dat in " + out)
    times = {}
    tf = os.path.join(out, "times.txt")
    if os.path.exists(tf):
        for line in open(tf):
            k = line.split()
            key = (k[0], k[1], float(k[2]))
            times[key] = float(k[3])
            if len(k) > 4 and k[4] != "ok" and key in runs:
                runs[key]["tr"] = None          # blew up: beyond the stability limit

    models = [m for m in ("kuhn", "hooke_history") if any(k[0] == m for k in runs)]
    rots = [r for r in ("no", "yes") if any(k[1] == r for k in runs)]
    dts = sorted({k[2] for k in runs}, reverse=True)
    res = {"cases": {}, "continuum": {}, "slowest_mode": {}}
    for rot in rots:
        v = min((v for k, v in runs.items() if k[1] == rot and v["tr"] is not None),
                key=lambda v: float(v["meta"]["dt/tc"]))      # the finest windows
        w = float(v["meta"]["window_tc"])
        ek, slow = continuum(v["meta"], rot, v["t"], w)
        res["continuum"][rot] = fit_tr(v["t"], ek, w)
        res["slowest_mode"][rot] = slow
    for (model, rot, dtf), v in runs.items():
        key = "%s_%s" % (model, rot)
        c = res["cases"].setdefault(key, {"model": model, "rot": rot, "tr": {},
                                          "unstable": []})
        if v["tr"] is None:
            c["unstable"].append(dtf)
        else:
            c["tr"]["%g" % dtf] = v["tr"]
    for key, c in res["cases"].items():
        dmin = min(float(x) for x in c["tr"])
        ref = c["tr"]["%g" % dmin]
        cont = res["continuum"][c["rot"]]
        c["tr_smallest_dt"] = ref
        c["smallest_dt"] = dmin
        c["smallest_dt_vs_continuum"] = ref / cont - 1.0
        # largest spread against the smallest step, over dt/tc <= 0.3 and over all
        c["max_dev_dt_le_0p3"] = max(abs(t / ref - 1) for x, t in c["tr"].items()
                                    if float(x) <= 0.3 + 1e-12)
        # the paper's T_t: the largest dt/tc whose tR is within 1 % of the converged one,
        # with every smaller step also within 1 %
        tt = dmin
        for x in sorted((float(x) for x in c["tr"])):
            if abs(c["tr"]["%g" % x] / ref - 1) <= 0.01:
                tt = x
            else:
                break
        c["Tt_1pct"] = tt
    json.dump(res, open(os.path.join(out, "results.json"), "w"), indent=1)

    label = {"kuhn": "gran/kuhn", "hooke_history": "gran/hooke/history"}
    rlabel = {"no": "translation only", "yes": "with rotation (groove)"}
    cols = [(m, r) for r in rots for m in models]
    lines = ["Relaxation time tR / t_c of the kinetic energy (t_c = %.3e s, kn = 4e8 N/m, "
             "mu = 500)" % float(next(iter(runs.values()))["meta"]["tc"]), "",
             "| dt / t_c | " + " | ".join("%s, %s" % (label[m], rlabel[r]) for m, r in cols)
             + " |", "|---|" + "---|" * len(cols)]
    for dtf in dts:
        cells = []
        for m, r in cols:
            v = runs.get((m, r, dtf))
            if v is None:
                cells.append("-")
                continue
            if v["tr"] is None:
                cells.append("unstable")
                continue
            ref = res["cases"]["%s_%s" % (m, r)]["tr_smallest_dt"]
            cells.append("%.2f (%+.2f %%)" % (v["tr"], 100 * (v["tr"] / ref - 1)))
        lines.append("| %g | " % dtf + " | ".join(cells) + " |")
    lines.append("| continuum | " + " | ".join("%.2f" % res["continuum"][r] for m, r in cols)
                 + " |")
    lines.append("| slowest mode | " + " | ".join("%.2f" % res["slowest_mode"][r]
                                                  for m, r in cols) + " |")
    lines += ["", "In brackets: difference from the smallest time step of the column. "
              "Continuum: the same fit on the exact solution without time steps; slowest "
              "mode: its late-time limit.",
              "T_t (largest dt/t_c within 1 % of the converged tR, all smaller steps too): "
              + ", ".join("%s %s: %g" % (label[m], rlabel[r],
                                          res["cases"]["%s_%s" % (m, r)]["Tt_1pct"])
                          for m, r in cols),
              "Paper (Gear predictor-corrector + incremental Cundall spring, discs): "
              "T_t = 1e-3 with rotation, 1e-4 without."]
    if times:
        tot = sum(times.values())
        lines.append("Wall time of the LAMMPS runs: %.0f s in all; the smallest step: %s"
                     % (tot, ", ".join("%s %s %.0f s" % (label[k[0]], k[1], s)
                                       for k, s in sorted(times.items())
                                       if k[2] == min(dts))))
    md = "\n".join(lines) + "\n"
    open(os.path.join(out, "results.md"), "w").write(md)
    print(md)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(rots), figsize=(5.2 * len(rots), 4.2), squeeze=False)
    for ax, r in zip(axes[0], rots):
        c = res["continuum"][r]
        ax.set_ylim(0.9 * c, 1.1 * c)
        for m, mk in zip(models, ("o-", "s--")):
            xs = [d for d in dts if (m, r, d) in runs and runs[(m, r, d)]["tr"] is not None]
            ax.semilogx(xs, [runs[(m, r, d)]["tr"] for d in xs], mk, label=label[m], ms=5,
                        mfc="none" if m == "hooke_history" else None)
        ax.axhline(res["continuum"][r], color="grey", ls=":", label="continuum (exact, same fit)")
        tt_paper = 1e-3 if r == "yes" else 1e-4
        left = min(min(dts), tt_paper) / 3
        ax.axvspan(left, tt_paper, color="0.92", label="paper: converged only here")
        ax.set_xlim(left, 1.5)
        bad = sorted({d for (m, rr, d), v in runs.items() if rr == r and v["tr"] is None})
        for d in bad:
            ax.axvline(d, color="red", lw=0.8, ls="--")
        if bad:
            ax.text(bad[-1], ax.get_ylim()[0], " unstable", color="red", fontsize=8,
                    rotation=90, va="bottom", ha="right")
        ax.set_xlabel("dt / t_c")
        ax.set_ylabel("relaxation time tR / t_c")
        ax.set_title(rlabel[r], fontsize=10)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "relaxation_timestep.png"), dpi=120)


if __name__ == "__main__":
    main()
