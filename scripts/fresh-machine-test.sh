#!/usr/bin/env bash
#===- fresh-machine-test.sh - The quick start on a fresh Debian 12 root -===//
#
# Proves that the README's quick start works on a fresh Debian 12 machine:
# builds a minimal Debian 12 root (`debootstrap --variant=minbase bookworm`),
# gives it this machine's apt sources and resolv.conf, puts a clean clone of
# the committed HEAD of this repository at /root/stencil, and runs, in a
# chroot, as root, exactly the README's two commands: `scripts/setup.sh`,
# then `scripts/test.sh`. /proc, /sys and /dev (with /dev/pts, and a fresh
# tmpfs on /dev/shm) are mounted in the root for the run and unmounted by a
# trap however the script ends; a root with anything still mounted under it
# is never removed. Must run as root (debootstrap, mount, chroot).
#
#   fresh-machine-test.sh [options]
#     -w, --work-dir DIR  where the root is built (DIR/root); default
#                         $FRESH_WORK_DIR or /tmp/stencil-fresh-machine
#     -l, --log-dir DIR   where the logs go; default DIR/logs-<date>-<time>
#                         under the work directory. Kept after the run.
#     -c, --cache FILE    pristine minbase root as a tarball (.tar, .tar.gz,
#                         ...; default $FRESH_ROOT_CACHE, none if unset):
#                         unpacked when it exists, written after debootstrap
#                         when it does not. Nothing of the project is in it,
#                         so a root unpacked from it is still fresh.
#     -k, --keep          leave the root (unmounted) for inspection
#     --only-setup        run scripts/setup.sh only
#     -r, --rev REV       commit to test (default HEAD); always a committed
#                         state, never the working tree
#     --mirror URL        debootstrap mirror (default http://deb.debian.org/debian)
#     -q, --quiet         only log the commands' output, do not show it
#     -h, --help          this text
#
# Reports each phase's time and exit status and the last lines of test.sh
# (ending `N passed, N failed`); exits non-zero if either command fails.
# On 2 cores expect ~24 minutes: debootstrap ~1, setup.sh ~5 (apt and the
# build), test.sh ~18 (three builds, both integration suites, a minute of
# fuzzing; 2026-11-27); a cached root saves the debootstrap.
#
# No pipeline here ends in `grep -q` or `head`: under `pipefail` the writer
# can die of SIGPIPE when the reader exits early. Output is captured, then
# matched.
#
#===----------------------------------------------------------------------===//
# Functions run from the traps or through run_logged look unreachable.
# shellcheck disable=SC2317
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(git -C "$SCRIPT_DIR" rev-parse --show-toplevel)"

WORK="${FRESH_WORK_DIR:-/tmp/stencil-fresh-machine}"
LOG_DIR=""
CACHE="${FRESH_ROOT_CACHE:-}"
KEEP=0
ONLY_SETUP=0
REV=HEAD
MIRROR=http://deb.debian.org/debian
QUIET=0

usage() {
  # The header comment, without the banner lines and the leading '# '.
  sed -n '3,/^#===-----/{/^#===-----/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
}

die() { echo "fresh-machine-test: $*" >&2; exit 2; }

while [ "$#" -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    -w|--work-dir) [ "$#" -ge 2 ] || die "$1 needs a directory"; WORK="$2"; shift 2 ;;
    --work-dir=*) WORK="${1#*=}"; shift ;;
    -l|--log-dir) [ "$#" -ge 2 ] || die "$1 needs a directory"; LOG_DIR="$2"; shift 2 ;;
    --log-dir=*) LOG_DIR="${1#*=}"; shift ;;
    -c|--cache) [ "$#" -ge 2 ] || die "$1 needs a file"; CACHE="$2"; shift 2 ;;
    --cache=*) CACHE="${1#*=}"; shift ;;
    -k|--keep) KEEP=1; shift ;;
    --only-setup) ONLY_SETUP=1; shift ;;
    -r|--rev) [ "$#" -ge 2 ] || die "$1 needs a revision"; REV="$2"; shift 2 ;;
    --rev=*) REV="${1#*=}"; shift ;;
    --mirror) [ "$#" -ge 2 ] || die "$1 needs a URL"; MIRROR="$2"; shift 2 ;;
    --mirror=*) MIRROR="${1#*=}"; shift ;;
    -q|--quiet) QUIET=1; shift ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done

