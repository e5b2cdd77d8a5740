#!/bin/sh
# crosscheck.sh: simulated against real, over every workload and protocol,
# on this machine (issue 20): `ftsim crosscheck` per case, a table and a
# gnuplot figure (simulated completion time against real, with y = x).
#
#   analysis/crosscheck.sh [--quick] [--kill] [-o DIR] [BUILD_DIR]
#
# Needs this machine's platform (ftsim calibrate, or $FTSIM_PLATFORM_CONF).
# Cases: cg, mg, lu (2 ranks), bt (4 ranks), ring, pingpong (2 ranks) under
# none, pcl, vcl, pessimist, v2 and bookmark, failure-free (period 0.2 s for
# the protocols that checkpoint), then with one failure (rank 1 at 0.05 s,
# scenarios/one-failure.txt: logical in reference mode too) for the
# protocols that recover. Computation: measured, with the workloads'
# declared flops set to 0 (--flops 0): the real kernels run in both modes,
# and SMPI charges their CPU time at the platform's core speed; modelled
# flops (NAS counts / DAXPY speed) would compare a model of the kernel, not
# the simulator (README, "Cross-check against this machine").
#   default: K = 3 runs per mode (CROSSCHECK_REPEAT), each case about 2 s
#            of real time; CROSSCHECK_APPS="cg mg" runs those apps only,
#            CROSSCHECK_PROTOCOLS="pcl pessimist" those protocols only
#            (failure-free and with a failure)
#   --kill:  the real runs' failures are SIGKILLs and relaunches
#            (--set failure=kill, README "Real failures: kill and
#            relaunch") for pcl, vcl and bookmark (message logging's stay
#            logical); the simulated runs' stay logical, restarting in the
#            scenario's restart time; the table's protocol reads pcl+kill
#   --quick: cg only, none and pcl failure-free and pcl with a failure
#            (rank 1 at 2 ms, period 1 ms), K = 1, small sizes (ctest: the JSON lines and the errors are
#            computed; nothing is asserted about their size)
# Writes DIR (default crosscheck-out): ftsim-ckpt/ (the real runs'
# images), runs.jsonl (crosscheck's JSON line
# per case), crosscheck.tsv (the table), crosscheck.gp and crosscheck.svg
# (the figure, if gnuplot is installed). Prints the table.
# Exit status: 0 every case ran, 1 a case failed (the others still run),
# 2 usage errors or no platform.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
QUICK=0 KILL=0 OUT=crosscheck-out BUILD=$ROOT/build
REPEAT=${CROSSCHECK_REPEAT:-3}
die() { echo "crosscheck.sh: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
  case $1 in
    --quick) QUICK=1 ;;
    --kill) KILL=1 ;;
    -o) [ $# -ge 2 ] || die "-o: missing directory"; OUT=$2; shift ;;
    -h|--help) sed -n '2,35p' "$0"; exit 0 ;;
    -*) die "unknown option '$1'" ;;
    *) BUILD=$1 ;;
  esac
  shift
done
FTSIM=$BUILD/ftsim
[ -x "$FTSIM" ] || die "no $FTSIM (build ftsim, or give BUILD_DIR)"
FTSIM=$(cd "$BUILD" && pwd)/ftsim
mkdir -p "$OUT" || die "cannot create $OUT"
OUT=$(cd "$OUT" && pwd)

SCENARIO=one-failure PERIOD=0.2
if [ "$QUICK" = 1 ]; then
  REPEAT=1 PERIOD=0.001 SCENARIO=$OUT/quick-failure.txt
  printf 'detection 0.0001\nrestart 0.001\nfail 1 at 0.002\n' >"$SCENARIO"
  CASES="cg|2|--iters 100 --tol 0 --size 2000 --flops 0"
  PROTOCOLS="none pcl" FAILING="pcl"
else
  # each about 2 s of real time on an idle 2-core machine (the issue's
  # error budget is for runs of at least 2 s)
  CASES="cg|2|--iters 600 --tol 0 --size 200000 --flops 0
mg|2|--size 128 --iters 8 --flops 0
lu|2|--class A --iters 250 --flops 0
bt|4|--class A --iters 150 --flops 0
ring|2|--iters 3000000 --flops 0
pingpong|2|--sizes 1:1M --iters 700"
  PROTOCOLS="none pcl vcl pessimist v2 bookmark"
  FAILING="pcl vcl pessimist v2 bookmark"
fi

: >"$OUT/runs.jsonl"
printf 'app\tprotocol\tfailures\treal_s\treal_min_s\treal_max_s\tsimulated_s\terror_pct\tmessages_error_pct\twaves_real\twaves_simulated\tload_avg\tpriority\n' \
  >"$OUT/crosscheck.tsv"

# field JSON KEY: the value of KEY in a flat JSON line ("null" if absent).
field() {
  v=$(printf '%s\n' "$1" | sed -n "s/.*\"$2\":\([^,}]*\).*/\1/p")
  echo "${v:-null}"
}
pct() { case $1 in null) echo n/a ;; *) awk -v e="$1" 'BEGIN { printf "%+.1f", e * 100 }' ;; esac; }

