#!/usr/bin/env bash
# Hopper discharge through a cone region: mass flow rate of gran/kuhn and gran/jaeger with
# their region walls (fix wall/gran/region/kuhn, /jaeger) against LAMMPS's pair_style granular
# with fix wall/gran/region granular (hooke + linear_history, hertz/material + mindlin).
#   examples/hopper/run.sh [--laws "kuhn jaeger hooke mindlin"] [--seeds "1 2 3"] [--out DIR]
# 868 spheres, settling 0.06 s, discharge 0.28 s, three packings (seeds) per law: about
# a minute on 1 core.
# Writes held_LAW_SEED.dat, results.json, results.md into DIR (default: out/ here), check.py's
# verdict against expected.json (exit code 1 if a result is out of its range).
# Inside the build environment (CTest), set DEMC_LMP=/path/to/lmp and LAMMPS_PLUGIN_PATH.
set -euo pipefail
# shellcheck source=examples/run_env.sh
source "$(dirname "$0")/../run_env.sh"    # here, repo, lmp and py, options
laws="kuhn jaeger hooke mindlin"
seeds="1 2 3"
out="$here/out"
demc_parse_options 2,10 --laws=laws --seeds=seeds --out=out -- "$@"
demc_example_commands 1 build    # the plugin is built here, not inside the timed runs
demc_enter_out "$out"
rm -f times.txt held_*.dat
for law in $laws; do
  for seed in $seeds; do
    t0=$(date +%s.%N)
    "${lmp[@]}" -in "$here/in.hopper" -var law "$law" -var seed "$seed" -log "log.$law.$seed" \
      -screen none \
      || { tail -20 "log.$law.$seed" >&2; echo "hopper: LAMMPS failed for $law" >&2; exit 1; }
    t1=$(date +%s.%N)
    wall=$(awk "BEGIN{print $t1 - $t0}")
    echo "$law $seed $wall" >> times.txt
    printf '  %-8s seed %-3s %6.1f s\n' "$law" "$seed" "$wall"
  done
done
"${py[@]}" "$here/analyze.py" "$out" --seeds "$seeds" $laws
"${py[@]}" "$here/check.py" "$out"
