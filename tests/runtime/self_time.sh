#!/bin/sh
# Messages to oneself cost under every protocol what they cost in SMPI (a
# local copy, issue 14 item 7): runs APP (self_check) under none, then under
# each PROTOCOL with period 0 (no wave), modelled computation, traced; each
# run must verify, each trace pass `ftsim check`, and each completion time
# equal none's within 1 us. The difference left (370 ns under pcl and vcl,
# 378 ns under pessimist, on gige with 4 ranks, whatever the number of
# iterations) is the runtime's own control traffic at MPI_Init and
# MPI_Finalize; before, self-messages went through Isend/Irecv on the
# loopback: +32% under pcl, vcl and pessimist (0.0160 s against 0.0121 s
# for 50 alltoalls).
# Usage: self_time.sh FTSIM APP PROTOCOL... -- [ftsim run options...]
ftsim=$1 app=$2
shift 2
protocols=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  protocols="$protocols $1"
  shift
done
[ $# -gt 0 ] && shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ftsim-self-XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
time_of() { # protocol, ftsim options... -> completion_time_s on stdout
  p=$1
  shift
  "$ftsim" run --app "$app" --compute modelled --protocol "$p" \
    --trace "$tmp/$p.trace" "$@" >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/out" "$tmp/err"; return 1; }
  grep -q '"verified":true' "$tmp/out" || { cat "$tmp/out"; return 1; }
  "$ftsim" check "$tmp/$p.trace" >"$tmp/check" 2>&1 ||
    { echo "self_time.sh: the trace of $p fails ftsim check:"; cat "$tmp/check"; return 1; }
  sed -n 's/.*"completion_time_s":\([0-9.e+-]*\).*/\1/p' "$tmp/out"
}
base=$(time_of none "$@") || exit 1
echo "none: $base s"
for p in $protocols; do
  t=$(time_of "$p" --set period=0 "$@") || exit 1
  echo "$p: $t s"
  awk -v a="$base" -v b="$t" -v p="$p" 'BEGIN {
    d = b - a; if (d < 0) d = -d
    printf "%s - none: %.9f s\n", p, b - a
    if (a == "" || b == "" || d > 1e-6) { print "FAIL: more than 1 us apart"; exit 1 }
  }' || exit 1
done
echo "self_time.sh: equal within 1 us"