[ "$(id -u)" -eq 0 ] || die "must run as root (debootstrap, mount, chroot)"
case "$WORK$LOG_DIR$CACHE" in
  *[[:space:]]*) die "paths with whitespace are not supported" ;;
esac
if [ -z "$WORK" ] || [ "$WORK" = / ]; then die "bad work directory '$WORK'"; fi

COMMIT="$(git -C "$REPO" rev-parse --verify "$REV^{commit}")" \
  || die "no commit '$REV' in $REPO"

for tool in chroot mount umount findmnt setsid tar; do
  command -v "$tool" >/dev/null 2>&1 || die "'$tool' is missing"
done
if ! command -v debootstrap >/dev/null 2>&1; then
  echo "fresh-machine-test: installing debootstrap"
  DEBIAN_FRONTEND=noninteractive apt-get install -y debootstrap
fi

mkdir -p "$WORK"
WORK="$(cd "$WORK" && pwd -P)"
ROOTFS="$WORK/root"
MARKER="$WORK/.fresh-machine-test"

# Only a work directory this script made (or an empty one) is ever cleaned.
if [ ! -e "$MARKER" ]; then
  contents="$(ls -A "$WORK")"
  [ -z "$contents" ] \
    || die "$WORK is not empty and not a fresh-machine-test work directory"
  echo "made by scripts/fresh-machine-test.sh; $ROOTFS is removed on each run" >"$MARKER"
fi

