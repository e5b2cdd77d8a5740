#!/bin/sh
# sweep.sh: throughput of `ftsim sweep` (points per minute) at 64 ranks, and
# the speed-up from one to two simultaneous simulations (-j1 against -j2),
# printed side by side.
#
#   bench/sweep.sh [-r RANKS] [-a APP] [-p PLATFORM] [BUILD_DIR]
#
# The same sweep runs twice from scratch, into two CSVs: pcl on cg (100
# iterations), 2 periods x (no failure + MTBF 0.1 s x 2 seeds) = 6 points,
# plus protocol none once = 7 points; first with -j 1, then with -j 2. Prints
# the wall time of each, points per minute, the speed-up, and whether both
# runs gave the same simulated results (they must: SMPI is deterministic),
# and the sum of the points' own wall times with each (contention shows as
# a larger sum with -j2); then what limits the speed-up: the slots' use
# with -j2 (busy share, the tail with a slot idle and no point left, from
# ftsim sweep's last line) and the best -j2 could do with the -j1 point
# lengths without contention: sum / max(sum / 2, longest point).
# Not a test: the numbers depend on the machine and on what else runs.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
RANKS=64
APP=cg
PLATFORM=gige
while getopts r:a:p: opt; do
  case $opt in
    r) RANKS=$OPTARG ;;
    a) APP=$OPTARG ;;
    p) PLATFORM=$OPTARG ;;
    *) echo "usage: $0 [-r RANKS] [-a APP] [-p PLATFORM] [BUILD_DIR]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
BUILD=${1:-$ROOT/build}
FTSIM=$BUILD/ftsim
[ -x "$FTSIM" ] || { echo "sweep.sh: $FTSIM not built" >&2; exit 2; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/bench-sweep.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cat >"$TMP/bench.txt" <<EOF
protocols none pcl
platforms $PLATFORM
apps $APP
ranks $RANKS
periods 0.02 0.04
mtbfs none 0.1
seeds 1 2
image_mb 0.05
detection 0.001
restart 0.01
max_failures 10
app_args --iters 100 --tol 0
EOF

now() { date +%s.%N; }

# run JOBS: runs the sweep from scratch with -j JOBS; prints its wall time.
run() {
  t0=$(now)
  "$FTSIM" sweep -j "$1" -o "$TMP/j$1.csv" "$TMP/bench.txt" 2>"$TMP/j$1.err" || {
    echo "sweep.sh: ftsim sweep -j $1 failed:" >&2
    tail -n 5 "$TMP/j$1.err" >&2
    exit 1
  }
  awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'
}

POINTS=$("$FTSIM" sweep --dry-run -o "$TMP/count.csv" "$TMP/bench.txt" | sed -n 's/^# \([0-9]*\) points.*/\1/p')
W1=$(run 1)
W2=$(run 2)
# The rows of a CSV: without the provenance comments and the header.
rows() { grep -v '^#' "$1" | tail -n +2; }
# The simulated figures (parameters to replayed_msgs, not wall_s) of both.
same() { rows "$1" | cut -d, -f1-28 | sort; }
if [ "$(same "$TMP/j1.csv")" = "$(same "$TMP/j2.csv")" ]; then SAME=yes; else SAME=NO; fi
OK=$(rows "$TMP/j2.csv" | awk -F, '$15 == "ok"' | wc -l)

echo "ftsim sweep throughput: $APP on $RANKS ranks of $PLATFORM, $POINTS points" \
  "(none once; pcl at 2 periods x (no failure + MTBF 0.1 s x 2 seeds)), $(nproc) cores"
printf '%-6s %10s %12s %9s\n' jobs wall_s points/min speed-up
awk -v n="$POINTS" -v w1="$W1" -v w2="$W2" 'BEGIN {
  printf "%-6s %10.2f %12.2f %9.2f\n", "-j1", w1, 60 * n / w1, 1
  printf "%-6s %10.2f %12.2f %9.2f\n", "-j2", w2, 60 * n / w2, w1 / w2
}'
# Sum of the points' own wall times: how much running two at a time slows
# each one down (shared caches, memory bandwidth, other load).
sum() { rows "$1" | awk -F, '{ s += $29 } END { printf "%.1f", s }'; }
echo "points ok: $OK of $POINTS; same simulated results with -j1 and -j2: $SAME"
echo "sum of the points' wall times: $(sum "$TMP/j1.csv") s with -j1," \
  "$(sum "$TMP/j2.csv") s with -j2; longest point:" \
  "$(rows "$TMP/j1.csv" | awk -F, '$29 > m { m = $29 } END { printf "%.1f", m }') s"
# The speed-up is 2 x the slots' use x the contention factor:
#   W1 / W2 = 2 x (sum2 / (2 x W2)) x (sum1 / sum2) x (W1 / sum1)
# slots' use: the share of -j2's 2 x W2 slot-seconds spent in points
# (what ftsim sweep's ordering and refill control); sum1 / sum2: how much
# each point slowed down running beside another (the machine); W1 / sum1:
# -j1's own overhead between points (about 1).
awk -v w1="$W1" -v w2="$W2" -v s1="$(sum "$TMP/j1.csv")" -v s2="$(sum "$TMP/j2.csv")" 'BEGIN {
  printf "speed-up %.2f = 2 x slots busy %.3f x contention %.3f x -j1 overhead %.3f\n",
    w1 / w2, s2 / (2 * w2), s1 / s2, w1 / s1 }'
if grep -q '^sweep: slots busy' "$TMP/j2.err"; then
  echo "-j2: $(grep -h '^sweep: slots busy' "$TMP/j2.err" | sed 's/^sweep: //')"
fi
rows "$TMP/j1.csv" | awk -F, '{ s += $29; if ($29 > m) m = $29 }
  END { b = s / 2 > m ? s / 2 : m
        printf "bound from the -j1 point lengths without contention: %.2f\n", s / b }'
[ "$SAME" = yes ]
