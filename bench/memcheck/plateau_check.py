#!/usr/bin/env python3
"""plateau_check.py LOG --cap N: the gran/jaeger history arena stops growing under history/max N
(N = 0: no bound, the default pruning rule alone).

LOG is LAMMPS's screen output of bench/memcheck/in.slowshear or in.vibration (thermo columns
f_DEMC_GRAN_JAEGER_HISTORY0[1..5]: contacts, mean and max stack length, arena bytes per
contact, merges). Prints the samples and asserts, over the thermo samples after step 0:
  - there are contacts in every sample, and at least 8 samples;
  - with N > 0: no stack is longer than N points, and bytes per contact stay below twice the largest record a contact can have (room for
    N + 1 points: a full record restored at re-neighboring gets one more); the arena holds
    each contact's record and the records freed since the last re-neighboring;
  - bytes per contact plateau: their largest value over the second half of the run is at most
    (1 + tolerance) times the largest over the first half.
Exit code 1 with the reason when an assertion fails.
Used by bench/memcheck/run and by the ctest memcheck.plateau (bench/memcheck/memcheck.sh)."""
import argparse
import re
import sys

FIX = "f_DEMC_GRAN_JAEGER_HISTORY0"
HEADER_DOUBLES = 18     # FixJaegerHistory::R_HEADER
POINT_DOUBLES = 4       # one history point (z, P, tx, ty)
MIN_CAPACITY = 4        # records hold MIN_CAPACITY * 2^k points


def record_bytes(cap):
    c = MIN_CAPACITY
    while c < cap:
        c *= 2
    return 8 * (HEADER_DOUBLES + POINT_DOUBLES * c)


def samples(text):
    rows, cols = [], None
    for line in text.splitlines():
        words = line.split()
        if words and words[0] == "Step":
            cols = words if FIX + "[4]" in words else None
            continue
        if cols and len(words) == len(cols) and re.match(r"^\d+$", words[0]):
            rows.append({c: float(w) for c, w in zip(cols, words)})
        elif cols and line.startswith("Loop time"):
            cols = None
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("log")
    ap.add_argument("--cap", type=int, required=True, help="history/max of the run")
    ap.add_argument("--tolerance", type=float, default=0.05)
    a = ap.parse_args()
    rows = [r for r in samples(open(a.log, errors="replace").read()) if r["Step"] > 0]
    print("%10s %10s %10s %10s %14s %12s" % ("step", "contacts", "mean len", "max len", "bytes/contact", "merges"))
    for r in rows:
        print("%10d %10d %10.3f %10d %14.1f %12d" % (r["Step"], r[FIX + "[1]"], r[FIX + "[2]"], r[FIX + "[3]"],
                                                     r[FIX + "[4]"], r[FIX + "[5]"]))
    fail = []
    if len(rows) < 8:
        fail.append("only %d thermo samples after step 0 (need 8)" % len(rows))
    else:
        if min(r[FIX + "[1]"] for r in rows) <= 0:
            fail.append("a sample without contacts")
        longest = max(r[FIX + "[3]"] for r in rows)
        if a.cap > 0 and longest > a.cap:
            fail.append("a stack of %d points, longer than history/max %d" % (longest, a.cap))
        bpc = [r[FIX + "[4]"] for r in rows]
        bound = 2 * record_bytes(a.cap + 1)
        if a.cap > 0 and max(bpc) > bound:
            fail.append("%.1f bytes per contact, above twice a record for %d points (%d)"
                        % (max(bpc), a.cap + 1, bound))
        half = len(bpc) // 2
        first, second = max(bpc[:half]), max(bpc[half:])
        print("bytes per contact: largest %.1f over the first half, %.1f over the second (record %d)"
              % (first, second, record_bytes(a.cap)))
        if second > (1 + a.tolerance) * first:
            fail.append("bytes per contact still grow: %.1f over the second half against %.1f over the first"
                        % (second, first))
    for f in fail:
        print("FAILED: " + f)
    if not fail:
        print("plateau: ok")
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
