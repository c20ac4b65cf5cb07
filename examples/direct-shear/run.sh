#!/usr/bin/env bash
# Direct shear box of Fleischmann et al. with five contact models; see README.md.
#
#   examples/direct-shear/run.sh            default size for a small shared machine:
#                                           900 grains, 25 mm/s, 10 mm (~5 min, 1 core)
#   examples/direct-shear/run.sh --full     the paper's 1800 grains, 5 mm/s, 12 mm
#                                           (~50 min, 1 core; see --np and --jobs)
# options (after --full, to override it):
#   --n N          number of grains           --speed V    shear speed (m/s)
#   --smax S       shear displacement (m)     --sigma P    normal stress (Pa)
#   --models "..." subset of: kuhn jaeger hooke_history hooke pseudo
#   --np N         MPI ranks per LAMMPS run   --jobs J     models run at the same time
#   --out DIR      output folder (default out/ or out-full/ here)
# Then: results.md (table), direct_shear.png (plot), results.json, and check.py's verdict
# against expected.json (exit code 1 if a result is out of its range).
# Inside the build environment (CTest), set DEMC_LMP=/path/to/lmp and LAMMPS_PLUGIN_PATH.
set -euo pipefail
# shellcheck source=examples/run_env.sh
source "$(dirname "$0")/../run_env.sh"    # here, repo, lmp and py, options
n=900; speed=0.025; smax=0.010; sigma=10000.0; out="$here/out"
models="kuhn jaeger hooke_history hooke pseudo"; np=1; jobs=1; subset=
full() { n=1800; speed=0.005; smax=0.012; out="$here/out-full"; }
demc_parse_options 2,16 --full=:full --n=n --speed=speed --smax=smax --sigma=sigma \
  --models=models --np=np --jobs=jobs --out=out -- "$@"
if demc_given --models; then subset=--present; fi
demc_example_commands "$np"    # lmp on $np ranks
demc_enter_out "$out"
start=$(date +%s)
echo "direct shear: $n grains, sigma_n $sigma Pa, $speed m/s, $smax m; models: $models; output in $out"

echo "[1/3] rainfall and frictionless compaction (in.prepare)"
"${lmp[@]}" -in "$here/in.prepare" -var n "$n" -var sigma "$sigma" -log log.prepare > /dev/null
grep "^PREPARED" log.prepare
echo "[2/3] shear box (make_box.py)"
"${py[@]}" "$here/make_box.py" prepared.data "$(cat prepared_height.txt)" shear.data "$smax"

echo "[3/3] consolidation and shear (in.shear), $jobs at a time"
run_model() {
  local m=$1 t0; t0=$(date +%s)
  "${lmp[@]}" -in "$here/in.shear" -var model "$m" -var v "$speed" -var smax "$smax" \
    -var sigma "$sigma" -var dir "$here" -log "log.shear_$m" > /dev/null
  echo "  $m: $(( $(date +%s) - t0 )) s wall"
  echo "$m $(( $(date +%s) - t0 ))" > "time_$m.txt"
}
running=0
for m in $models; do
  run_model "$m" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
wait
echo "all runs: $(( $(date +%s) - start )) s wall"

"${py[@]}" "$here/analyze.py" "$out"
"${py[@]}" "$here/check.py" $subset "$out/results.json" "$here/expected.json"
