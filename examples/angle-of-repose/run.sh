#!/usr/bin/env bash
# Angle of repose of a poured pile with and without rolling resistance: pair_style gran/kuhn
# against LAMMPS's pair_style granular (hooke + linear_history) with the same sub-models.
#   examples/angle-of-repose/run.sh [--cases "kuhn_none ..."] [--seeds "1 2 3 4"] [--out DIR]
# CASE = LAW_ROLL, LAW kuhn or granular, ROLL none, rolling or twisting (in.pile). Default: the
# four cases {kuhn, granular} x {none, rolling}, four pours (seeds) each, one at a time:
# 35 to 50 s of CPU per pour (3000 grains, 20000 steps of pouring, settling until at rest),
# 10 min of CPU on 1 core.
# Writes pile_CASE_SEED.dump, times.txt (CPU seconds of each run), results.json, results.md and
# angle_of_repose.png into DIR (default: out/ here), then, if the four default cases were run,
# check.py's verdict against expected.json (exit code 1 if a result is out of its range).
# Inside the build environment (CTest), set DEMC_LMP=/path/to/lmp and LAMMPS_PLUGIN_PATH.
set -euo pipefail
# shellcheck source=examples/run_env.sh
source "$(dirname "$0")/../run_env.sh"    # here, repo, lmp and py, options
cases="kuhn_none granular_none kuhn_rolling granular_rolling"
seeds="1 2 3 4"
out="$here/out"
demc_parse_options 2,12 --cases=cases --seeds=seeds --out=out -- "$@"
demc_example_commands 1 build    # the plugin is built here, not inside the timed runs
demc_enter_out "$out"
rm -f times.txt pile_*.dump
for case in $cases; do
  law=${case%%_*} roll=${case#*_}
  for seed in $seeds; do
    TIMEFORMAT=%U    # CPU seconds (user) of the run; the machine may be shared
    { time "${lmp[@]}" -in "$here/in.pile" -var law "$law" -var roll "$roll" -var seed "$seed" \
        -log "log.$case.$seed" -screen none 2> "stderr.$case.$seed" ; } 2> cpu.txt \
      || { tail -20 "log.$case.$seed" "stderr.$case.$seed" >&2
           echo "angle-of-repose: LAMMPS failed for $case" >&2; exit 1; }
    cpu=$(tail -1 cpu.txt)
    echo "$case $seed $cpu" >> times.txt
    printf '  %-18s seed %-3s %6.1f s\n' "$case" "$seed" "$cpu"
  done
done
"${py[@]}" "$here/analyze.py" "$out" $cases --seeds "$seeds"
# expected.json checks the four default cases; a run of other cases is not checked
for c in kuhn_none granular_none kuhn_rolling granular_rolling; do
  case " $cases " in
    *" $c "*) ;;
    *) echo "angle-of-repose: $c not run, no check against expected.json"; exit 0;;
  esac
done
"${py[@]}" "$here/check.py" "$out"
