#!/usr/bin/env bash
# examples/exact-coulomb: gran/coulomb (numerically exact Coulomb friction, Sakamaki et al.)
# against gran/kuhn and LAMMPS's gran/hooke/history, mu = 0.6 (slope and launch):
#   - a block (rotation locked) and a sphere on a slope at 0.8, 1.0, 1.2 x arctan(mu), 0.2 s;
#   - a sphere launched at 0.5 m/s without spin on a level wall;
#   - a tetrahedron of four spheres on the wall at 1.1 and 0.9 x its friction threshold, 0.05 s.
#   examples/exact-coulomb/run.sh [OUTDIR]     (about 30 runs of one to four spheres)
# Writes the runs' files, table.md, results.json and exact_coulomb.png into OUTDIR (default:
# this folder); check.py OUTDIR compares results.json with expected.json. LAMMPS and python as
# in the other examples (examples/run_env.sh).
set -euo pipefail
# shellcheck source=examples/run_env.sh
source "$(dirname "$0")/../run_env.sh"    # here, repo, lmp and py
demc_usage_if_asked 2,10 "$@"
demc_example_commands 1
demc_enter_out "${1:-$here}"
[ "$out" = "$here" ] || cp "$here/in.sphere" "$here/in.pile" .
run() {    # input, result file, -var arguments
  local input=$1 result=$2
  shift 2
  "${lmp[@]}" -in "$input" -var out "$result" "$@" -log "log.${result%.txt}" -screen none \
    || { tail -20 "log.${result%.txt}" >&2; echo "exact-coulomb: LAMMPS failed for $result" >&2; exit 1; }
}
for law in coulomb kuhn hooke; do
  for factor in 0.8 1.0 1.2; do
    tana=$(awk -v f="$factor" 'BEGIN { printf "%.17g", f * 0.6 }')
    for rot in 0 1; do
      run in.sphere "slope_${law}_$(awk -v f="$factor" 'BEGIN { printf "%g", f }')_${rot}.txt" \
        -var law "$law" -var tana "$tana" -var rotates "$rot" -var v0 0 -var steps 10000 -var every 50
    done
  done
  run in.sphere "launch_${law}.txt" -var law "$law" -var tana 0 -var rotates 1 -var v0 0.5 -var every 5 \
    -var steps 5000
done
for law in coulomb coulomb_iterate kuhn hooke; do
  for factor in 1.1 0.9; do
    # shellcheck disable=SC2046
    run in.pile "pile_${law}_${factor}.txt" -var law "$law" -var steps 2500 \
      $("${py[@]}" "$here/exact_coulomb.py" geometry "$factor")
  done
done
"${py[@]}" "$here/exact_coulomb.py" analyze "$out"
