#!/usr/bin/env python3
"""Shared by direct-shear and relaxation-timestep: compare a run's results.json with the
loose expectations of expected.json.

usage: check.py [--present] RESULTS.json EXPECTED.json
expected.json holds "ranges": {"dotted.path.in.results": [lo, hi], ...}; lo or hi may be
null (no bound). Every path must exist in the results, except with --present (a run of a
subset of the cases), which skips the paths that are missing. Exit code 0 if all checked
values are within their ranges, 1 otherwise (2 for unreadable input).
"""
import json
import sys


def lookup(tree, path):
    for key in path.split("."):
        if not isinstance(tree, dict) or key not in tree:
            return None
        tree = tree[key]
    return tree


def main():
    args = sys.argv[1:]
    present = "--present" in args
    args = [a for a in args if a != "--present"]
    if len(args) != 2:
        print(__doc__)
        return 2
    try:
        res = json.load(open(args[0]))
        exp = json.load(open(args[1]))
    except (OSError, ValueError) as e:
        print("check: cannot read input:", e)
        return 2
    bad = checked = 0
    for path, (lo, hi) in exp["ranges"].items():
        v = lookup(res, path)
        if not isinstance(v, (int, float)):
            if present:
                print("skip %-48s not in this run" % path)
                continue
            print("FAIL %-48s missing" % path)
            bad += 1
            checked += 1
            continue
        checked += 1
        ok = (lo is None or v >= lo) and (hi is None or v <= hi)
        bad += not ok
        print("%s %-48s %10.4g   expected [%s, %s]" % ("ok  " if ok else "FAIL", path, v,
                                                       lo, hi))
    print("check: %d of %d within expectations" % (checked - bad, checked))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
