#!/bin/sh
# calibrate.sh: checks that a platform file reproduces its target latency and
# bandwidth (platforms/targets.tsv) by running analysis/calibrate.c under
# smpirun, and prints one table row per host pair.
#
#   analysis/calibrate.sh [--hosts] PLATFORM [BUILD_DIR]
#
# PLATFORM is a name (gige, myrinet, grid5000: platforms/NAME.xml) or a path
# to an XML file whose base name is a platform of targets.tsv.  BUILD_DIR
# (default: <repo>/build) holds analysis/smpi/calibrate.
#
# Default mode: all pairs of the platform are measured in one smpirun (pairs
# in turn, the other ranks wait); latency = one-way time of 1 byte, bandwidth
# = NetPIPE-style size / one-way time of 16 MiB messages (NetPIPE's peak) and
# of 1 MiB messages; both must be within the tolerance of the target.
# --hosts: checks instead that the platform declares exactly the hosts of
# platforms/hosts.tsv (no more, no fewer) and that, launched on all of them in
# that order, each rank sees its host and reaches the first one.
#
# Exit status: 0 if every value is within FTSIM_CALIB_TOL percent (default
# 10) of its target, 1 otherwise or if smpirun failed or deadlocked, 2 on
# usage errors.  smpirun's own log is shown only when it fails.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
TOL=${FTSIM_CALIB_TOL:-10}
BIG=16777216
SMALL=1048576

die() { echo "calibrate.sh: $*" >&2; exit 2; }

MODE=pairs
if [ "${1:-}" = "--hosts" ]; then MODE=hosts; shift; fi
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  die "usage: $0 [--hosts] PLATFORM [BUILD_DIR]"
fi

case $1 in
  *.xml) XML=$1 ;;
  *) XML=$ROOT/platforms/$1.xml ;;
esac
[ -f "$XML" ] || die "no platform file $XML"
NAME=$(basename "$XML" .xml)
BUILD=${2:-$ROOT/build}
BIN=$BUILD/analysis/smpi/calibrate
[ -f "$BIN" ] || die "$BIN not built (ninja -C $BUILD calibrate-smpi)"
command -v smpirun >/dev/null || die "smpirun not found"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/calibrate.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT

# run_smpi HOSTFILE ARGS...: smpirun quietly; output in $TMP/out.  Fails if
# smpirun fails or reports a deadlock (it can exit 0 after one).
run_smpi() {
  hf=$1; shift
  smpirun -platform "$XML" -hostfile "$hf" \
    --cfg=smpi/simulate-computation:no --log=root.thresh:warning \
    "$BIN" "$@" >"$TMP/out" 2>&1
  rc=$?
  if [ $rc -ne 0 ] || grep -q "Deadlock" "$TMP/out"; then
    cat "$TMP/out" >&2
    echo "calibrate.sh: smpirun failed (exit $rc) on $XML" >&2
    return 1
  fi
}

check_hosts() {
  awk -F'\t' -v p="$NAME" '$1 == p { for (i = $4; i <= $5; i++) print $3 i }' \
    "$ROOT/platforms/hosts.tsv" >"$TMP/expected"
  [ -s "$TMP/expected" ] || die "no hosts for '$NAME' in platforms/hosts.tsv"
  run_smpi "$TMP/expected" names || exit 1
  awk '$1 == "host" { print $3 }' "$TMP/out" >"$TMP/got"
  awk '$1 == "platform_host" { print $2 }' "$TMP/out" | LC_ALL=C sort >"$TMP/declared"
  LC_ALL=C sort "$TMP/expected" >"$TMP/expected.sorted"
  if ! cmp -s "$TMP/expected" "$TMP/got" || ! cmp -s "$TMP/expected.sorted" "$TMP/declared"; then
    diff "$TMP/expected" "$TMP/got" | head -10
    diff "$TMP/expected.sorted" "$TMP/declared" | head -10
    echo "FAIL: $NAME hosts differ from platforms/hosts.tsv" >&2
    exit 1
  fi
  echo "OK: $NAME loads, $(wc -l <"$TMP/got") hosts as listed in platforms/hosts.tsv:"
  awk -F'\t' -v p="$NAME" '$1 == p { printf "  %s%d..%s%d (%s)\n", $3, $4, $3, $5, $2 }' \
    "$ROOT/platforms/hosts.tsv"
}

# Pairs of targets.tsv for this platform -> hostfile (unique hosts, in order)
# and "i:j" rank pairs.
make_pairs() {
  awk -F'\t' -v p="$NAME" '$1 == p' "$ROOT/platforms/targets.tsv" >"$TMP/targets"
  [ -s "$TMP/targets" ] || die "no targets for '$NAME' in platforms/targets.tsv"
  awk -F'\t' -v hf="$TMP/hostfile" '
    function rank(h) { if (!(h in r)) { r[h] = n++; print h > hf } return r[h] }
    { a = rank($2); b = rank($3); printf "%d:%d\n", a, b }' \
    "$TMP/targets" >"$TMP/pairs"
}

# Joins measurements with targets; prints the table; exit 1 on any FAIL.
report() {
  awk -F'\t' -v tol="$TOL" -v big="$BIG" -v small="$SMALL" -v name="$NAME" '
    function err(m, t) { return 100 * (m - t) / t }
    function abs(x) { return x < 0 ? -x : x }
    FNR == NR {
      n = split($0, f, " ")
      if (f[1] != "pair") next
      key = f[2] " " f[3]; lat[key] = f[5]
      for (i = 6; i < n; i += 2) {
        if (f[i] == "bw_mbps@" big) bwb[key] = f[i + 1]
        if (f[i] == "bw_mbps@" small) bws[key] = f[i + 1]
      }
      next
    }
    {
      key = $2 " " $3; rows++
      if (!(key in lat)) { printf "%-40s no measurement  FAIL\n", $2 " - " $3; bad++; next }
      el = err(lat[key], $4); eb = err(bwb[key], $5); es = err(bws[key], $5)
      ok = abs(el) <= tol && abs(eb) <= tol && abs(es) <= tol
      if (!ok) bad++
      printf "%-40s %10.3f %10.3f %+7.2f %10.3f %10.3f %+7.2f %10.3f %+7.2f  %s\n", \
        $2 " - " $3, lat[key], $4, el, bwb[key], $5, eb, bws[key], es, ok ? "OK" : "FAIL"
    }
    BEGIN {
      printf "%-40s %10s %10s %7s %10s %10s %7s %10s %7s  %s\n", "pair (" name ")", \
        "lat_us", "target", "err%", "bw_Mb/s", "target", "err%", "bw@1MiB", "err%", "verdict"
    }
    END {
      printf "%d pairs, %d outside %s%%: %s\n", rows, bad, tol, bad ? "FAIL" : "OK"
      exit bad ? 1 : 0
    }' "$TMP/out" "$TMP/targets"
}

if [ "$MODE" = hosts ]; then
  check_hosts
  exit 0
fi
make_pairs
# shellcheck disable=SC2046  # one argument per pair
run_smpi "$TMP/hostfile" -r 10 -s "$SMALL" -s "$BIG" $(cat "$TMP/pairs") || exit 1
report
