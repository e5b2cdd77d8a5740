#!/bin/sh
# Sends that SMPI completes when posted (detached), completed by the
# runtime's waits under the protocols that recover as SMPI's MPI_Waitany
# would (sim/runtime/pending.c, issue 18 item 2): runs APP (at_once_check,
# whose result is a checksum of every completion's index and status) under
# none, then under each PROTOCOL without waves (period 0), whose checksum
# must be none's (the same completions in the same order, the same
# statuses), and twice with waves every PERIOD seconds: as built, and with
# FTSIM_WAIT_EVERY_SEND=1 (every wait in the library, the behaviour
# before), which must give the same checksum, completion time and waves to
# the nanosecond (the same simcalls; waves move the completions' order
# against none's, so that is the comparison there). Every run must verify
# and the runs with waves commit some. A wrong index, status or count
# changes a checksum; a completion that took simulated time, the time.
ftsim=$1 app=$2 period=$3
shift 3
protocols=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  protocols="$protocols $1"
  shift
done
[ $# -gt 0 ] && shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ftsim-at-once-XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
field() { # NAME: a number of the summary in $tmp/out
  sed -n "s/.*\"$1\":\([-0-9.e+]*\).*/\1/p" "$tmp/out"
}
run() { # protocol, ftsim options... -> "result completion_s waves" on stdout
  p=$1
  shift
  "$ftsim" run --app "$app" --compute modelled --protocol "$p" "$@" \
    >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/out" "$tmp/err"; return 1; }
  grep -q '"verified":true' "$tmp/out" || { cat "$tmp/out"; return 1; }
  echo "$(field result) $(field completion_time_s) $(field waves)"
}
base=$(run none "$@") || exit 1
echo "none: $base"
sum=${base%% *}
for p in $protocols; do
  quiet=$(run "$p" --set period=0 "$@") || exit 1
  a=$(run "$p" --set period="$period" "$@") || exit 1
  b=$(FTSIM_WAIT_EVERY_SEND=1 run "$p" --set period="$period" "$@") || exit 1
  echo "$p: no wave: $quiet; waves: $a; every send waited in the library: $b"
  [ "${quiet%% *}" = "$sum" ] ||
    { echo "FAIL: $p's checksum without waves is not none's ($sum)"; exit 1; }
  [ "$a" = "$b" ] ||
    { echo "FAIL: $p's checksum, completion time or waves moved"; exit 1; }
  [ "${a##* }" -gt 0 ] || { echo "FAIL: $p committed no wave"; exit 1; }
done
echo "at_once_time.sh: the same completions, statuses and simulated times"
