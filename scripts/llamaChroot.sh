#!/usr/bin/env bash
# Builds (or reuses) the Debian sid chroot that runs llama.cpp's `llama-server` for the optional
# `llama` test stage: Debian ships the server only in sid, which needs a newer libc than the host,
# so it lives in its own root under .cache/llama/sid. Idempotent: a chroot whose marker file says
# it is complete is reused as it is. /proc is mounted only while apt runs inside it and unmounted
# on the way out, whatever happens (llama-server and python do not need it), so nothing stays
# mounted under .cache for a later `rm -rf` or `find` to walk into. Each step is one line with
# its time. Exit codes:
#   0  ready (built or reused)
#   3  Debian sid could not be reached (one loud line; the llama suite is skipped)
#   4  this machine cannot build it (not root, not Debian/Ubuntu, no debootstrap/chroot)
#   1  any other failure (the step's log is printed)
# The marker `.cache/llama/ready` is written last, so an interrupted build is redone from
# scratch on the next call rather than trusted.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT_DIR="$PWD"
BASE="$ROOT_DIR/.cache/llama"
DIR="$BASE/sid"
READY="$BASE/ready"
LOG="$BASE/build.log"
MIRROR="${GWS_LLAMA_MIRROR:-http://deb.debian.org/debian}"
PACKAGES=(llama.cpp-tools python3-gguf python3-numpy)
START=$SECONDS
mkdir -p "$BASE"

say() { printf 'llama chroot: %s\n' "$*"; }
loud() { printf '\n!!!!! llama chroot: %s !!!!!\n\n' "$*" >&2; }
elapsed() { echo "$((SECONDS - $1)) s"; }

# Several worktrees share .cache; one build at a time.
exec 9>"$BASE/.lock"
flock 9

proc_mounted() { mountpoint -q "$DIR/proc"; }
mount_proc() {
  proc_mounted || mount -t proc proc "$DIR/proc"
}

# Unmounts what this run mounted, on every way out.
trap 'mountpoint -q "$DIR/proc" && umount "$DIR/proc"' EXIT

if [[ -f "$READY" && -x "$DIR/usr/bin/llama-server" ]]; then
  say "reused $DIR ($(cat "$READY")) in $(elapsed "$START")"
  exit 0
fi

if [[ $(id -u) -ne 0 ]]; then
  loud "SKIPPED: building the sid chroot needs root (exit 4)"
  exit 4
fi
if ! command -v apt-get >/dev/null; then
  loud "SKIPPED: building the sid chroot needs Debian or Ubuntu (apt-get) (exit 4)"
  exit 4
fi

if ! command -v debootstrap >/dev/null; then
  t=$SECONDS
  # CI runs this beside `npm test`, which may apt-get too: wait for the other's lock.
  wait_lock=(-o DPkg::Lock::Timeout=300)
  if ! apt-get "${wait_lock[@]}" install -y -qq debootstrap >"$LOG" 2>&1; then
    apt-get "${wait_lock[@]}" update -qq >>"$LOG" 2>&1
    if ! apt-get "${wait_lock[@]}" install -y -qq debootstrap >>"$LOG" 2>&1; then
      tail -20 "$LOG" >&2
      loud "SKIPPED: apt-get install debootstrap failed on the host (exit 4)"
      exit 4
    fi
  fi
  say "installed debootstrap on the host in $(elapsed "$t")"
fi

# A half-built root from an interrupted run: unmount what we mounted, then start over.
if [[ -d "$DIR" ]]; then
  t=$SECONDS
  proc_mounted && umount "$DIR/proc"
  if mountpoint -q "$DIR/proc"; then
    loud "cannot unmount $DIR/proc to rebuild the incomplete chroot (exit 1)"
    exit 1
  fi
  rm -rf --one-file-system "$DIR"
  say "removed an incomplete chroot in $(elapsed "$t")"
fi

# Reachability first, so an offline machine says so at once rather than after a timeout chain.
t=$SECONDS
if command -v curl >/dev/null && ! curl -fsS --max-time 20 -o /dev/null "$MIRROR/dists/sid/InRelease" 2>>"$LOG"; then
  loud "SKIPPED: Debian sid is not reachable ($MIRROR/dists/sid/InRelease); the llama suite will not run (exit 3)"
  exit 3
fi
say "sid reachable at $MIRROR in $(elapsed "$t")"

t=$SECONDS
if ! debootstrap --variant=minbase sid "$DIR" "$MIRROR" >"$LOG" 2>&1; then
  tail -20 "$LOG" >&2
  if grep -qiE 'Failed getting release file|Temporary failure|Could not resolve|Connection (refused|timed out)' "$LOG"; then
    loud "SKIPPED: Debian sid is not reachable (debootstrap could not download); the llama suite will not run (exit 3)"
    exit 3
  fi
  loud "debootstrap --variant=minbase sid failed (log: $LOG) (exit 1)"
  exit 1
fi
say "debootstrap --variant=minbase sid in $(elapsed "$t")"

t=$SECONDS
if ! mount_proc; then
  loud "cannot mount proc in $DIR (exit 4)"
  exit 4
fi
say "mounted proc in $(elapsed "$t")"

in_root() { chroot "$DIR" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive "$@"; }

# The mirror's sid Release file can be past its Valid-Until date (a frozen snapshot).
t=$SECONDS
if ! in_root apt-get -qq -o Acquire::Check-Valid-Until=false update >"$LOG" 2>&1; then
  tail -20 "$LOG" >&2
  loud "SKIPPED: apt-get update inside the sid chroot failed (sid not reachable?); the llama suite will not run (exit 3)"
  exit 3
fi
say "apt-get update (Check-Valid-Until=false) in $(elapsed "$t")"

t=$SECONDS
if ! in_root apt-get install -y -qq --no-install-recommends "${PACKAGES[@]}" >"$LOG" 2>&1; then
  tail -20 "$LOG" >&2
  loud "apt-get install ${PACKAGES[*]} inside the chroot failed (log: $LOG) (exit 1)"
  exit 1
fi
in_root apt-get clean >/dev/null 2>&1
version=$(in_root dpkg-query -W -f '${Version}' llama.cpp-tools 2>/dev/null)
umount "$DIR/proc"
say "installed ${PACKAGES[*]} (llama.cpp-tools $version) in $(elapsed "$t")"

if ! in_root llama-server --version >"$LOG" 2>&1; then
  tail -20 "$LOG" >&2
  loud "llama-server does not start inside the chroot (log: $LOG) (exit 1)"
  exit 1
fi

echo "llama.cpp-tools $version, built $(date -u +%Y-%m-%dT%H:%MZ)" >"$READY"
say "ready: $DIR ($(du -sm --one-file-system "$DIR" | cut -f1) MB) in $(elapsed "$START") total"
