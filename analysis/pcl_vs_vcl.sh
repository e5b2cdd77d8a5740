#!/bin/sh
# pcl_vs_vcl.sh: the qualitative findings of pcl-vs-vcl-sc06, section 5, on
# the simulated platforms, as tables and one verdict per finding.
#
#   analysis/pcl_vs_vcl.sh [--quick] [BUILD_DIR]
#
# 1. gige / bt (Figures 9-10): completion time against committed waves for
#    pcl and vcl at periods T_none / d. Pcl's time grows with the waves
#    (least-squares slope, analysis/fit); Vcl's stays near T_none.
# 2. gige / bt (Figure 5): the same period with 1, 2 and 4 checkpoint
#    servers. Pcl gets faster with more servers; Vcl keeps its time and
#    commits as many waves or more.
# 3. myrinet / cg (Figure 7, latency-bound): pcl against vcl with and
#    without the communication-daemon cost model (daemon_latency_us,
#    daemon_copy_mbps: MPICH-Vcl's two extra copies through Unix sockets).
#    Pcl beats Vcl when the daemon model is on.
# Each table shows protocol none for reference. A verdict line per finding
# says "reproduced" or "NOT reproduced" with the numbers behind it.
#
# Settings: 16 ranks; bt --class W, cg --tol 0; image_mb per rank so that an
# upload takes a few percent of the run (see fidelity.sh); daemon model
# 25 us per message on each side and 400 MB/s of copies (an assumption: two
# socket hops and two copies per side, not a measured figure).
#   default: bt --iters 40, cg --iters 200, periods T/1.5 T/3 T/6 T/12
#   --quick: bt --iters 16, cg --iters 80, periods T/2 T/8 (ctest)
# Runs go PVV_JOBS at a time (default 2); the output does not depend on it.
#
# Exit status: 0 if every run succeeded with "verified":true (a finding the
# simulation does not reproduce is reported, not an error); 1 if a run
# failed; 2 on usage errors.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
JOBS=${PVV_JOBS:-2}
NP=16
DAEMON="--set daemon_latency_us=25 --set daemon_copy_mbps=400"

die() { echo "pcl_vs_vcl.sh: $*" >&2; exit 2; }

. "$ROOT/analysis/runs.sh"
parse_args PVV_JOBS "$@"

if [ $QUICK -eq 1 ]; then
  BT="--class W --iters 16" CG="--tol 0 --iters 80" DIVISORS="2 8"
else
  BT="--class W --iters 40" CG="--tol 0 --iters 200" DIVISORS="1.5 3 6 12"
fi
IMAGE=0.05
SERVERS_IMAGE=0.4