LOG_DIR="${LOG_DIR:-$WORK/logs-$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$LOG_DIR"
LOG_DIR="$(cd "$LOG_DIR" && pwd -P)"
case "$LOG_DIR/" in
  "$ROOTFS"/*) die "the log directory must not be inside the root" ;;
esac
SUMMARY="$LOG_DIR/summary.txt"

#===----------------------------------------------------------------------===//
# Phases, times, logs
#===----------------------------------------------------------------------===//

PHASE_NAMES=()
PHASE_TIMES=()
PHASE_RCS=()
T_START="$(date +%s)"
CHILD=""          # process group of the command now running
CUR_PHASE=""      # and its phase, started at CUR_T0
CUR_T0=0
SETUP_RC=""
TEST_RC=""
STATUS=0

say() { echo "[fresh-machine-test $(date +%H:%M:%S)] $*"; }

fmt_time() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

record() { PHASE_NAMES+=("$1"); PHASE_TIMES+=("$2"); PHASE_RCS+=("$3"); }

# run_logged <log> <cmd...>: runs cmd (a program or an exported function,
# under `set -euo pipefail`) in its own process group, so that the trap can
# end all of it whatever signal the script got, with its output to <log>
# and, unless --quiet, to stdout. Returns cmd's exit status.
run_logged() {
  local log="$1" rc=0
  shift
  # shellcheck disable=SC2016  # expanded by the inner bash
  if [ "$QUIET" -eq 1 ]; then
    setsid bash -euo pipefail -c 'log="$1"; shift; "$@" >>"$log" 2>&1' _ "$log" "$@" </dev/null &
  else
    setsid bash -euo pipefail -c 'log="$1"; shift; "$@" 2>&1 | tee -a "$log"' _ "$log" "$@" </dev/null &
  fi
  CHILD=$!
  wait "$CHILD" || rc=$?
  CHILD=""
  return "$rc"
}

# phase <name> <log> <cmd...>: run_logged, timed and recorded.
phase() {
  local name="$1" log="$2" t0 rc=0
  shift 2
  say "== $name (log: $log)"
  t0="$(date +%s)"
  CUR_PHASE="$name" CUR_T0="$t0"
  run_logged "$log" "$@" || rc=$?
  CUR_PHASE=""
  record "$name" $(($(date +%s) - t0)) "$rc"
  say "== $name: exit $rc after $(fmt_time $(($(date +%s) - t0)))"
  return "$rc"
}

#===----------------------------------------------------------------------===//
# Mounts and cleanup
#===----------------------------------------------------------------------===//

# mounts_under <dir>: the mount points at or below <dir>, deepest first.
mounts_under() {
  local all
  all="$(findmnt -rn -o TARGET)" || all=""
  awk -v r="$1" '$0 == r || index($0, r "/") == 1' <<<"$all" | sort -r
}

# kill_root_procs: ends every process whose root is inside $ROOTFS (all of
# them started by this script, in the chroot), TERM first, then KILL.
kill_root_procs() {
  local sig p link pids
  for sig in TERM KILL; do
    pids=()
    for p in /proc/[0-9]*; do
      link="$(readlink "$p/root" 2>/dev/null)" || continue
      case "$link" in
        "$ROOTFS"|"$ROOTFS"/*) pids+=("${p#/proc/}") ;;
      esac
    done
    [ "${#pids[@]}" -gt 0 ] || return 0
    say "ending ${#pids[@]} process(es) left in the root (SIG$sig): ${pids[*]}"
    kill -s "$sig" "${pids[@]}" 2>/dev/null
    sleep 2
  done
}

# unmount_root: unmounts everything under $ROOTFS (lazily if need be).
# Returns non-zero if something is still mounted there.
unmount_root() {
  local m mounts
  [ -d "$ROOTFS" ] || return 0
  for _ in 1 2 3 4 5; do
    mounts="$(mounts_under "$ROOTFS")"
    [ -n "$mounts" ] || return 0
    while read -r m; do
      [ -n "$m" ] || continue
      umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null \
        || echo "fresh-machine-test: cannot unmount $m" >&2
    done <<<"$mounts"
  done
  mounts="$(mounts_under "$ROOTFS")"
  if [ -n "$mounts" ]; then
    echo "fresh-machine-test: still mounted under $ROOTFS:" >&2
    echo "$mounts" >&2
    return 1
  fi
}

# remove_root: removes $ROOTFS, only if this script's marker is there and
# nothing is mounted under it.
remove_root() {
  [ -e "$ROOTFS" ] || return 0
  [ -e "$MARKER" ] || { echo "fresh-machine-test: no $MARKER; not removing $ROOTFS" >&2; return 1; }
  unmount_root || { echo "fresh-machine-test: NOT removing $ROOTFS (mounts left)" >&2; return 1; }
  rm -rf --one-file-system "$ROOTFS"
}

mount_root() {
  local d
  for d in proc sys dev; do mkdir -p "$ROOTFS/$d"; done
  mount -t proc proc "$ROOTFS/proc" || mount --bind /proc "$ROOTFS/proc"
  mount --make-rslave "$ROOTFS/proc"
  mount --bind /sys "$ROOTFS/sys"
  mount --make-rslave "$ROOTFS/sys"
  # Every mount is made a slave at once, so that nothing mounted or
  # unmounted below it can propagate back to the host's /dev.
  mount --bind /dev "$ROOTFS/dev"
  mount --make-rslave "$ROOTFS/dev"
  if mountpoint -q /dev/pts; then
    mount --bind /dev/pts "$ROOTFS/dev/pts"
    mount --make-rslave "$ROOTFS/dev/pts"
  fi
  if [ -d "$ROOTFS/dev/shm" ]; then
    mount -t tmpfs -o mode=1777,nosuid,nodev shm "$ROOTFS/dev/shm"
    mount --make-rslave "$ROOTFS/dev/shm"
  fi
}

print_summary() {
  local i total result lines
  total=$(($(date +%s) - T_START))
  {
    echo
    echo "== fresh-machine-test: commit ${COMMIT:0:12} in a fresh Debian 12 (bookworm, minbase) root"
    printf '  %-24s %9s %7s\n' phase time exit
    for i in "${!PHASE_NAMES[@]}"; do
      printf '  %-24s %9s %7s\n' "${PHASE_NAMES[$i]}" "$(fmt_time "${PHASE_TIMES[$i]}")" "${PHASE_RCS[$i]}"
    done
    printf '  %-24s %9s\n' "total" "$(fmt_time "$total")"
    echo "  setup.sh exit: ${SETUP_RC:-not run}    test.sh exit: ${TEST_RC:-not run}"
    if [ -s "$LOG_DIR/setup.log" ]; then
      echo "== last lines of setup.sh:"
      mapfile -t lines < <(tail -n 8 "$LOG_DIR/setup.log")
      printf '  | %s\n' "${lines[@]}"
    fi
    if [ -s "$LOG_DIR/test.log" ]; then
      echo "== last lines of test.sh:"
      mapfile -t lines < <(tail -n 12 "$LOG_DIR/test.log")
      printf '  | %s\n' "${lines[@]}"
      result="$(awk '/^[0-9]+ passed, [0-9]+ failed$/ { l = $0 } END { print l }' "$LOG_DIR/test.log")"
      echo "== result: ${result:-no 'N passed, N failed' line}"
    fi
    if [ "$KEEP" -eq 1 ] && [ -d "$ROOTFS" ]; then
      echo "== root kept: $ROOTFS (chroot $ROOTFS /bin/bash -l; nothing is mounted)"
    fi
    echo "== logs: $LOG_DIR"
    echo "== fresh-machine-test: $([ "$STATUS" -eq 0 ] && echo PASS || echo "FAIL (exit $STATUS)")"
  } | tee -a "$SUMMARY"
}

CLEANED=0
cleanup() {
  local rc=$?
  set +e
  [ "$CLEANED" -eq 0 ] || return 0
  CLEANED=1
  [ "$STATUS" -ne 0 ] || STATUS="$rc"
  if [ -n "$CHILD" ]; then
    say "stopping the running command (process group $CHILD)"
    kill -s TERM -- "-$CHILD" 2>/dev/null
    sleep 2
    kill -s KILL -- "-$CHILD" 2>/dev/null
    wait "$CHILD" 2>/dev/null
  fi
  if [ -n "$CUR_PHASE" ]; then
    record "$CUR_PHASE" $(($(date +%s) - CUR_T0)) "killed"
    case "$CUR_PHASE" in
      scripts/setup.sh) SETUP_RC=killed ;;
      scripts/test.sh) TEST_RC=killed ;;
    esac
  fi
  if [ -d "$ROOTFS" ]; then
    kill_root_procs
    # The project's own test logs, for the record.
    if [ -d "$ROOTFS/root/stencil/build/test-logs" ]; then
      mkdir -p "$LOG_DIR/test-logs"
      cp -a "$ROOTFS/root/stencil/build/test-logs/." "$LOG_DIR/test-logs/" 2>/dev/null
    fi
    if ! unmount_root; then
      STATUS=1
    elif [ "$KEEP" -eq 0 ]; then
      say "removing $ROOTFS"
      remove_root || STATUS=1
    fi
  fi
  print_summary
  exit "$STATUS"
}
trap cleanup EXIT
trap 'STATUS=130; exit 130' INT
trap 'STATUS=143; exit 143' TERM
trap 'STATUS=129; exit 129' HUP

#===----------------------------------------------------------------------===//
# 1. The root
#===----------------------------------------------------------------------===//

say "repository $REPO, commit $COMMIT"
say "work directory $WORK, logs $LOG_DIR"

# A root left by an earlier (kept or interrupted) run goes first.
if [ -e "$ROOTFS" ]; then
  say "removing the root left by an earlier run"
  remove_root || die "cannot remove the old root $ROOTFS"
fi

if [ -n "$CACHE" ] && [ -s "$CACHE" ]; then
  mkdir -p "$ROOTFS"
  phase "root (from cache)" "$LOG_DIR/root.log" \
    tar --numeric-owner -xpf "$CACHE" -C "$ROOTFS" \
    || { STATUS=1; exit 1; }
else
  phase "root (debootstrap)" "$LOG_DIR/root.log" \
    debootstrap --variant=minbase bookworm "$ROOTFS" "$MIRROR" \
    || { STATUS=1; exit 1; }
  if [ -n "$CACHE" ]; then
    mkdir -p "$(dirname "$CACHE")"
    # debootstrap unmounts what it mounted; never archive a mounted root.
    unmount_root || { STATUS=1; exit 1; }
    # The temporary name keeps the suffix, which picks the compression.
    tmp="$(dirname "$CACHE")/.tmp-$$-$(basename "$CACHE")"
    if ! phase "cache the root" "$LOG_DIR/root.log" \
           tar --numeric-owner -capf "$tmp" -C "$ROOTFS" .; then
      rm -f "$tmp"; STATUS=1; exit 1
    fi
    mv -f "$tmp" "$CACHE"
  fi
fi

#===----------------------------------------------------------------------===//
# 2. apt sources, resolv.conf, a clean clone
#===----------------------------------------------------------------------===//

prepare() {
  local f n=0 key keys
  # This machine's apt sources replace the root's default sources.list.
  if [ -e "$ROOTFS/etc/apt/sources.list" ]; then
    mv "$ROOTFS/etc/apt/sources.list" "$ROOTFS/etc/apt/sources.list.debootstrap"
  fi
  mkdir -p "$ROOTFS/etc/apt/sources.list.d"
  if [ -s /etc/apt/sources.list ]; then
    cp /etc/apt/sources.list "$ROOTFS/etc/apt/sources.list"; n=$((n + 1))
  fi
  for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    cp "$f" "$ROOTFS/etc/apt/sources.list.d/"; n=$((n + 1))
    # Keyrings the sources name that minbase does not have.
    keys="$(sed -n -e 's/^Signed-By: *\(\/[^ ]*\).*/\1/p' \
                   -e 's/.*signed-by=\([^] ]*\).*/\1/p' "$f")"
    for key in $keys; do
      if [ -f "$key" ] && [ ! -e "$ROOTFS$key" ]; then
        mkdir -p "$ROOTFS$(dirname "$key")"
        cp "$key" "$ROOTFS$key"
      fi
    done
  done
  [ "$n" -gt 0 ] || { echo "no apt sources on this machine" >&2; return 1; }
  echo "apt sources:"
  for f in "$ROOTFS"/etc/apt/sources.list "$ROOTFS"/etc/apt/sources.list.d/*; do
    [ ! -f "$f" ] || { echo "--- ${f#"$ROOTFS"}"; cat "$f"; }
  done

  rm -f "$ROOTFS/etc/resolv.conf"
  cp -L /etc/resolv.conf "$ROOTFS/etc/resolv.conf"

  # A clean clone of the commit, not the working tree.
  git clone --quiet --no-hardlinks "$REPO" "$ROOTFS/root/stencil"
  git -C "$ROOTFS/root/stencil" checkout --quiet --detach "$COMMIT"
  echo "clone: $(git -C "$ROOTFS/root/stencil" log -1 --format='%H %s')"
  # The sibling shared/ only if the tests reach for it.
  if git -C "$ROOTFS/root/stencil" grep -q -e '\.\./shared' "$COMMIT" --; then
    [ -d "$REPO/../shared" ] || { echo "the repository references ../shared, which is missing" >&2; return 1; }
    cp -a "$REPO/../shared" "$ROOTFS/root/shared"
    echo "copied ../shared"
  else
    echo "../shared is not referenced; not copied"
  fi
}

export ROOTFS REPO COMMIT
export -f prepare
phase "prepare" "$LOG_DIR/prepare.log" prepare || { STATUS=1; exit 1; }
mount_root

#===----------------------------------------------------------------------===//
# 3. The README's two commands, in the chroot
#===----------------------------------------------------------------------===//

# in_root <command>: a root login shell in the clone, with a clean environment.
in_root() {
  chroot "$ROOTFS" /usr/bin/env -i HOME=/root USER=root LOGNAME=root \
    SHELL=/bin/bash TERM="${TERM:-dumb}" LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/bash -lc "cd /root/stencil && $1"
}
export -f in_root

rc=0
phase "scripts/setup.sh" "$LOG_DIR/setup.log" in_root scripts/setup.sh || rc=$?
SETUP_RC="$rc"
[ "$rc" -eq 0 ] || STATUS=1

if [ "$ONLY_SETUP" -eq 0 ]; then
  rc=0
  phase "scripts/test.sh" "$LOG_DIR/test.log" in_root scripts/test.sh || rc=$?
  TEST_RC="$rc"
  [ "$rc" -eq 0 ] || STATUS=1
fi

exit "$STATUS"
