#!/usr/bin/env bash
# examples/exact-coulomb: creep of a pile of 256 spheres (two layers of a tetrahedral stack: a
# triangle of 16 a side on the wall, spheres 2.1 R apart, 15 a side in the hollows above) at
# mu = 0.4 over 1e5 steps (2 s), for gran/coulomb iterated and direct, gran/kuhn and
# gran/hooke/history, all from one state settled with gran/coulomb iterate (in.pile_many).
#   examples/exact-coulomb/creep_many.sh [OUTDIR] [STEPS] [MU] [DAMPED]   (about 2 minutes, 1 core)
# DAMPED: steps of each law's own phase with fix viscous before the window (default 5000; 0:
# the window starts at the settled state, the spring laws' tangential springs unloaded).
# Writes lattice.data, settled.data, creep_<law>.txt, the logs and creep_many.md into OUTDIR.
set -euo pipefail
# shellcheck source=examples/run_env.sh
source "$(dirname "$0")/../run_env.sh"    # here, repo, lmp and py
demc_usage_if_asked 2,9 "$@"
demc_example_commands 1
steps="${2:-100000}"
mu="${3:-0.4}"
damped="${4:-5000}"   # steps of each law's own damped phase before the window
demc_enter_out "${1:-creep-many}"
common=(-var mu "$mu" -var gamma 2 -var settled settled.data -screen none)
"${py[@]}" "$here/pile_many.py" lattice 16 0.05 2 lattice.data
"${lmp[@]}" -in "$here/in.pile_many" -var stage settle -var data lattice.data \
  -var settle_steps 10000 -log log.settle "${common[@]}"
for law in coulomb_iterate coulomb kuhn hooke; do
  start=$(date +%s)
  "${lmp[@]}" -in "$here/in.pile_many" -var stage creep -var law "$law" -var settle_steps "$damped" \
    -var steps "$steps" -var every 500 -var out "creep_$law.txt" -log "log.$law" "${common[@]}"
  echo "$law: $(( $(date +%s) - start )) s"
done
"${py[@]}" "$here/pile_many.py" analyze .
