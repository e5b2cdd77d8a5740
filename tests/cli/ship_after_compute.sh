#!/bin/sh
# Message logging under measured computation: events are shipped to the
# event logger when the rank sends, after the computation it did since its
# last MPI call, not at that call (SMPI charges measured computation only
# at a rank's next MPI call, and the shipment went out at the uncharged
# time: the logger had the events, and acknowledged them, before the rank
# had computed; the trace's "log" line stood at the receive's time).
# busy_app ... wildcard: each iteration receives from MPI_ANY_SOURCE (an
# event), computes one unit (tens of ms), then sends. Checks, in rank 0's
# trace, for every "log" line with the unit charged between the delivery
# before it and the send after it (more than 5 ms; v2 also ships with no
# computation between), that at least half of the unit lies before the
# "log" (before the fix: none of it), and that there are 3 such lines.
# Usage: ship_after_compute.sh FTSIM BUSY_APP PROTOCOL
set -u
ftsim=$1 app=$2 protocol=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "ship_after_compute.sh $protocol: $*"; exit 1; }
FTSIM_HOST_SPEED=2e9 "$ftsim" run --app "$app" --np 2 --protocol "$protocol" \
  --compute measured --trace "$dir/t" -- 3 wildcard > "$dir/out" \
  2> "$dir/err" || { cat "$dir/err"; fail "exit $?"; }
grep -qF '"verified":true' "$dir/out" || { cat "$dir/out"; fail "not verified"; }
awk '
  /^#/ { next }
  $4 == "deliver" { delivered = $1 }
  $4 == "log" { logged = $1; pending = 1 }
  $4 == "send" && pending {
    unit = $1 - delivered; before = logged - delivered
    pending = 0
    if (unit <= 0.005)
      next
    n++
    printf "log %d: unit %.6f s, %.6f s of it before the log\n", n, unit, before
    if (before < 0.5 * unit) bad = 1
  }
  END { if (n < 3) { print "expected 3 units before a log, got " n; exit 1 }
        exit bad }
' "$dir/t.0" || fail "events shipped before the computation that preceded them"
echo "ship_after_compute.sh $protocol: ok"
