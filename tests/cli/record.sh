#!/bin/sh
# `ftsim record` (issue 16, item 1), one case per ctest entry:
#   ring, pingpong, cg, mg, lu   a workload recorded under smpirun (4 ranks,
#                            gige), read back by rtrace_audit (the rtrace
#                            reader) and otf2-print;
#   real_ring                ring recorded for real (mpirun, 2 ranks);
#   timestamps               the archive's timestamps are the run's
#                            simulated times (otf2-print): ring's known
#                            computation and MPI_Test cost, and the clock
#                            spanning the run's completion time;
#   user PROGRAM             a user's program built with ftsimcc;
#   errors                   what is refused before launch (exit 2), and a
#                            rank's file that is missing.
# Every recorded archive must hold: per channel (communicator, sender,
# receiver, tag) as many messages of the same sizes sent as received,
# every member of a communicator the same collective calls, and the
# counts the workload itself knows.
# Usage: record.sh FTSIM RTRACE_AUDIT OTF2_PRINT CASE [PROGRAM]
set -u
ftsim=$1 audit=$2 otf2print=$3 case=$4 program=${5:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "record.sh $case: $*"; exit 1; }

# record ARGS...: ftsim record -o $dir/t ARGS, exit 0, the run's JSON line
# and the "recorded" line; then the audit into $dir/audit.
record() {
  "$ftsim" record -o "$dir/t" "$@" > "$dir/out" 2> "$dir/err" ||
    { rc=$?; cat "$dir/out" "$dir/err"; fail "ftsim record $* exited $rc"; }
  cat "$dir/out"
  grep -q '^{"protocol":"none",.*"verified":true' "$dir/out" ||
    fail "no verified summary line"
  grep -Eq "^recorded $dir/t: [0-9]+ ranks, [0-9]+ events, [0-9]+ bytes$" \
    "$dir/out" || fail "no 'recorded' line"
  "$audit" "$dir/t" > "$dir/audit" || fail "the rtrace reader rejects it"
  cat "$dir/audit"
  has "channels ok"
  has "collectives ok"
  if [ -n "$otf2print" ]; then
    "$otf2print" "$dir/t/traces.otf2" > "$dir/print" ||
      fail "otf2-print rejects the archive"
    grep -q '^MPI_COLLECTIVE_END' "$dir/print" ||
      fail "otf2-print shows no collective"
  fi
}
has() { grep -q "^$1" "$dir/audit" || fail "audit: no '$1'"; }

case $case in
ring) # 100 laps of 4 ranks: 400 isends; bcast, gather and reduce from 0
  record --platform gige --np 4 --app ring
  has "ranks 4"
  has "sends 400$"
  has "coll MPI_Bcast root 0 records 4$"
  has "coll MPI_Reduce root 0 records 4$"
  has "coll MPI_Barrier root -1 records 4$"
  [ "$(grep -c '^MPI_ISEND ' "$dir/print" 2>/dev/null || echo 400)" -eq 400 ] ||
    fail "otf2-print: not 400 MPI_ISEND"
  # The collectives' expansion is not recorded: the summary counts more
  # messages than the trace's point-to-point sends.
  grep -q '"messages":4[0-9][0-9],' "$dir/out" || fail "summary messages" ;;
pingpong) # its own count: "1012 messages checked"
  record --platform gige --np 4 --app pingpong
  grep -q '1012 messages checked' "$dir/err" || fail "pingpong's count"
  has "sends 1012$"
  has "coll MPI_Allreduce root -1" ;;
cg)
  record --platform gige --np 4 --app cg
  has "coll MPI_Allreduce root -1 records"
  n=$(sed -n 's/^coll MPI_Allreduce root -1 records //p' "$dir/audit")
  [ $((n % 4)) -eq 0 ] && [ "$n" -gt 0 ] || fail "allreduce records $n"
  has "coll MPI_Gatherv root 0" ;;
mg) # every receive is MPI_Irecv(MPI_ANY_SOURCE): each recorded as a
  # wildcard with the source it matched
  record --platform gige --np 4 --app mg
  sends=$(sed -n 's/^sends //p' "$dir/audit")
  [ "$sends" -gt 0 ] || fail "no send"
  has "wild $sends matched $sends$" ;;
lu) # MPI_Probe/MPI_Iprobe with MPI_ANY_SOURCE and MPI_ANY_TAG, blocking
  # sends, and isends to MPI_PROC_NULL at the grid's edges: a blocking
  # send's exit left its event marked as the one the next nonblocking
  # call's request goes to, and an isend to MPI_PROC_NULL then numbered
  # that send ("MpiIsendComplete of request 3, never posted" on reading)
  record --platform gige --np 4 --app lu
  # its receives name the source MPI_Probe(MPI_ANY_SOURCE) found
  probes=$(sed -n 's/^probes \([0-9]*\) .*/\1/p' "$dir/audit")
  [ "$probes" -gt 0 ] || fail "no probe recorded"
  grep -Eq "^probes $probes wild [1-9][0-9]* found [1-9]" "$dir/audit" ||
    fail "no wildcard probe that found its message" ;;
