#!/usr/bin/env python3
"""Direct shear: turn the runs of in.shear into a table, a plot and results.json.

usage: analyze.py OUTDIR      (reads OUTDIR/shear_<model>.dat, time_<model>.txt)
writes OUTDIR/results.md, OUTDIR/results.json, OUTDIR/direct_shear.png

Per model:
  peak      largest shear/normal stress ratio tau/sigma_n, after a running mean over
            0.5 mm of shear displacement, and where it occurs (s_peak)
  residual  mean tau/sigma_n over the last 30 % of the shear displacement
  dilation  rise of the lid from the start of shearing to the end (mm)
"""
import glob
import json
import os
import re
import sys

import numpy as np

LABELS = {
    "kuhn": "gran/kuhn (history)",
    "jaeger": "gran/jaeger (Hertz-Mindlin, history)",
    "hooke_history": "gran/hooke/history (history)",
    "hooke": "gran/hooke (no history)",
    "pseudo": "pseudo-history (u_t = v_t dt)",
}
ORDER = ["kuhn", "jaeger", "hooke_history", "hooke", "pseudo"]
# Fleischmann et al., Sec. 3 (1800 spheres, mu = 0.5): with history peak ~2, residual ~1;
# without (or with pseudo-) history ~0.25 throughout
PAPER = {"history": {"peak": 2.0, "residual": 1.0}, "none": {"peak": 0.25, "residual": 0.25}}


def load(path):
    head = open(path).readline()
    meta = dict(re.findall(r"(sigma_n|v|A|grains) ([0-9.eE+-]+)", head))
    data = np.loadtxt(path, comments="#")
    if data.ndim == 1:
        data = data[None, :]
    step, s, fx, flid, zlid, ke, nc = data.T
    sigma, area = float(meta["sigma_n"]), float(meta["A"])
    return dict(s=s, ratio=-fx / (sigma * area), flid=flid / (sigma * area), zlid=zlid,
                meta=meta)


def analyse(d):
    s, r = d["s"], d["ratio"]
    ds = np.median(np.diff(s)) if len(s) > 1 else 1.0
    w = max(1, int(round(0.0005 / ds)))
    rs = np.convolve(r, np.ones(w) / w, mode="valid")
    ss = np.convolve(s, np.ones(w) / w, mode="valid")
    i = int(np.argmax(rs))
    smax = s[-1]
    tail = s >= 0.7 * smax
    return dict(peak=float(rs[i]), s_peak_mm=float(ss[i] * 1e3),
                residual=float(np.mean(r[tail])), residual_std=float(np.std(r[tail])),
                dilation_mm=float((d["zlid"][-1] - d["zlid"][0]) * 1e3),
                lid_load=float(np.mean(d["flid"][tail])),
                smax_mm=float(smax * 1e3), smooth=(ss, rs))


def main():
    out = sys.argv[1]
    files = {os.path.basename(f)[6:-4]: f for f in glob.glob(os.path.join(out, "shear_*.dat"))}
    models = [m for m in ORDER if m in files] + sorted(set(files) - set(ORDER))
    if not models:
        sys.exit("no shear_*.dat in " + out)
    res, curves, meta = {}, {}, None
    for m in models:
        d = load(files[m])
        meta = d["meta"]
        a = analyse(d)
        curves[m] = (d, a.pop("smooth"))
        tf = os.path.join(out, "time_%s.txt" % m)
        a["wall_s"] = int(open(tf).read().split()[1]) if os.path.exists(tf) else None
        res[m] = a
    hist = [res[m]["residual"] for m in ("kuhn", "jaeger", "hooke_history") if m in res]
    none = [res[m]["residual"] for m in ("hooke", "pseudo") if m in res]
    summary = {}
    if hist and none:
        summary["residual_history_over_no_history"] = min(hist) / max(none)
    json.dump(dict(grains=int(float(meta["grains"])), sigma_n_Pa=float(meta["sigma_n"]),
                   speed_m_s=float(meta["v"]), models=res, summary=summary),
              open(os.path.join(out, "results.json"), "w"), indent=1)

    lines = ["Direct shear, %s grains, sigma_n = %.3g kPa, %.3g mm/s, %.3g mm of shear"
             % (meta["grains"], float(meta["sigma_n"]) / 1e3, float(meta["v"]) * 1e3,
                max(r["smax_mm"] for r in res.values())), "",
             "| model | peak tau/sigma | at s (mm) | residual tau/sigma | lid rise (mm) | wall time (s) |",
             "|---|---|---|---|---|---|"]
    for m in models:
        r = res[m]
        lines.append("| %s | %.2f | %.1f | %.2f +- %.2f | %+.2f | %s |" % (
            LABELS.get(m, m), r["peak"], r["s_peak_mm"], r["residual"], r["residual_std"],
            r["dilation_mm"], r["wall_s"] if r["wall_s"] is not None else "-"))
    lines += ["", "Paper (Fleischmann et al., Fig. 2, 1800 spheres): with history peak ~2, "
              "residual ~1; no history and pseudo-history ~0.25 throughout.",
              "Residual = mean over the last 30 % of the displacement (+- its standard "
              "deviation); peak after a 0.5 mm running mean."]
    if summary:
        lines.append("Smallest residual with history / largest without: %.1f"
                     % summary["residual_history_over_no_history"])
    md = "\n".join(lines) + "\n"
    open(os.path.join(out, "results.md"), "w").write(md)
    print(md)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax, bx) = plt.subplots(2, 1, figsize=(7, 7.5), sharex=True,
                                 gridspec_kw=dict(height_ratios=[2.2, 1]))
    for m in models:
        d, (ss, rs) = curves[m]
        ls = "-" if m in ("kuhn", "jaeger", "hooke_history") else "--"
        line, = ax.plot(d["s"] * 1e3, d["ratio"], ls, lw=0.5, alpha=0.35)
        ax.plot(ss * 1e3, rs, ls, color=line.get_color(), lw=1.6, label=LABELS.get(m, m))
        bx.plot(d["s"] * 1e3, (d["zlid"] - d["zlid"][0]) * 1e3, ls, color=line.get_color())
    for y, v in ((PAPER["history"]["peak"], "paper, with history: peak"),
                 (PAPER["history"]["residual"], "paper, with history: residual"),
                 (PAPER["none"]["residual"], "paper, no or pseudo history")):
        ax.axhline(y, color="grey", lw=0.8, ls=":")
        ax.text(0.1, y + 0.02, v, color="grey", fontsize=8)
    ax.set_ylabel("shear stress / normal stress")
    top = max(max(c[1][1]) for c in curves.values())
    ax.set_ylim(0, 1.5 * max(top, 1.4))      # room for the legend and the paper's peak
    ax.legend(fontsize=8, loc="upper right", framealpha=0.9)
    ax.set_title("Direct shear, %s spheres of 5 mm, sigma_n %.0f kPa, %.3g mm/s"
                 % (meta["grains"], float(meta["sigma_n"]) / 1e3, float(meta["v"]) * 1e3),
                 fontsize=10)
    bx.set_xlabel("shear displacement (mm)")
    bx.set_ylabel("lid rise (mm)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "direct_shear.png"), dpi=120)


if __name__ == "__main__":
    main()
