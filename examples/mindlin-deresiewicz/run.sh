#!/usr/bin/env bash
# Kuhn's Jaeger paper, Fig. 8, through LAMMPS: two Hertzian spheres under oblique proportional
# loading and unloading, in four large steps and in fine steps, with gran/jaeger and LAMMPS's
# pair granular (hertz/material + tangential mindlin, mindlin/force), against the
# Mindlin-Deresiewicz closed form.
#   examples/mindlin-deresiewicz/run.sh [--full] [OUTDIR]
# default: 100 fine steps per leg (about 3 s here); --full: 1000 per leg.
# Writes path_*.txt, table.md, results.json and mindlin_deresiewicz.png into OUTDIR (default:
# this folder); check.py OUTDIR compares results.json with expected.json.
# Outside the environment it runs LAMMPS through tools/lmp and python through tools/in-env
# (export DEMC_BUILD_DIR as for those tools). Inside it (as under ctest), set DEMC_LMP to the
# lmp executable and LAMMPS_PLUGIN_PATH to the folder of demcontactplugin.so.
set -euo pipefail
# shellcheck source=examples/run_env.sh
source "$(dirname "$0")/../run_env.sh"    # here, repo, lmp and py
demc_example_commands 1    # lmp, py
fine=100
out="$here"
for a in "$@"; do
  case "$a" in
    --full) fine=1000 ;;
    -h|--help) demc_usage 2,12 ;;
    *) out="$a" ;;
  esac
done
demc_enter_out "$out"
[ "$out" = "$here" ] || cp "$here/in.mindlin-deresiewicz" .
rm -f path_*.txt
for model in jaeger mindlin mindlin_force; do
  for nsub in 1 "$fine"; do
    "${lmp[@]}" -in in.mindlin-deresiewicz -var model "$model" -var nsub "$nsub" \
      -log "log.${model}_${nsub}" -screen none \
      || { tail -20 "log.${model}_${nsub}" >&2; echo "mindlin-deresiewicz: LAMMPS failed for $model $nsub" >&2; exit 1; }
  done
done
"${py[@]}" "$here/mindlin_deresiewicz.py" "$out" --fine "$fine"
