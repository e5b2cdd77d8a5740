#!/bin/sh
# ftsim timeline on a traced run, and on bad input.
# Usage: timeline.sh FTSIM CASE [APP PLATFORM SCENARIO]
#   run     pcl, cg on 4 ranks through scenarios/one-failure.txt (rank 1
#           fails at 0.05 s), traced; ftsim check accepts the trace (span
#           records included); the timeline's data holds one failure mark
#           on rank 1 at the failure's time, one commit mark per wave of
#           the summary, a row per rank and the service rank's, boxes of
#           computation and blocking communication; --ranks and --from/--to
#           narrow it; SVG too.
#   ml      the same under pessimist (message logging: ml_check.c's
#           reader): the failure on rank 1, then its restart alone (a
#           restart mark on rank 1, no other rank rolls back), a row per
#           rank.
#   errors  a missing trace, a malformed one, -o in a directory that does
#           not exist or not .png/.svg, --ranks beyond the trace: exit 2,
#           nothing drawn; gnuplot failing: exit 1; a protocol name with
#           quotes stays a title (no command runs); a truncated trace is
#           drawn with a note.
ftsim=$1
case_=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/ftsim-timeline-XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}

# The lines of block NAME of data file $1 (up to the blank line).
block() {
  awk -v name="# $2:" 'index($0, name) == 1 { on = 1; next }
    on && /^$/ { exit } on { print }' "$1"
}

# expect STATUS TEXT CMD...: exit STATUS and TEXT on stderr.
expect() {
  want=$1 text=$2
  shift 2
  "$@" >"$dir/out" 2>"$dir/err"
  got=$?
  cat "$dir/err"
  [ "$got" = "$want" ] || fail "$*: exit $got, expected $want"
  grep -qF -- "$text" "$dir/err" || fail "$*: stderr lacks '$text'"
}

run_case() {
  app=$3 platform=$4 scenario=$5
  "$ftsim" run --platform "$platform" --np 4 --app "$app" --protocol pcl \
    --compute modelled --set period=0.02 --scenario "$scenario" \
    --trace "$dir/t" -- --iters 120 --tol 0 >"$dir/summary" ||
    fail "the traced run failed: $(cat "$dir/summary")"
  "$ftsim" check "$dir/t" || fail "ftsim check rejects the trace"
  waves=$(sed -n 's/.*"waves":\([0-9]*\).*/\1/p' "$dir/summary")
  [ -n "$waves" ] && [ "$waves" -gt 0 ] || fail "no waves in the summary"
  "$ftsim" timeline "$dir/t" -o "$dir/tl.png" || fail "ftsim timeline failed"
  [ -s "$dir/tl.png" ] || fail "no picture"
  dat=$dir/tl.dat gp=$dir/tl.gp
  block "$dat" failure >"$dir/fail"
  [ "$(wc -l <"$dir/fail")" = 1 ] || fail "failure marks: $(cat "$dir/fail")"
  awk '$2 != 1 || $1 < 0.05 || $1 >= 0.051 { exit 1 }' "$dir/fail" ||
    fail "failure mark not on rank 1 at 0.05 s: $(cat "$dir/fail")"
  block "$dat" 'down (failure to restart)' | awk '$3 == 1 { n++ } END { exit n != 1 }' ||
    fail "no down box on rank 1"
  commits=$(block "$dat" 'wave committed' | wc -l)
  [ "$commits" = "$waves" ] || fail "$commits commit marks, $waves waves"
  for r in 0 1 2 3; do
    grep -q "'rank $r' $r" "$gp" || fail "no row for rank $r"
  done
  grep -q "'service 4' 4" "$gp" || fail "no row for the service rank"
  [ "$(grep -o "'[a-z]* [0-9]*' [0-9]*" "$gp" | wc -l)" = 5 ] ||
    fail "not one row per rank"
  for b in computation 'blocking communication' 'checkpoint (capture)' \
    send receive rollback; do
    [ -n "$(block "$dat" "$b")" ] || fail "no '$b' in the data"
  done
  grep -q "protocol pcl, app $app, 4 ranks" "$gp" || fail "title"
  # rows 1-2 from 0.04 s to 0.08 s, as SVG
  "$ftsim" timeline "$dir/t" -o "$dir/part.svg" --ranks 1-2 --from 0.04 \
    --to 0.08 || fail "ftsim timeline --ranks --from --to failed"
  grep -q "<svg" "$dir/part.svg" || fail "no SVG"
  [ "$(grep -o "'rank [0-9]*' [0-9]*" "$dir/part.gp" | wc -l)" = 2 ] ||
    fail "--ranks 1-2: not 2 rows"
  grep -q 'set xrange \[0.040000000:0.080000000\]' "$dir/part.gp" ||
    fail "--from/--to: xrange"
  block "$dir/part.dat" computation | awk '$3 < 1 || $3 > 2 || $2 < 0.04 || $1 > 0.08 { exit 1 }' ||
    fail "--ranks/--from/--to: a box outside"
  echo "ok: $waves waves, failure $(cat "$dir/fail")"
}

