#!/usr/bin/env bash
# Plane-strain biaxial compression with gran/jaeger: history lengths and bytes per contact for
# beta = 0, 0.1, 0.2 and two fixed capacities, force error against the exact run, and time
# against LAMMPS's granular hertz/material + mindlin (Kuhn's Jaeger paper, Table 1). See
# README.md.
#
#   examples/biaxial-memory/run.sh          1000 spheres, 2 % axial strain in 10,000 steps
#                                           (2e-6 per step); ~2 min on one busy core
#   examples/biaxial-memory/run.sh --full   the paper's test: 4096 spheres, 4 % in 40,000
#                                           steps (1e-6 per step); ~1 h on one core
# options (after --full, to override it):
#   --atoms N      spheres                  --strain E   final axial strain
#   --rate R       axial strain rate (1/s; the time step is 1e-7 s)
#   --caps "A B"   the two capacities (history/max), default "16 64"
#   --out DIR      output folder (default out/ or out-full/ here)
# Every run is on one MPI rank, one after the other (the loop times are compared).
# Then: results.md (table), biaxial_memory.png (plot), results.json, and check.py's verdict
# against expected.json (exit code 1 if a result is out of its range).
# Inside the build environment (CTest), set DEMC_LMP=/path/to/lmp and LAMMPS_PLUGIN_PATH.
set -euo pipefail
# shellcheck source=examples/run_env.sh
source "$(dirname "$0")/../run_env.sh"    # here, repo, lmp and py, options
atoms=1000; rate=20; strain=0.02; caps="16 64"; out="$here/out"; size=default
full() { atoms=4096; rate=10; strain=0.04; out="$here/out-full"; size=full; }
demc_parse_options 2,19 --full=:full --atoms=atoms --rate=rate --strain=strain --caps=caps \
  --out=out -- "$@"
demc_example_commands 1 build    # the plugin is built here, not inside the timed runs
# steps = strain / (rate dt), dt = 1e-7 s; output 40 times, servo every 50 steps
steps=$(awk -v e="$strain" -v r="$rate" 'BEGIN{printf "%d", e / (r * 1e-7) + 0.5}')
nout=$(( steps / 40 )); nout=$(( (nout + 49) / 50 * 50 ))
steps=$(( (steps + nout - 1) / nout * nout ))
# the window (force error of the approximations from the exact state): from a quarter of the
# run, for 1000 steps (at most a tenth of the run): short, so that chaos does not amplify the
# differences much (see README.md)
wsteps=$(( steps / 10 / 50 * 50 ))
[ "$wsteps" -gt 1000 ] && wsteps=1000
wout=$(( wsteps / 5 )); wstart=$(( steps / 4 / wout * wout ))
read -r cap1 cap2 <<< "$caps"
demc_enter_out "$out"
rm -f biax_*.dat final_*.atoms final_*.contacts log.* results.* biaxial_memory.png window*
start=$(date +%s)
echo "biaxial-memory: $atoms spheres, axial strain $strain at $rate/s ($steps steps); output in $out"

lammps() {    # lammps NAME ARGS...: one LAMMPS run, log in log.NAME
  local name=$1 t0 rc=0
  shift
  t0=$(date +%s.%N)
  "${lmp[@]}" -log "log.$name" -screen none "$@" > /dev/null 2>&1 || rc=$?
  if [ $rc -ne 0 ]; then
    echo "run.sh: LAMMPS run '$name' failed (exit code $rc); end of $out/log.$name:" >&2
    tail -n 15 "log.$name" >&2 || true
    exit 1
  fi
  printf '  %-16s %6.1f s wall\n' "$name" "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{print b - a}')"
}

lammps pack -in "$here/in.pack" -var N "$atoms"
grep "^PACKED" log.pack
common=(-in "$here/in.biax" -var rate "$rate" -var steps "$steps" -var nout "$nout")
# the reference is timed twice, first and last, to bracket changes of the machine's load
lammps mindlin        "${common[@]}" -var name mindlin -var model mindlin
lammps jaeger         "${common[@]}" -var name jaeger -var wstart "$wstart"
lammps jaeger_b0.1    "${common[@]}" -var name jaeger_b0.1 -var beta 0.1
lammps jaeger_b0.2    "${common[@]}" -var name jaeger_b0.2 -var beta 0.2
lammps jaeger_cap$cap1 "${common[@]}" -var name "jaeger_cap$cap1" -var hmax "$cap1"
lammps jaeger_cap$cap2 "${common[@]}" -var name "jaeger_cap$cap2" -var hmax "$cap2"
# the exact model again, with atoms never sorted: the same physics, the force sums in another
# order, i.e. a round-off perturbation: how far runs drift apart by chaos alone
lammps jaeger_resorted "${common[@]}" -var name jaeger_resorted -var sort 0
lammps mindlin_again  "${common[@]}" -var name mindlin_again -var model mindlin
# the window: every variant continues the exact run's state at step $wstart (window.restart,
# the histories included) for $wsteps steps; against the exact continuation
win=(-in "$here/in.biax" -var rate "$rate" -var steps "$wsteps" -var nout "$wout" -var window 1)
lammps w_jaeger        "${win[@]}" -var name w_jaeger
lammps w_jaeger_b0.1   "${win[@]}" -var name w_jaeger_b0.1 -var beta 0.1
lammps w_jaeger_b0.2   "${win[@]}" -var name w_jaeger_b0.2 -var beta 0.2
lammps w_jaeger_cap$cap1 "${win[@]}" -var name "w_jaeger_cap$cap1" -var hmax "$cap1"
lammps w_jaeger_cap$cap2 "${win[@]}" -var name "w_jaeger_cap$cap2" -var hmax "$cap2"
lammps w_jaeger_resorted "${win[@]}" -var name w_jaeger_resorted -var sort 0
echo "all runs: $(( $(date +%s) - start )) s wall"

"${py[@]}" "$here/analyze.py" "$out" --caps "$cap1" "$cap2" --size "$size" --window "$wstart" "$wsteps"
"${py[@]}" "$here/check.py" "$out"