TMP=$(mktemp -d "${TMPDIR:-/tmp}/pcl_vs_vcl.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
START=$(date +%s)
FAILED=0

bt="--platform gige --np $NP --app bt"
cg="--platform myrinet --np $NP --app cg"
period() { awk -v t="$1" -v d="$2" 'BEGIN { printf "%.4g", t / d }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.2f%%", 100 * (a - b) / b }'; }

# Phase 1: baselines (protocol none), which set the periods.
{
  echo "bt_none $bt --protocol none -- $BT"
  echo "cg_none $cg --protocol none -- $CG"
} | run_jobs
check bt_none "gige/bt protocol none" || FAILED=1
check cg_none "myrinet/cg protocol none" || FAILED=1
[ $FAILED -eq 0 ] || exit 1
T_BT=$(field bt_none completion_time_s)
T_CG=$(field cg_none completion_time_s)
P_SERVERS=$(period "$T_BT" 6)
P_CG=$(period "$T_CG" 6)

# Phase 2: everything else.
{
  for proto in pcl vcl; do
    i=0
    for d in $DIVISORS; do
      echo "bt_${proto}_$i $bt --protocol $proto --set period=$(period "$T_BT" "$d")" \
        "--set image_mb=$IMAGE -- $BT"
      i=$((i + 1))
    done
    for s in 1 2 4; do
      echo "srv_${proto}_$s $bt --protocol $proto --service-ranks $s" \
        "--set period=$P_SERVERS --set image_mb=$SERVERS_IMAGE -- $BT"
    done
    echo "cg_$proto $cg --protocol $proto --set period=$P_CG --set image_mb=$IMAGE -- $CG"
  done
  echo "cg_vcl_daemon $cg --protocol vcl --set period=$P_CG --set image_mb=$IMAGE $DAEMON -- $CG"
  echo "cg_none_daemon $cg --protocol none $DAEMON -- $CG"
} | run_jobs

# row ID LABEL BASE_S: one table row (label, period, servers, waves,
# completion, overhead over BASE_S); "FAILED" for a failed run.
row() {
  if ! check "$1" "$2"; then
    FAILED=1
    printf '%-22s %9s %7s %6s %14s %9s\n' "$2" - - - FAILED -
    return 1
  fi
  t=$(field "$1" completion_time_s)
  p=$(sed -n 's/.*--set period=\([^ ]*\).*/\1/p' "$TMP/$1.args")
  s=$(field "$1" service_ranks)
  printf '%-22s %9s %7s %6s %14.6f %9s\n' "$2" "${p:--}" "$s" \
    "$(field "$1" waves)" "$t" "$(ratio "$t" "$3")"
}
header() {
  printf '%-22s %9s %7s %6s %14s %9s\n' run period_s servers waves \
    completion_s vs_none
}

# slope PROTO: least-squares slope (s/wave) and R² of completion time
# against waves over the bt runs of PROTO, as "slope r2", or "".
slope() {
  for id in "$TMP"/bt_"$1"_*.out; do
    id=${id##*/}
    id=${id%.out}
    check "$id" "$id" 2>/dev/null && echo "$(field "$id" waves) $(field "$id" completion_time_s)"
  done | "$FIT" 2>/dev/null | awk '$1 == "slope" { s = $2 } $1 == "r2" { r = $2 }
    END { if (s != "") print s, r }'
}

verdict() { # verdict OK TEXT...
  ok=$1
  shift
  if [ "$ok" = 1 ]; then echo "finding: reproduced: $*"; else echo "finding: NOT reproduced: $*"; fi
}

echo "Pcl against Vcl: the findings of pcl-vs-vcl-sc06, section 5, simulated"
echo
echo "== 1. gige / bt, $NP ranks, $BT, 1 checkpoint server, image_mb=$IMAGE," \
  "period = T_none / d, d in $DIVISORS (Figures 9-10) =="
header
row bt_none "none" "$T_BT"
for proto in pcl vcl; do
  for f in "$TMP"/bt_"$proto"_*.args; do
    id=${f##*/}
    id=${id%.args}
    row "$id" "$proto" "$T_BT"
  done
done
set -- $(slope pcl) "" ""
PCL_SLOPE=$1 PCL_R2=$2
set -- $(slope vcl) "" ""
VCL_SLOPE=$1 VCL_R2=$2
echo "fit: pcl slope ${PCL_SLOPE:-?} s/wave (R² ${PCL_R2:-?}); vcl slope" \
  "${VCL_SLOPE:-?} s/wave (R² ${VCL_R2:-?})"
VCL_WORST=$(for f in "$TMP"/bt_vcl_*.out; do
  id=${f##*/}
  field "${id%.out}" completion_time_s
done | sort -g | tail -n 1)
ok=$(awk -v p="${PCL_SLOPE:-0}" -v v="${VCL_SLOPE:-0}" -v w="${VCL_WORST:-0}" \
  -v t="$T_BT" 'BEGIN { print (p > 0 && v < p / 2 && w < t * 1.05) ? 1 : 0 }')
verdict "$ok" "pcl's time grows with the waves (slope ${PCL_SLOPE:-?} s/wave)," \
  "vcl's less than half as fast (${VCL_SLOPE:-?}) and its slowest run within" \
  "5% of protocol none ($(ratio "${VCL_WORST:-0}" "$T_BT"))"

echo
echo "== 2. gige / bt, $NP ranks, $BT, period $P_SERVERS s (T_none / 6)," \
  "image_mb=$SERVERS_IMAGE, 1, 2, 4 checkpoint servers (Figure 5) =="
header
for proto in pcl vcl; do
  for s in 1 2 4; do
    row "srv_${proto}_$s" "$proto" "$T_BT"
  done
done
ok=$(awk -v p1="$(field srv_pcl_1 completion_time_s)" \
  -v p4="$(field srv_pcl_4 completion_time_s)" \
  -v w1="$(field srv_vcl_1 waves)" -v w4="$(field srv_vcl_4 waves)" \
  'BEGIN { print (p1 != "" && p4 != "" && p4 < p1 && w4 >= w1) ? 1 : 0 }')
verdict "$ok" "pcl is faster with 4 servers than with 1" \
  "($(field srv_pcl_1 completion_time_s) -> $(field srv_pcl_4 completion_time_s) s);" \
  "vcl commits as many waves or more ($(field srv_vcl_1 waves) -> $(field srv_vcl_4 waves))"

echo
echo "== 3. myrinet / cg, $NP ranks, $CG, period $P_CG s (T_none / 6)," \
  "daemon model: $DAEMON (Figure 7) =="
header
row cg_none "none" "$T_CG"
row cg_none_daemon "none + daemon" "$T_CG"
row cg_pcl "pcl" "$T_CG"
row cg_vcl "vcl" "$T_CG"
row cg_vcl_daemon "vcl + daemon" "$T_CG"
ok=$(awk -v p="$(field cg_pcl completion_time_s)" \
  -v v="$(field cg_vcl_daemon completion_time_s)" \
  'BEGIN { print (p != "" && v != "" && p < v) ? 1 : 0 }')
verdict "$ok" "pcl ($(field cg_pcl completion_time_s) s) beats vcl with the" \
  "daemon model ($(field cg_vcl_daemon completion_time_s) s)"

echo
echo "pcl_vs_vcl: $(ls "$TMP"/*.rc | wc -l) runs, $JOBS at a time, in" \
  "$(($(date +%s) - START)) s of wall time"
[ $FAILED -eq 0 ] || { echo "pcl_vs_vcl.sh: some runs failed (see above)" >&2; exit 1; }
exit 0