# The real runs compete for the cores with whatever else runs here. Linux
# shares the CPU between sessions (autogroups: /proc/sys/kernel/
# sched_autogroup_enabled), not between processes, so `nice` alone does not
# help: measured on the 2-core development VM with eight other sessions
# busy, cg's 0.31 s real run took 15-16 s (0.22 of 2 cores busy) at nice
# -19 and 0.31-0.32 s with its session's autogroup at nice -19. Where this
# script may (root, or CAP_SYS_NICE), it raises this session's autogroup to
# nice -19 while it runs and puts it back at the end (CROSSCHECK_PRIORITY=0:
# leave it). The table's last column says what was done.
PRIORITY=none
if [ "${CROSSCHECK_PRIORITY:-1}" = 1 ] && [ -w /proc/self/autogroup ]; then
  OLD_NICE=$(sed -n 's/.* nice \(-*[0-9]*\).*/\1/p' /proc/self/autogroup)
  if [ -n "$OLD_NICE" ] && echo -19 2>/dev/null >/proc/self/autogroup; then
    PRIORITY=autogroup-19
    trap 'echo "$OLD_NICE" >/proc/self/autogroup 2>/dev/null' EXIT
  fi
fi

STATUS=0
# one APP NP PROTOCOL FAILURES ARGS: one crosscheck, one row of the table.
one() {
  app=$1 np=$2 proto=$3 fails=$4 args=$5
  set -- --repeat "$REPEAT" --app "$app" --np "$np" --protocol "$proto" \
    --compute measured
  [ "$proto" = none ] || set -- "$@" --set period="$PERIOD"
  [ "$fails" = 0 ] || set -- "$@" --scenario "$SCENARIO"
  label=$proto
  case "$KILL$fails:$proto" in
    11:pcl|11:vcl|11:bookmark|11:c3)
      set -- "$@" --set failure=kill; label=$proto+kill ;;
  esac
  load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo null)
  # shellcheck disable=SC2086 # the app's arguments are words
  # </dev/null: mpirun reads stdin, which is the list of cases here; in
  # OUT, where the real runs write their images (ckpt_dir, ./ftsim-ckpt).
  line=$(cd "$OUT" && "$FTSIM" crosscheck "$@" -- $args </dev/null \
    2>"$OUT/last.err" | tail -n 1)
  case $line in
    '{'*) ;;
    *) echo "crosscheck.sh: $app $proto failures=$fails failed:" >&2
       tail -n 5 "$OUT/last.err" >&2; STATUS=1; return ;;
  esac
  printf '%s\n' "$line" >>"$OUT/runs.jsonl"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$app" "$label" \
    "$fails" "$(field "$line" real_s)" "$(field "$line" real_min_s)" \
    "$(field "$line" real_max_s)" "$(field "$line" simulated_s)" \
    "$(pct "$(field "$line" error)")" "$(pct "$(field "$line" messages_error)")" \
    "$(field "$line" waves_real)" "$(field "$line" waves_simulated)" \
    "$load" "$PRIORITY" >>"$OUT/crosscheck.tsv"
}

echo "$CASES" | while IFS='|' read -r app np args; do
  case " ${CROSSCHECK_APPS:-$app} " in *" $app "*) ;; *) continue ;; esac
  for p in $PROTOCOLS; do
    case " ${CROSSCHECK_PROTOCOLS:-$p} " in *" $p "*) ;; *) continue ;; esac
    one "$app" "$np" "$p" 0 "$args"
  done
  for p in $FAILING; do
    case " ${CROSSCHECK_PROTOCOLS:-$p} " in *" $p "*) ;; *) continue ;; esac
    one "$app" "$np" "$p" 1 "$args"
  done
  [ "$STATUS" = 0 ] || touch "$OUT/.failed"
done

cat >"$OUT/crosscheck.gp" <<GP
set terminal svg noenhanced size 700,600 dynamic font 'sans,10'
set output '$OUT/crosscheck.svg'
set title 'ftsim crosscheck: simulated vs real completion time (this machine)'
set xlabel 'real completion time, median (s)'
set ylabel 'simulated completion time (s)'
set logscale xy
set key top left
set datafile separator '\t'
plot '$OUT/crosscheck.tsv' using 4:(\$3 == 0 ? \$7 : 1/0) skip 1 title 'failure-free' pt 7, \
     '' using 4:(\$3 == 1 ? \$7 : 1/0) skip 1 title 'one failure' pt 9, \
     x title 'y = x' lt -1
GP
if command -v gnuplot >/dev/null 2>&1; then
  gnuplot "$OUT/crosscheck.gp" 2>"$OUT/gnuplot.err" ||
    { echo "crosscheck.sh: gnuplot failed:" >&2; cat "$OUT/gnuplot.err" >&2; STATUS=1; }
fi
column -t -s "$(printf '\t')" "$OUT/crosscheck.tsv" 2>/dev/null || cat "$OUT/crosscheck.tsv"
[ -e "$OUT/.failed" ] && { rm -f "$OUT/.failed"; STATUS=1; }
exit "$STATUS"
