# examples/run_env.sh: sourced by the examples' run.sh scripts (which set $repo first).
# demc_example_commands [NP] [build]: sets the arrays lmp (LAMMPS, on NP MPI ranks) and py
# (python3). Inside the build environment (CTest sets DEMC_LMP to the LAMMPS executable and
# LAMMPS_PLUGIN_PATH to the plugin's folder) they are called directly; otherwise through
# tools/lmp and tools/in-env, and with "build" the plugin is built first (once, outside any
# timed run).
demc_example_commands() {
  local np=${1:-1} build=${2:-}
  if [ -n "${DEMC_LMP:-}" ]; then
    lmp=("$DEMC_LMP"); py=(python3)
    if [ "$np" -gt 1 ]; then lmp=(mpirun -np "$np" "$DEMC_LMP"); fi
  else
    lmp=("$repo/tools/lmp"); py=("$repo/tools/in-env" python3)
    if [ "$np" -gt 1 ]; then lmp+=(--np "$np"); fi
    if [ "$build" = build ]; then "$repo/tools/build"; fi
  fi
}