ml_case() {
  app=$3 platform=$4 scenario=$5
  "$ftsim" run --platform "$platform" --np 4 --app "$app" \
    --protocol pessimist --set service_ranks=1 --compute modelled \
    --set period=0.02 --scenario "$scenario" --trace "$dir/t" \
    -- --iters 120 --tol 0 >"$dir/summary" ||
    fail "the traced run failed: $(cat "$dir/summary")"
  "$ftsim" check "$dir/t" || fail "ftsim check rejects the trace"
  "$ftsim" timeline "$dir/t" -o "$dir/tl.png" || fail "ftsim timeline failed"
  dat=$dir/tl.dat
  block "$dat" failure | awk '$2 == 1 && $1 >= 0.05 && $1 < 0.051 { n++ }
    END { exit n != 1 }' || fail "no failure mark on rank 1 at 0.05 s"
  block "$dat" restart | awk '$2 == 1 { n++ } END { exit n != 1 }' ||
    fail "no restart mark on rank 1"
  # the restarted rank restores its own checkpoint (a rollback record of
  # rank 1); no other rank rolls back
  block "$dat" rollback | awk '$2 != 1 { exit 1 }' ||
    fail "another rank rolled back under pessimist"
  [ "$(grep -o "'[a-z]* [0-9]*' [0-9]*" "$dir/tl.gp" | wc -l)" = 5 ] ||
    fail "not one row per rank"
  echo "ok"
}

header() { # RANK RANKS PROTOCOL
  echo "# ftsim-trace 3 rank $1 ranks $2 protocol $3 family coordinated run 00000000000000aa"
}

errors_case() {
  expect 2 "cannot open" "$ftsim" timeline "$dir/none" -o "$dir/x.png"
  { header 0 1 pcl; echo "0.1 0 0 compute 0.05"; echo "0.2 0 0 block soon"
    echo "0.3 0 0 end"; } >"$dir/bad.0"
  expect 2 "bad.0:3: field 'start'" "$ftsim" timeline "$dir/bad" -o "$dir/x.png"
  { header 0 1 pcl; echo "0.1 0 0 compute 0.2"; echo "0.3 0 0 end"; } \
    >"$dir/late.0"
  expect 2 "late.0:2: field 'start'" "$ftsim" timeline "$dir/late" -o "$dir/x.png"
  { header 0 1 pcl; echo "0.1 0 0 compute 0.05"; echo "0.3 0 0 end"; } \
    >"$dir/good.0"
  expect 2 "does not exist" "$ftsim" timeline "$dir/good" -o "$dir/no/x.png"
  expect 2 "expected a .png or .svg" "$ftsim" timeline "$dir/good" -o "$dir/x.jpg"
  expect 2 "the trace has rows 0 to 0" "$ftsim" timeline "$dir/good" \
    -o "$dir/x.png" --ranks 0-3
  expect 2 "not after --from" "$ftsim" timeline "$dir/good" -o "$dir/x.png" \
    --from 0.2 --to 0.1
  [ ! -e "$dir/x.png" ] && [ ! -e "$dir/x.gp" ] || fail "drawn on bad input"
  expect 1 "failed" env FTSIM_GNUPLOT=false "$ftsim" timeline "$dir/good" \
    -o "$dir/x.png"
  # unquoted, the title would run the shell command ">pw" (in $dir)
  { header 0 1 "x'.system('>pw').'"
    echo "0.1 0 0 compute 0.05"; echo "0.3 0 0 end"; } >"$dir/quote.0"
  expect 0 "quote.png" "$ftsim" timeline "$dir/quote" -o "$dir/quote.png"
  [ ! -e "$dir/pw" ] || fail "a protocol name ran a command"
  grep -qF "protocol x''.system(''>pw'').''," "$dir/quote.gp" ||
    fail "the title's quotes"
  { header 0 1 pcl; echo "0.1 0 0 compute 0.05"; } >"$dir/cut.0"
  expect 0 "note: $dir/cut.0: no end record" "$ftsim" timeline "$dir/cut" \
    -o "$dir/cut.png"
  echo "ok"
}

case $case_ in
  run) run_case "$@" ;;
  ml) ml_case "$@" ;;
  errors) errors_case ;;
  *) echo "timeline.sh: unknown case $case_" >&2; exit 2 ;;
esac
