#!/usr/bin/env bash
# examples/objectivity/run.sh: the rigid-rotation experiment of Kuhn, Suzuki & Daouadji
# (Fig. 6) for six contact laws; prints the table and writes the plot. See README.md.
#
#   run.sh              2000 spheres (a minute or two on 2 cores), results in out/
#   run.sh --demo       1000 spheres, results in out-demo/
#   run.sh --full       10,648 spheres as in the paper, results in out-full/
#
# options:
#   --atoms N           any size
#   --np N              MPI ranks (default 2)
#   --out DIR           where the inputs are copied and the outputs written
#   --check             compare the results with expected.json (exit code 1 if they differ)
#   --lmp EXE --plugin-dir DIR [--mpiexec CMD]
#                       run EXE directly (inside the build environment, e.g. from ctest)
#                       with the plugin from DIR, instead of through tools/lmp
#   --python CMD        python3 with numpy and matplotlib (default: tools/in-env python3,
#                       or python3 with --lmp)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

atoms=2000 size= np=2 out= check=0 lmp= plugin_dir= mpiexec=mpirun python=
while [ $# -gt 0 ]; do
  case $1 in
    --demo) atoms=1000 size=demo; shift ;;
    --full) atoms=10648 size=full; shift ;;
    --atoms) atoms=$2 size=$2; shift 2 ;;
    --np) np=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --check) check=1; shift ;;
    --lmp) lmp=$2; shift 2 ;;
    --plugin-dir) plugin_dir=$2; shift 2 ;;
    --mpiexec) mpiexec=$2; shift 2 ;;
    --python) python=$2; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ -n "$out" ] || out="$here/out${size:+-$size}"
if [ -n "$lmp" ]; then
  [ -n "$plugin_dir" ] || { echo "run.sh: --lmp needs --plugin-dir" >&2; exit 2; }
  python=${python:-python3}
else
  python=${python:-"$repo/tools/in-env python3"}
fi

mkdir -p "$out"
out=$(cd "$out" && pwd)
cp "$here/in.pack" "$here/in.objectivity" "$here/in.two_spheres" "$here/models.in" "$out/"
cd "$out"
rm -f rot_*.dat meta_*.txt mob_*.dump log.*.lammps pack.data table.md results.json objectivity.png

# lammps NAME ARGS...: one LAMMPS run on $np ranks, log in log.NAME.lammps
lammps() {
  local name=$1
  shift
  local rc=0
  if [ -n "$lmp" ]; then
    LAMMPS_PLUGIN_PATH="$plugin_dir" $mpiexec -np "$np" "$lmp" -screen none \
      -log "log.$name.lammps" "$@" > /dev/null 2>&1 || rc=$?
  else
    "$repo/tools/lmp" --np "$np" -screen none -log "log.$name.lammps" "$@" > /dev/null 2>&1 || rc=$?
  fi
  if [ $rc -ne 0 ]; then
    echo "run.sh: LAMMPS run '$name' failed (exit code $rc); end of $out/log.$name.lammps:" >&2
    tail -n 15 "log.$name.lammps" >&2 || true
    exit 1
  fi
}

t0=$SECONDS
echo "objectivity: $atoms spheres, $np MPI ranks, output in $out"
t=$SECONDS
lammps two_spheres -in in.two_spheres
echo "  one contact (4 contact laws)     $((SECONDS - t)) s"
t=$SECONDS
lammps pack -in in.pack -var N "$atoms"
echo "  packing                          $((SECONDS - t)) s"
for variant in kuhn kuhn_project kuhn_none hooke linear mindlin; do
  t=$SECONDS
  lammps "$variant" -in in.objectivity -var variant "$variant"
  printf '  %-32s %d s\n' "$variant" "$((SECONDS - t))"
done
echo "  LAMMPS total                     $((SECONDS - t0)) s"
echo
$python "$here/objectivity.py" "$out"
echo "plot: $out/objectivity.png   table: $out/table.md"
if [ "$check" = 1 ]; then
  $python "$here/check.py" "$out/results.json" "$here/expected.json"
fi
