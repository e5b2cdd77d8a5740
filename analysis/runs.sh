# runs.sh: shell functions shared by the analysis commands that run batches
# of `ftsim run` (fidelity.sh, pcl_vs_vcl.sh). Source it after setting:
#   TMP   a scratch directory (each run leaves TMP/ID.out, .err, .rc, .args)
#   JOBS  how many runs go side by side
#   FTSIM the ftsim binary

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
