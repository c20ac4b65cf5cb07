#!/usr/bin/env bash
# Relaxation time of a two-sphere stress-controlled test against the time step; see README.md.
#
#   examples/relaxation-timestep/run.sh          dt/t_c = 0.8 ... 1e-3 (~1 min on 1 core)
#   examples/relaxation-timestep/run.sh --full   adds dt/t_c = 1e-4 and 1e-5 (~30 min)
# options: --dts "0.1 0.01 ..."  the time steps (in t_c);  --out DIR (default out/, out-full/)
# Then: results.md (table), relaxation_timestep.png (plot), results.json, and check.py's
# verdict against expected.json (exit code 1 if a result is out of its range).
# Inside the build environment (CTest), set DEMC_LMP=/path/to/lmp and LAMMPS_PLUGIN_PATH.
set -euo pipefail
# shellcheck source=examples/run_env.sh
source "$(dirname "$0")/../run_env.sh"    # here, repo, lmp and py, options
dts="0.8 0.5 0.3 0.2 0.1 0.05 0.02 0.01 0.001"
out="$here/out"; subset=
full() { dts="$dts 0.0001 0.00001"; out="$here/out-full"; }
demc_parse_options 2,9 --full=:full --dts=dts --out=out -- "$@"
if demc_given --dts; then subset=--present; fi
demc_example_commands 1 build    # the plugin is built here, not inside the timed runs
demc_enter_out "$out"
rm -f ek_*.dat times.txt
start=$(date +%s)
echo "relaxation: models gran/kuhn, gran/hooke/history; translation only and with rotation;"
echo "dt/t_c = $dts; output in $out"
for model in kuhn hooke_history; do
  for rot in no yes; do
    for dt in $dts; do
      t0=$(date +%s.%N)
      status=ok
      # a step beyond the stability limit of velocity Verlet blows up: LAMMPS stops with
      # an error (lost atoms), which is a result here, not a failure of the script
      "${lmp[@]}" -in "$here/in.relax" -var model "$model" -var rot "$rot" \
        -var dtfrac "$dt" -log none -screen none || status=failed
      t1=$(date +%s.%N)
      wall=$(awk "BEGIN{print $t1 - $t0}")
      echo "$model $rot $dt $wall $status" >> times.txt
      printf '  %-14s rot %-3s dt/t_c %-8s %7.1f s %s\n' "$model" "$rot" "$dt" "$wall" "$status"
    done
  done
done
echo "all runs: $(( $(date +%s) - start )) s wall"
"${py[@]}" "$here/analyze.py" "$out"
"${py[@]}" "$here/check.py" $subset "$out/results.json" "$here/expected.json"
