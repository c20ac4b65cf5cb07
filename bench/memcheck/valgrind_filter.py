#!/usr/bin/env python3
"""valgrind_filter.py LOG...: the records of valgrind memcheck logs that concern this package.

Open MPI and PMIx leak at start-up and LAMMPS has a few reports of its own: none of them is
ours. A record counts when it has a frame in the plugin (demcontactplugin) and is an invalid
access, a use of uninitialised values, or a definite/indirect leak. Prints a summary per log
and the first records found; exit code 1 if any, 2 if a log is not a finished memcheck run
(no ERROR SUMMARY: valgrind or LAMMPS stopped early), 0 otherwise.
Used by bench/memcheck/run and by the ctest memcheck.valgrind (bench/memcheck/memcheck.sh)."""
import re
import sys

KINDS = r"(Invalid (read|write|free)|Mismatched free|uninitialised|definitely lost|indirectly lost|" \
        r"Source and destination overlap|Argument .* of function .* has a fishy)"


def ours(text):
    records = re.split(r"\n==\d+== \n", text)
    return [r for r in records if "demcontactplugin" in r and re.search(KINDS, r)]


def main(logs):
    status = 0
    for log in logs:
        text = open(log, errors="replace").read()
        total = re.search(r"ERROR SUMMARY: (\d+) errors", text)
        found = ours(text)
        print("%s: valgrind reports %s errors in all; %d in the package's code"
              % (log, total.group(1) if total else "?", len(found)))
        for r in found[:5]:
            print(r[:3000])
        if not total:
            print("%s: no ERROR SUMMARY: the run did not finish under valgrind" % log)
            status = max(status, 2)
        elif found:
            status = max(status, 1)
    return status


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
