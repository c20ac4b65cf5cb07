# examples/run_env.sh: sourced by the examples' scripts (source "$(dirname "$0")/../run_env.sh").
# Sets here (the script's folder) and repo (the repository's top).
# shellcheck shell=bash disable=SC2034  # (here, lmp, py, out: for the scripts that source it)
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

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

# demc_usage LINES: prints lines LINES of the script (a sed range, e.g. 2,12: the usage in its
# head) and exits 0; demc_usage_if_asked LINES "$@": so where an argument is -h or --help (for
# the scripts with positional arguments only)
demc_usage() {
  sed -n "${1}p" "$0"
  exit 0
}
demc_usage_if_asked() {
  local lines=$1 a
  shift
  for a in "$@"; do
    case "$a" in -h | --help) demc_usage "$lines" ;; esac
  done
}

# demc_parse_options LINES SPEC... -- "$@": the examples' options, in the order given. SPEC:
# --name=VAR, an option with a value (VAR is set to it), or --name=:FUNC, a flag (FUNC is
# called, e.g. a preset that later options override). -h or --help prints lines LINES (a sed
# range, e.g. 2,12: the usage in the script's head) and exits 0; an unknown option or a missing
# value exits 2. demc_given --name: whether the last parse saw that option.
demc_parse_options() {
  local demc_lines=$1 demc_target
  local -A demc_spec=()
  shift
  while [ $# -gt 0 ] && [ "$1" != -- ]; do
    demc_spec[${1%%=*}]=${1#*=}
    shift
  done
  [ $# -eq 0 ] || shift
  demc_seen=()
  while [ $# -gt 0 ]; do
    case "$1" in -h | --help) demc_usage "$demc_lines" ;; esac
    demc_target=${demc_spec[$1]:-}
    if [ -z "$demc_target" ]; then
      echo "unknown option $1 (see the head of $0 or --help)" >&2
      exit 2
    fi
    demc_seen+=("$1")
    if [ "${demc_target:0:1}" = : ]; then
      "${demc_target:1}"
      shift
    elif [ $# -lt 2 ]; then
      echo "option $1 needs a value (see the head of $0 or --help)" >&2
      exit 2
    else
      printf -v "$demc_target" '%s' "$2"
      shift 2
    fi
  done
}
demc_seen=()
demc_given() {
  local o
  for o in "${demc_seen[@]}"; do [ "$o" != "$1" ] || return 0; done
  return 1
}

# demc_enter_out DIR: DIR made (if need be) and entered; out is set to its absolute path
demc_enter_out() {
  mkdir -p "$1"
  out="$(cd "$1" && pwd)"
  cd "$out" || exit
}
