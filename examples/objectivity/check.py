#!/usr/bin/env python3
"""Compare a run of examples/objectivity (results.json written by objectivity.py) with the
loose expectations in expected.json. Prints one line per check; exit code 1 if any fails.

usage: check.py RESULTS_JSON [EXPECTED_JSON]
"""
import json
import os
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    res_path = sys.argv[1]
    exp_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "expected.json")
    with open(res_path) as f:
        res = json.load(f)
    with open(exp_path) as f:
        exp = json.load(f)
    variants, pair = res.get("variants", {}), res.get("two_spheres", {})
    failures = []

    def check(ok, what):
        print(("ok    " if ok else "FAIL  ") + what)
        if not ok:
            failures.append(what)

    for name, e in exp["variants"].items():
        r = variants.get(name)
        if r is None:
            check(False, f"{name}: no result")
            continue
        if "max_error_pct_below" in e:
            check(r["max_error_pct"] < e["max_error_pct_below"],
                  f"{name}: max error over 0-90 deg {r['max_error_pct']:.3g} % < {e['max_error_pct_below']} %")
        if "error_pct_above" in e:
            check(r["error_pct"] > e["error_pct_above"],
                  f"{name}: error at 90 deg {r['error_pct']:.3g} % > {e['error_pct_above']} %")
        sl = r.get("sliding_fraction", [])
        if "sliding_fraction_change_below" in e:
            ok = len(sl) >= 2 and abs(sl[-1] - sl[0]) < e["sliding_fraction_change_below"]
            check(ok, f"{name}: contacts at the friction limit unchanged by the rotation ({sl})")
        if "sliding_fraction_90_above" in e:
            ok = len(sl) >= 2 and sl[-1] > e["sliding_fraction_90_above"]
            check(ok, f"{name}: contacts at the friction limit after 90 deg {sl[-1] if sl else None} "
                      f"> {e['sliding_fraction_90_above']}")
        lo, hi = exp["prepared_qp_between"]
        qp = r.get("prepared_qp_periodic")
        check(qp is not None and lo <= qp <= hi, f"{name}: prepared q/p {qp} in [{lo}, {hi}]")

    # the three gran/kuhn variants rotate the same prepared state
    kv = [variants[n]["original_kPa"] for n in ("kuhn", "kuhn_project", "kuhn_none") if n in variants]
    if len(kv) == 3:
        scale = max(abs(v) for row in kv[0] for v in row)
        diff = max(abs(a - b) for other in kv[1:] for ra, rb in zip(kv[0], other) for a, b in zip(ra, rb))
        tol = exp["kuhn_variants_same_original_rel"]
        check(diff <= tol * scale, f"gran/kuhn variants start from the same stress (max difference {diff:.3g} kPa)")

    for model, e in exp.get("two_spheres", {}).items():
        r = pair.get(model)
        if r is None:
            check(False, f"two spheres, {model}: no result")
            continue
        m = r["mobilisation"]
        if "mobilisation_below" in e:
            check(m < e["mobilisation_below"], f"two spheres, {model}: |ft|/(mu fn) {m:.3g} < {e['mobilisation_below']}")
        if "mobilisation_above" in e:
            check(m > e["mobilisation_above"], f"two spheres, {model}: |ft|/(mu fn) {m:.3g} > {e['mobilisation_above']}")

    print(f"objectivity check: {'FAILED (' + str(len(failures)) + ')' if failures else 'passed'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
