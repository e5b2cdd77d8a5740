#!/bin/sh
# fidelity.sh: does simulated Pcl reproduce the papers' main result, a
# completion time that grows linearly with the number of checkpoint waves
# (pcl-vs-vcl-sc06, Figures 7, 9 and 10; pcl-vs-vcl-fgcs08, Figures 7-8)?
#
#   analysis/fidelity.sh [--quick] [BUILD_DIR]
#
# For each platform (gige, myrinet) and workload (bt, cg): one run with
# protocol none (completion time T), one with pcl and period 0 (the protocol
# without checkpoints: 0 waves), and pcl runs at periods T / d for the
# divisors d below, so that from 1 to about 10 waves commit (`period` is the
# time from a commit to the next wave). Prints, per platform and workload, a
# table (period, waves committed, completion time, MB checkpointed,
# verified) and the least-squares line completion_time = a + b * waves
# through the pcl runs (analysis/fit.c): slope b in s/wave and R². The
# protocol none run is shown for reference, with what pcl costs without any
# wave, but is not in the fit: that cost is per run, not per wave.
#
# Settings (printed with each table): 16 ranks, 1 checkpoint server for all
# (16 ranks per server, as the 64 ranks on 4 servers of pcl-vs-vcl-sc06
# Figure 7); each checkpoint carries the workload's protected state plus a
# modelled process image of image_mb per rank, which competes with the
# application's traffic. The runs last 0.1 to 0.3 simulated seconds (a few
# seconds of wall time each), so images are scaled down with them: one
# wave's uploads take a few percent of the run, as the papers' images did in
# their 100-600 s runs; 20-100 MB per rank would take longer than the run.
#   default: bt --class W --iters 80, cg --tol 0 --iters 300, 6 periods
#   --quick: bt --class W --iters 40, cg --tol 0 --iters 100, 4 periods
#            (the ctest entry analysis/fidelity_quick)
#
# Runs go FIDELITY_JOBS at a time (default 2); the output does not depend on
# it. FIDELITY_OUT=DIR also writes DIR/PLATFORM_APP.dat for gnuplot: columns
# waves, completion_s, period_s (0: no checkpoint), the rest in comments
# (plot 'gige_bt.dat' using 1:2).
#
# Exit status: 0 if every run succeeded with "verified":true and every fit
# was computed; 1 otherwise (each failing run is named on stderr with its
# command line and the end of its log); 2 on usage errors.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
JOBS=${FIDELITY_JOBS:-2}
NP=16
SERVERS=1
PLATFORMS="gige myrinet"
APPS="bt cg"

die() { echo "fidelity.sh: $*" >&2; exit 2; }

. "$ROOT/analysis/runs.sh"
parse_args FIDELITY_JOBS "$@"
if [ -n "${FIDELITY_OUT:-}" ]; then
  mkdir -p "$FIDELITY_OUT" || die "cannot create $FIDELITY_OUT"
fi

if [ $QUICK -eq 1 ]; then
  DIVISORS="1.5 3 6 12"
  ARGS_bt="--class W --iters 40"
  ARGS_cg="--tol 0 --iters 100"
else
  DIVISORS="1.5 3 5 8 12 20"
  ARGS_bt="--class W --iters 80"
  ARGS_cg="--tol 0 --iters 300"
fi
IMAGE_bt=0.05
IMAGE_cg=0.05

TMP=$(mktemp -d "${TMPDIR:-/tmp}/fidelity.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
START=$(date +%s)

# summary ID: "completion_s waves verified ckpt_bytes" from the run's JSON
# line (the last line of its stdout), or nothing.
summary() {
  echo "$(field "$1" completion_time_s) $(field "$1" waves)" \
    "$(field "$1" verified) $(field "$1" ckpt_bytes)"
}

# Phase 1: baselines.
for pl in $PLATFORMS; do
  for app in $APPS; do
    eval "args=\$ARGS_$app"
    echo "${pl}_${app}_none --platform $pl --np $NP --app $app --protocol none -- $args"
  done
done | run_jobs

# Phase 2: pcl without checkpoints (period 0: "never", 0 waves) and at
# periods T / d.
FAILED=0
for pl in $PLATFORMS; do
  for app in $APPS; do
    id=${pl}_${app}_none
    check "$id" "$pl/$app baseline (protocol none)" || { FAILED=1; continue; }
    t=$(summary "$id" | awk '{ print $1 }')
    eval "args=\$ARGS_$app; image=\$IMAGE_$app"
    i=0
    for d in never $DIVISORS; do
      p=0
      [ "$d" = never ] || p=$(awk -v t="$t" -v d="$d" 'BEGIN { printf "%.4g", t / d }')
      echo "${pl}_${app}_$i --platform $pl --np $NP --app $app --protocol pcl" \
        "--service-ranks $SERVERS --set period=$p --set image_mb=$image -- $args"
      i=$((i + 1))
    done
  done
done | run_jobs

# row ID PERIOD DESCRIPTION: prints the table row of a run (and appends
# "waves completion_s period_s" to $TMP/points for pcl runs); returns 1 if
# the run failed.
row() {
  RUNS=$((RUNS + 1))
  if ! check "$1" "$3"; then
    printf '%10s %6s %14s %9s  %s\n' "$2" - - - FAILED
    return 1
  fi
  set -- "$1" "$2" "$3" $(summary "$1")
  printf '%10s %6s %14.6f %9.1f  %s\n' "$2" "$5" "$4" \
    "$(awk -v b="$7" 'BEGIN { print b / 1e6 }')" "$6"
  case $1 in *_none) ;; *) echo "$5 $4 $2" >>"$TMP/points" ;; esac
}

