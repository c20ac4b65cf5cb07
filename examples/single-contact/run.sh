#!/usr/bin/env bash
# Kuhn, Suzuki & Daouadji, Fig. 4, through LAMMPS: the final direction of a sliding
# contact's tangential force after one movement orthogonal to it, against the movement's size.
#   examples/single-contact/run.sh [--full] [OUTDIR]
# default: 15 movement sizes (about 2 s here); --full: 200 sizes, log-spaced 1e-3 .. 1e2.
# Writes results_*.txt, table.md, results.json and single_contact.png into OUTDIR (default:
# this folder); check.py OUTDIR compares results.json with expected.json.
# Outside the environment it runs LAMMPS through tools/lmp and python through tools/in-env
# (export DEMC_BUILD_DIR as for those tools). Inside it (as under ctest), set DEMC_LMP to the
# lmp executable and LAMMPS_PLUGIN_PATH to the folder of demcontactplugin.so.
set -euo pipefail
# shellcheck source=examples/run_env.sh
source "$(dirname "$0")/../run_env.sh"    # here, repo, lmp and py
demc_example_commands 1    # lmp, py
full=0
out="$here"
for a in "$@"; do
  case "$a" in
    --full) full=1 ;;
    -h|--help) demc_usage 2,10 ;;
    *) out="$a" ;;
  esac
done
demc_enter_out "$out"
[ "$out" = "$here" ] || cp "$here/in.single-contact" .
if [ "$full" = 1 ]; then
  awk 'BEGIN { for (i = 0; i < 200; i++) printf "%.6g\n", 10 ^ (-3 + 5 * i / 199) }' > "$out/sizes.txt"
else
  printf '%s\n' 0.01 0.02 0.05 0.1 0.2 0.3 0.5 0.7 1 1.5 2 3 5 7 10 > "$out/sizes.txt"
fi
for model in kuhn kuhn_conv hooke; do
  "${lmp[@]}" -in in.single-contact -var model "$model" -var sizes sizes.txt \
    -log "log.$model" -screen none \
    || { tail -20 "log.$model" >&2; echo "single-contact: LAMMPS failed for $model" >&2; exit 1; }
done
"${py[@]}" "$here/single_contact.py" "$out"