timestamps) # simulated time, in femtoseconds here (the finest resolution
  # whose uint64 holds the run's clock). Rank 1 posts its MPI_Irecv,
  # computes one piece of its lap (ring: 1e5 flops in 4 pieces on 2 Gf
  # hosts: 12.5 us) and calls MPI_Test, which SMPI charges smpi/test
  # (1e-4 s); the clock runs from the first rank's start (after MPI_Init's
  # split: > 0) over the run's completion time. An archive whose MPI calls
  # last no time and whose clock is the sum of one rank's computations
  # (ftsim's before) fails all but the first check. The lu gap of
  # ftsim's earlier archives (nanoseconds): cli/replay_lu_16.
  record --platform gige --np 4 --app ring --cfg smpi/test:1e-4
  "$otf2print" -G "$dir/t/traces.otf2" > "$dir/defs" || fail "otf2-print -G"
  clock=$(sed -n 's/^CLOCK_PROPERTIES *Ticks per Seconds: \([0-9]*\), Global Offset: \([0-9]*\), Length: \([0-9]*\),.*/\1 \2 \3/p' "$dir/defs")
  echo "clock: $clock"
  awk -v res="${clock%% *}" '
       $2 == 1 && $1 == "LEAVE" && /"MPI_Irecv"/ && !irecv { irecv = $3 }
       $2 == 1 && $1 == "ENTER" && /"MPI_Test"/ && !enter { enter = $3 }
       $2 == 1 && $1 == "LEAVE" && /"MPI_Test"/ && !leave { leave = $3 }
       END { printf "%.3f %.3f\n", (enter - irecv) / res * 1e9,
               (leave - enter) / res * 1e9 }' "$dir/print" > "$dir/times"
  read -r work test < "$dir/times"
  echo "rank 1: first computation $work ns, first MPI_Test $test ns"
  [ "$work" = 12500.000 ] ||
    fail "rank 1's first computation: $work ns, not 12500"
  [ "$test" = 100000.000 ] ||
    fail "rank 1's first MPI_Test: $test ns, not 100000"
  t=$(sed -n 's/.*"completion_time_s":\([0-9.]*\),.*/\1/p' "$dir/out")
  echo "$clock $t" | awk '{ d = $3 / $1 - $4; if (d < 0) d = -d
    exit !($1 == 1e15 && $2 > 0 && d <= 0.001 * $4) }' ||
    fail "the clock ($clock) does not span the run's $t s" ;;
real_ring) # the machine's speed (here from FTSIM_HOST_SPEED) is the ranks'
  FTSIM_HOST_SPEED=3e9 record --real --np 2 --app ring
  grep -q '"mode":"real"' "$dir/out" || fail "not a real run"
  has "ranks 2"
  has "sends 200$"
  grep -Eq '^compute_s [0-9.]+ speed 3e\+09$' "$dir/audit" ||
    fail "the host speed is not FTSIM_HOST_SPEED's" ;;
user)
  record --platform gige --np 4 --app "$program"
  has "ranks 4"
  has "coll MPI_Gather root 0" ;;
errors)
  expect() { # STATUS PATTERN ftsim-args...: nothing launched
    want=$1 pattern=$2
    shift 2
    "$ftsim" "$@" > "$dir/out" 2> "$dir/err"
    rc=$?
    cat "$dir/err"
    [ $rc -eq "$want" ] || fail "exit $rc, not $want: $*"
    grep -q -- "$pattern" "$dir/err" || fail "no '$pattern' for $*"
  }
  expect 2 "\-\-protocol pcl: a recording runs under protocol none" \
    record -o "$dir/x" --protocol pcl --np 4 --app ring
  expect 2 "\-\-set protocol=vcl: conflicts with \-\-protocol none" \
    record -o "$dir/x" --set protocol=vcl --np 4 --app ring
  expect 2 "\-\-scenario" \
    record -o "$dir/x" --scenario one-failure --np 4 --app ring
  expect 2 "\-o TRACE is required" record --np 4 --app ring
  expect 2 "app '/nonexistent/prog'" \
    record -o "$dir/x" --np 4 --app /nonexistent/prog
  [ ! -e "$dir/x" ] || fail "an archive was written by a refused record"
  ls "$dir" | grep -q 'ranks-' && fail "a ranks directory was left behind"
  mkdir "$dir/t"
  echo keep > "$dir/t/file"
  expect 2 "exists (--force replaces an archive)" \
    record -o "$dir/t" --np 2 --app ring
  expect 2 "exists and is not an OTF2 archive" \
    record -o "$dir/t" --force --np 2 --app ring
  [ -f "$dir/t/file" ] || fail "a directory that is no archive was removed"
  rm -r "$dir/t"
  "$ftsim" record -o "$dir/t" --np 2 --app ring > /dev/null 2>&1 ||
    fail "first record"
  "$ftsim" record -o "$dir/t" --force --np 2 --app ring > "$dir/out" 2>&1 ||
    fail "--force did not replace the archive"
  grep -q "^recorded $dir/t: 2 ranks" "$dir/out" || fail "--force: no archive" ;;
*) fail "unknown case" ;;
esac
echo "record.sh $case: ok"