# Tables and fits, in a fixed order.
RUNS=0
FITS=""
NPERIODS=$(echo $DIVISORS | wc -w)
echo "Pcl fidelity: completion time against committed checkpoint waves" \
  "(pcl-vs-vcl-sc06 Fig. 7, 9-10: linear)"
for pl in $PLATFORMS; do
  for app in $APPS; do
    eval "args=\$ARGS_$app; image=\$IMAGE_$app"
    echo
    echo "== $pl / $app: $NP ranks, $args; pcl with $SERVERS checkpoint" \
      "server(s), image_mb=$image per rank (+ protected state)," \
      "period = T_none / d, d in $DIVISORS =="
    printf '%10s %6s %14s %9s  %s\n' period_s waves completion_s ckpt_MB verified
    : >"$TMP/points"
    row "${pl}_${app}_none" "(none)" "$pl/$app baseline (protocol none)" || FAILED=1
    for i in $(seq 0 "$NPERIODS"); do
      id=${pl}_${app}_$i
      [ -f "$TMP/$id.rc" ] || continue
      p=$(sed -n 's/.*--set period=\([^ ]*\).*/\1/p' "$TMP/$id.args")
      [ "$p" = 0 ] && p=never
      row "$id" "$p" "$pl/$app pcl period=$p" || FAILED=1
    done
    if ! cut -d' ' -f1,2 "$TMP/points" | "$FIT" >"$TMP/fit" 2>"$TMP/fit.err"; then
      echo "fit: cannot be computed: $(cat "$TMP/fit.err")"
      FAILED=1
      FITS="$FITS $pl/$app R²=none,"
      continue
    fi
    eval "$(awk '{ print "fit_" $1 "=" $2 }' "$TMP/fit")"
    t_none=$(summary "${pl}_${app}_none" | awk '{ print $1 }')
    t_never=$(awk '$3 == "never" { print $2 }' "$TMP/points")
    # shellcheck disable=SC2154  # fit_* come from the eval above
    awk -v a="$fit_intercept" -v b="$fit_slope" -v r2="$fit_r2" \
      -v n="$fit_points" -v none="$t_none" -v never="$t_never" '
      BEGIN {
        printf "fit: completion_time = a + b * waves over the %d pcl runs, a = %.6f s, " \
          "slope b = %.6f s/wave (%.2f%% of a), R² = %.4f\n", n, a, b, 100 * b / a, r2
        if (none != "" && never != "")
          printf "pcl without waves costs %+.6f s (%+.2f%%) over protocol none (not in the fit)\n", \
            never - none, 100 * (never - none) / none
      }'
    FITS="$FITS $pl/$app R²=$(awk -v r="$fit_r2" 'BEGIN { printf "%.4f", r }'),"
    if [ -n "${FIDELITY_OUT:-}" ]; then
      {
        echo "# $pl / $app: $NP ranks, $args; pcl, $SERVERS server(s), image_mb=$image"
        echo "# protocol none: ${t_none:-failed} s"
        echo "# fit: a = $fit_intercept s, b = $fit_slope s/wave, R2 = $fit_r2"
        echo "# waves completion_s period_s (0: no checkpoint)"
        sed 's/ never$/ 0/' "$TMP/points"
      } >"$FIDELITY_OUT/${pl}_$app.dat"
    fi
  done
done

echo
echo "fidelity:${FITS%,}"
echo "fidelity: $RUNS runs, $JOBS at a time, in $(($(date +%s) - START)) s of wall time"
if [ $FAILED -ne 0 ]; then
  echo "fidelity.sh: some runs failed or a fit could not be computed (see above)" >&2
  exit 1
fi
exit 0
