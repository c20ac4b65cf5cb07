#!/usr/bin/env python3
"""Shared by the examples' check.py: compare a run's results.json with the example's
expected.json.

usage (from an example's check.py): check(example_dir, argv) with argv[1] = DIR holding
results.json (default: the example's folder)

expected.json holds a list of checks; each names a value of results.json by a dotted path
(list elements by index) and gives bounds: "max" and/or "min" (applied to every element of
a list), or "value" with "rtol"/"atol" (a number or a list of the same length).
Prints one line per check and exits 1 if any fails (2 if a value is missing).
"""
import json
import os
import sys


def lookup(d, path):
    for part in path.split("."):
        d = d[int(part)] if isinstance(d, list) else d[part]
    return d


def check(here, argv):
    d = argv[1] if len(argv) > 1 else here
    with open(os.path.join(d, "results.json")) as f:
        res = json.load(f)
    with open(os.path.join(here, "expected.json")) as f:
        exp = json.load(f)
    failed = 0
    for c in exp["checks"]:
        try:
            got = lookup(res, c["path"])
        except (KeyError, IndexError, ValueError):
            print(f"MISSING {c['path']}  ({c.get('what', '')})")
            sys.exit(2)
        vals = got if isinstance(got, list) else [got]
        ok = True
        if "max" in c:
            ok &= all(v <= c["max"] for v in vals)
        if "min" in c:
            ok &= all(v >= c["min"] for v in vals)
        if "value" in c:
            want = c["value"] if isinstance(c["value"], list) else [c["value"]]
            if len(want) != len(vals):
                ok = False
            else:
                rtol, atol = c.get("rtol", 0.0), c.get("atol", 0.0)
                ok &= all(abs(v - w) <= atol + rtol * abs(w) for v, w in zip(vals, want))
        bounds = ", ".join(f"{k} {c[k]}" for k in ("min", "max", "value", "rtol", "atol") if k in c)
        shown = ", ".join(f"{v:.6g}" for v in vals)
        print(f"{'ok  ' if ok else 'FAIL'} {c.get('what', c['path'])}: [{shown}]  ({bounds})")
        failed += not ok
    print(f"{len(exp['checks']) - failed} of {len(exp['checks'])} checks passed")
    sys.exit(1 if failed else 0)

