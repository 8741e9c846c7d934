#!/bin/sh
# syscall-census.sh - run a command under strace, following every process
# and thread into evident's boxes, and list the system calls made inside
# the boxes (scripts/syscall-census.py): the measurement a box's seccomp
# allow list is written from.  On a GPU host without strace, carry one
# (build/strace: the binary and its libraries) and point STRACE at it.
#
# Usage: scripts/syscall-census.sh OUTDIR COMMAND [ARG...]
#   OUTDIR/trace.PID   raw traces (large; removed unless KEEP_TRACES=1)
#   OUTDIR/census.txt  one line per call: count, EPERM count, payloads
#   OUTDIR/census.json the same as JSON
# CENSUS_TIMEOUT=S stops the traced command after S seconds (the census of
# what it did until then is still written).
set -u
[ $# -ge 2 ] || { echo "usage: $0 OUTDIR COMMAND [ARG...]" >&2; exit 2; }
out=$1; shift
mkdir -p "$out" || exit 2
here=$(cd "$(dirname "$0")" && pwd)
st=${STRACE:-strace}
${CENSUS_TIMEOUT:+timeout -k 5 $CENSUS_TIMEOUT} "$st" --pidns-translation -f -ff -qq -s 256 -e signal=none -o "$out/trace" "$@"
rc=$?
python3 "$here/syscall-census.py" "$out/trace" --json "$out/census.json" > "$out/census.txt"
[ "${KEEP_TRACES:-0}" = 1 ] || rm -f "$out"/trace.*
exit $rc
