#!/usr/bin/env bash
# bench/memcheck/memcheck.sh MODE --lmp LMP --plugin-dir DIR [--out DIR] [--steps N]
#                            [--every N] [--cap N]
# Memory checks of the package, run where LAMMPS, valgrind and python3 are (the ctest
# memcheck.* tests call it directly; bench/memcheck/run calls it through tools/in-env).
#   valgrind  valgrind memcheck on short runs: gran/jaeger under slow shear with unbounded
#             histories (in.slowshear, --steps, default 1000) and every style of the package
#             with restart round trips (in.mix, 200 steps a part). Fails on any invalid
#             access, use of uninitialised values or definite leak with a frame in the
#             plugin (valgrind_filter.py).
#   plateau   a longer run of in.slowshear with history/max --cap (default 16) for --steps
#             (default 20000), sampled every --every steps (default steps/20): the history
#             arena's bytes per contact must plateau (plateau_check.py); then in.vibration, a
#             packing vibrating with decaying amplitude (every reversal a history point) with
#             the default settings, 12000 steps: the pruning rule alone must make it plateau.
# Logs go to --out (default: the current folder).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mode=${1:-}
shift || true
lmp= plugin= out=$PWD steps= every= cap=16
while [ $# -gt 0 ]; do
  case $1 in
    --lmp) lmp=$2; shift 2;;
    --plugin-dir) plugin=$2; shift 2;;
    --out) out=$2; shift 2;;
    --steps) steps=$2; shift 2;;
    --every) every=$2; shift 2;;
    --cap) cap=$2; shift 2;;
    *) echo "memcheck.sh: unknown argument $1" >&2; exit 2;;
  esac
done
[ -n "$lmp" ] && [ -n "$plugin" ] || { echo "usage: memcheck.sh valgrind|plateau --lmp LMP --plugin-dir DIR [...]" >&2; exit 2; }
mkdir -p "$out"
cd "$out"
export LAMMPS_PLUGIN_PATH="$plugin"
t0=$SECONDS

case $mode in
  valgrind)
    steps=${steps:-1000}
    command -v valgrind > /dev/null || { echo "valgrind not found" >&2; exit 2; }
    vg=(valgrind --leak-check=full --errors-for-leak-kinds=definite --track-origins=yes
        --suppressions=/dev/null)
    echo "== valgrind memcheck: gran/jaeger slow shear, $steps steps, unbounded histories"
    "${vg[@]}" "$lmp" -in "$here/in.slowshear" -var steps "$steps" -var cap 0 -var every "$steps" \
      -log none -screen none > valgrind-slowshear.log 2>&1 || true
    echo "== valgrind memcheck: gran/kuhn, gran/jaeger, wall/gran/kuhn, wall/gran/jaeger, wall/gran/region/kuhn, wall/gran/region/jaeger, restarts"
    "${vg[@]}" "$lmp" -in "$here/in.mix" -var out "$out" -log none -screen none \
      > valgrind-mix.log 2>&1 || true
    rc=0
    python3 "$here/valgrind_filter.py" valgrind-slowshear.log valgrind-mix.log || rc=$?
    ;;
  plateau)
    steps=${steps:-20000}
    every=${every:-$((steps / 20))}
    echo "== gran/jaeger slow shear, $steps steps, history/max $cap: arena bytes per contact must plateau"
    rc=0
    "$lmp" -in "$here/in.slowshear" -var steps "$steps" -var cap "$cap" -var every "$every" -log none \
      > plateau.log 2>&1 || rc=$?
    if [ $rc -ne 0 ]; then tail -n 20 plateau.log; echo "LAMMPS failed (exit code $rc)"; exit 1; fi
    python3 "$here/plateau_check.py" plateau.log --cap "$cap" || rc=$?
    echo "== gran/jaeger default settings, decaying vibration, 12000 steps: arena bytes per contact must plateau"
    vrc=0
    "$lmp" -in "$here/in.vibration" -var steps 12000 -var every 600 -log none > plateau-vibration.log 2>&1 || vrc=$?
    if [ $vrc -ne 0 ]; then tail -n 20 plateau-vibration.log; echo "LAMMPS failed (exit code $vrc)"; exit 1; fi
    python3 "$here/plateau_check.py" plateau-vibration.log --cap 0 || rc=$?
    ;;
  *) echo "usage: memcheck.sh valgrind|plateau --lmp LMP --plugin-dir DIR [...]" >&2; exit 2;;
esac
echo "($((SECONDS - t0)) s)"
exit $rc
