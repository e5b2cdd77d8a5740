# runs.sh: shell functions shared by the analysis commands that run batches
# of `ftsim run` (fidelity.sh, pcl_vs_vcl.sh). Source it, define die(), call
# parse_args, and set before running anything:
#   TMP   a scratch directory (each run leaves TMP/ID.out, .err, .rc, .args)

# parse_args JOBS_NAME [--quick] [BUILD_DIR]: the command line these scripts
# share. Sets QUICK (0 or 1), BUILD (default ROOT/build), FTSIM and FIT, and
# checks that both are built and that JOBS (read from the environment
# variable JOBS_NAME by the caller) is a positive integer; any problem goes to
# die (exit status 2).
parse_args() {
  jobs_name=$1
  shift
  QUICK=0
  if [ "${1:-}" = "--quick" ]; then QUICK=1; shift; fi
  case ${1:-} in -*) die "usage: $0 [--quick] [BUILD_DIR]" ;; esac
  [ $# -le 1 ] || die "usage: $0 [--quick] [BUILD_DIR]"
  BUILD=${1:-$ROOT/build}
  FTSIM=$BUILD/ftsim
  FIT=$BUILD/analysis/fit
  [ -x "$FTSIM" ] || die "$FTSIM not built (cmake --build $BUILD)"
  [ -x "$FIT" ] || die "$FIT not built (cmake --build $BUILD --target fit)"
  case $JOBS in '' | *[!0-9]* | 0) die "$jobs_name must be a positive integer" ;; esac
}

# run_jobs: reads "ID FTSIM-RUN-ARGS..." lines on stdin and runs them $JOBS
# at a time.
run_jobs() {
  FIDELITY_TMP=$TMP xargs -P "$JOBS" -L 1 sh -c '
    id=$1; ftsim=$0; shift
    echo "$*" >"$FIDELITY_TMP/$id.args"
    "$ftsim" run "$@" >"$FIDELITY_TMP/$id.out" 2>"$FIDELITY_TMP/$id.err"
    echo $? >"$FIDELITY_TMP/$id.rc"' "$FTSIM"
}

# field ID NAME: a field of the run's JSON summary (the last line of its
# stdout), or nothing.
field() {
  tail -n 1 "$TMP/$1.out" 2>/dev/null | awk -v k="$2" '
    /^\{/ && match($0, "\"" k "\":[^,}]*") {
      m = substr($0, RSTART, RLENGTH); sub(/^"[^"]*":/, "", m); print m }'
}

# check ID DESCRIPTION: 0 if the run exited 0 with "verified":true; else
# names it on stderr once, with its command line and the end of its log,
# and returns 1.
check() {
  rc=$(cat "$TMP/$1.rc" 2>/dev/null || echo "?")
  verified=$(field "$1" verified)
  if [ "$rc" = 0 ] && [ "$verified" = true ]; then return 0; fi
  [ -f "$TMP/$1.reported" ] && return 1
  : >"$TMP/$1.reported"
  {
    echo "${0##*/}: FAILED run $2: exit status $rc, verified ${verified:-(no summary)}"
    echo "  ftsim run $(cat "$TMP/$1.args")"
    { grep -m 2 -E "CRITICAL|rror|Deadlock" "$TMP/$1.err"; tail -n 2 "$TMP/$1.err"; } 2>/dev/null |
      awk '!seen[$0]++ { print "  | " substr($0, 1, 200) }'
  } >&2
  return 1
}
