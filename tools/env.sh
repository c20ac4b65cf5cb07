# Shared settings of tools/*: what the environment is made of and where it lives.
# Sourced, not run. Every input of the environment is named here, so the cache keys
# computed from these lines change exactly when the environment must change.

ENV_SUITE=trixie
ENV_BASE_PKGS="g++ cmake make ninja-build ccache python3 libopenmpi-dev openmpi-bin libgtest-dev libgmock-dev"
ENV_KOKKOS_PKG="libkokkos-dev"
ENV_KOKKOS_SUITE=sid
# Tools used by tests, examples and benchmarks, but not by the LAMMPS build:
# installing them never forces a LAMMPS rebuild.
ENV_EXTRA_PKGS="python3-numpy python3-matplotlib valgrind clang libclang-rt-dev clang-format"

LAMMPS_TARBALL="lammps_20260704+dfsg.orig.tar.gz"
LAMMPS_SHA256="cddbc45a047416bd48a4a0b87f24a5b61b3446982b74d18cafe619c22b17eb62"
LAMMPS_CMAKE_ARGS="-G Ninja -D BUILD_SHARED_LIBS=on -D BUILD_MPI=on -D BUILD_OMP=on \
-D PKG_GRANULAR=on -D PKG_PLUGIN=on -D PKG_KOKKOS=on -D EXTERNAL_KOKKOS=on \
-D CMAKE_BUILD_TYPE=Release -D CMAKE_CXX_COMPILER_LAUNCHER=ccache"

ENV_CACHE="${DEMCONTACT_CACHE:-/var/cache/dem-contact}"

env_hash() { printf '%s\n' "$@" | sha256sum | cut -c1-12; }

ROOT_KEY=$(env_hash "$ENV_SUITE" "$ENV_BASE_PKGS" "$ENV_KOKKOS_PKG" "$ENV_KOKKOS_SUITE" kokkos-placeholders-v1)
LAMMPS_KEY=$(env_hash "$ROOT_KEY" "$LAMMPS_SHA256" "$LAMMPS_CMAKE_ARGS")
EXTRA_KEY=$(env_hash "$ENV_EXTRA_PKGS")

ENV_ROOT="$ENV_CACHE/root-$ROOT_KEY"
# Paths inside the root (prefix with $ENV_ROOT to see them from the host).
LAMMPS_DIR="/opt/lammps-$LAMMPS_KEY"
LAMMPS_SRC="$LAMMPS_DIR/src-tree"
LAMMPS_BUILD="$LAMMPS_DIR/build"
ENV_READY="$ENV_ROOT/.ready-$LAMMPS_KEY-$EXTRA_KEY"

REPO_TOP="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# the plugin build folder (several work trees or parallel builds: set DEMC_BUILD_DIR)
BUILD_DIR="${DEMC_BUILD_DIR:-$REPO_TOP/build}"

msg() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Run a command inside the root in a private mount namespace, so the bind mounts
# vanish with the command and nothing stays mounted on the host.
# Usage: env_run ROOT WORKDIR CMD...
env_run() {
  local root=$1 workdir=$2
  shift 2
  unshare --mount --propagation private -- /bin/bash -c '
    set -e
    root=$1 repo=$2 workdir=$3 build=$4; shift 4
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    mount --rbind /sys "$root/sys"
    mkdir -p "$root$repo" "$root/tmp"
    mount --bind "$repo" "$root$repo"
    # a working folder and a build folder (DEMC_BUILD_DIR) outside the repository are
    # visible at the same paths too, so the host and the environment see the same files
    for dir in "$workdir" "$build"; do
      case "$dir" in "$repo"|"$repo"/*|/|"") ;; *)
        mkdir -p "$dir" "$root$dir"; mount --bind "$dir" "$root$dir";; esac
    done
    # CCACHE_BASEDIR: clones and worktrees at other paths reuse the same compiled objects
    exec chroot "$root" /usr/bin/env -u LD_LIBRARY_PATH -u PYTHONPATH \
      PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      HOME=/root CCACHE_DIR=/var/cache/ccache CCACHE_BASEDIR="$repo" \
      OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,sm \
      OMPI_MCA_rmaps_base_oversubscribe=1 PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe \
      /bin/bash -c "cd \"\$0\" && exec \"\$@\"" "$workdir" "$@"
  ' env_run "$root" "$REPO_TOP" "$workdir" "${BUILD_DIR:-}" "$@"
}

# The Debian archive URI comes from the host's own apt sources; no host name in the repo.
archive_uri() {
  local uri
  uri=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' |
        grep -v -- '-security' | head -n1 || true)
  [ -n "$uri" ] || uri=$(grep -hs '^deb ' /etc/apt/sources.list | awk '{print $2}' |
        grep -v -- '-security' | head -n1 || true)
  [ -n "$uri" ] || die "no Debian archive URI found in /etc/apt/sources.list{,.d/*.sources}"
  printf '%s' "${uri%/}"
}

# Download URL to FILE (through FILE.part) and check its sha256; a mismatch removes it.
# Returns 1 with a message when the download fails or the checksum differs.
download_verified() {
  local url=$1 file=$2 sha=$3
  curl -fL --retry 3 -o "$file.part" "$url" ||
    { rm -f "$file.part"; printf 'error: download of %s failed\n' "$url" >&2; return 1; }
  mv "$file.part" "$file"
  echo "$sha  $file" | sha256sum -c --status ||
    { rm -f "$file"; printf 'error: sha256 of %s does not match %s\n' "$file" "$sha" >&2; return 1; }
}
