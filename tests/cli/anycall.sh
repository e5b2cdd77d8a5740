#!/bin/sh
# Checkpoints at any MPI call in a replay (issue 16, item 3), one case per
# ctest entry. Each replays an 8-rank recording on gige under pcl, vcl or
# bookmark
# (ftsim run --replay sets any_call=1), with --trace, and requires exit 0,
# "verified":true, `ftsim check` ok, at least one wave, and checkpoints
# taken where the application stood at no cut: messages were in flight
# (vcl: channel_msgs > 0, messages received after a checkpoint that their
# sender sent before its own; pcl and bookmark: deferred_msgs + queued_msgs
# + ckpt_in_flight > 0, their frozen channels, delayed queue and images
# holding messages arrived and not received: bookmark's drained ones), at
# MPI calls (ckpt_calls >= waves).
#   APP_PROTO        ring, cg or lu under pcl or vcl, failures at three
#                    instants (one run each); mg (8 ranks) and bt (9) the
#                    same, the instants at 30, 55 and 80% of the run and
#                    the period a tenth of it;
#   midwave_PROTO    cg: a failure between the first checkpoint of wave 2
#                    and (vcl) the first store of its image, (pcl) its
#                    commit, found in a failure-free run: the rollback
#                    restores wave 1 while wave 2 was being taken;
#   recovery_PROTO   cg: a second failure while the ranks recover from the
#                    first;
#                    bookmark's lu, recovery and mtbf runs must also have
#                    drained messages in their images (ckpt_in_flight > 0);
#   program_PROTO PROGRAM
#                    one of the runtime's check programs (cover_check:
#                    MPI_Request_free of active requests, probes, tests,
#                    communicators of some ranks; calls_check: calls of
#                    every family) recorded on 4 ranks and replayed with
#                    failures drawn at an exponential MTBF of 2 ms (seeds 1
#                    and 2): the same messages as the replay under none;
#   bigtag           a SimGrid TI trace whose tag the any-call wire cannot
#                    encode: exit 2 before launch under pcl, naming the
#                    tag; it replays with --set any_call=0, and under c3
#                    at any call (no transport: the trace's tags);
#   fidelity_APP     APP (lu) at 8 ranks on gige, replayed with no failure
#                    and no checkpoint (--set period=0) under none, pcl
#                    and vcl: the any-call replays take the completion
#                    time of the replay under none within 1%, with the same
#                    messages and bytes (their transfers start when both
#                    sides are posted, as SMPI's; before, every transfer
#                    started at once: lu 0.1738 s for 0.2429 s);
#   overhead_APP     APP (cg: it polls with MPI_Testsome) likewise: the
#                    any-call replays are not faster than the one under
#                    none by more than 1% (tests charged as SMPI charges the
#                    replay's own; before, cg took 0.0382 s for 0.0457 s);
#   mtbf_PROTO       lu at 16 ranks, failures drawn with an exponential
#                    MTBF of 0.04 s (seed 3): ranks restored inside a call
#                    checkpoint again in that same call (the checker took
#                    the restore for the cut: "in transit but missing from
#                    the channel state" under pcl).
# Message logging (PROTO pessimist or v2: each rank checkpoints alone at
# any call, its pending requests in the image; docs/protocols.md, "Any-call
# mode"): the APP_PROTO and mtbf_PROTO cases above, where "in flight" means
# ckpt_in_flight > 0 (checkpoints taken with requests pending: before this
# mode, ML replays checkpointed only where a rank had none), and
#   pending_PROTO    cg: a failure right after the commit of the first
#                    checkpoint taken with requests pending (found in a
#                    failure-free run: its trace's "pending WAVE N" with
#                    N > 0), so that the rank restores it: its Irecvs posted
#                    again, its Isends complete, verified and checked;
#   coll_PROTO       a SimGrid TI trace of 4 ranks making only collectives
#                    (150 x allreduce and bcast, a little computation): a
#                    checkpoint with requests pending is one taken inside a
#                    collective, its round's messages in flight (the replay
#                    carries collectives out as rounds: none before, they
#                    ran inside the runtime); failure-free ckpt_in_flight >
#                    0, then a failure right after the commit of the first
#                    such checkpoint: the rank restores it, verified and
#                    checked;
#   handles_PROTO    mg recorded on 6 ranks, the failure of
#                    analysis/ml_anycall_stress.sh's round 18 (rank 5 at
#                    0.0435 s, period 0.00204503): rank 5 restores a
#                    checkpoint holding an Irecv and an Isend, and the
#                    Irecv's new handle takes the Isend's old value (the
#                    run stopped: "replay diverged: request 295 of a logged
#                    completion is not among the 1 requests of this call").
# C3 (PROTO c3, issue 17: every replayed MPI call a potential checkpoint
# location, every rank rolled back; docs/protocols.md, "C3 in a replay"):
# the APP_PROTO, midwave, recovery, mtbf, pending, coll and program cases
# above, where "in flight" means ckpt_in_flight > 0 as under message
# logging (before, c3 replayed in safe-point mode, checkpointing at the
# consistent cuts only, with no ckpt_calls in its summary), and
#   APP_c3           ring and cg also replayed with no failure: the same
#                    messages and bytes as the replay under none;
#   midwave_c3       the failure falls between the first checkpoint of
#                    epoch 2 and its first store, while ranks log (between
#                    their checkpoint and their store; the midpoint up to
#                    the commit fell after every store): the rollback
#                    restores epoch 1, the logging ranks' logs lost;
#   pending_c3, coll_c3  every rank rolls back; the failed rank restores
#                    the checkpoint it took with requests pending (its
#                    receives posted again, its sends complete);
#   resend_c3        mg recorded on 6 ranks, the failures of
#                    analysis/ml_anycall_stress.sh's round 23 under c3
#                    (period 0.00253326): rank 5 fails while, restored, it
#                    makes a communicator again; it sent that
#                    communicator's late message 80 us after its failure
#                    (ftsim check: "after-failure ... 'resend'");
#   program_c3 PROGRAM  failures at fixed fractions of the replay's time
#                    under none (rank 2 at 30% and rank 1 at 70%, then rank
#                    3 at 50% and rank 0, the initiator, at 80%: random
#                    draws fell before c3's first commit), each restoring
#                    a checkpoint; nd_check's trace (Waitany, Waitsome,
#                    Testany, Testsome, Iprobe) logs decisions.
# Usage: anycall.sh FTSIM CASE [PROGRAM]
set -u
ftsim=$1 case=$2 program=${3:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "anycall.sh $case: $*"; exit 1; }
field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" "$2"; }

record() { # APP [NP]: $dir/APP, NP (8) ranks on gige
  "$ftsim" record --platform gige --np "${2:-8}" --app "$1" -o "$dir/$1" \
    > "$dir/$1.on" 2> "$dir/err" || { cat "$dir/err"; fail "record $1"; }
}

# run APP PROTO PERIOD NAME SCENARIO_LINES: replays with --trace $dir/ev.NAME
run() {
  app=$1 p=$2 period=$3 name=$4
  printf 'detection 0.001\nrestart 0.003\n%b' "$5" > "$dir/sc.$name.txt"
  "$ftsim" run --replay "$dir/$app" --platform gige --protocol "$p" \
    --set period="$period" --set image_mb=0.01 \
    --scenario "$dir/sc.$name.txt" --trace "$dir/ev.$name" \
    > "$dir/$name" 2> "$dir/err"
  rc=$?
  [ $rc -eq 0 ] || { cat "$dir/$name" "$dir/err"; fail "$name exited $rc"; }
  cat "$dir/$name"
  grep -q '"verified":true' "$dir/$name" || fail "$name: not verified"
  "$ftsim" check "$dir/ev.$name" > "$dir/check" 2>&1 ||
    { cat "$dir/check"; fail "$name: ftsim check rejects the trace"; }
}

# not_at_cuts NAME PROTO: waves, and checkpoints with messages in flight
not_at_cuts() {
  f=$dir/$1
  w=$(field waves "$f") c=$(field ckpt_calls "$f")
  [ -n "$c" ] || fail "$1: no ckpt_calls in the summary (not in any-call mode)"
  [ "$w" -ge 1 ] || fail "$1: no wave committed"
  [ "$c" -ge "$w" ] || fail "$1: $c checkpoints at calls for $w waves"
  if [ "$2" = vcl ]; then
    [ "$(field channel_msgs "$f")" -gt 0 ] || fail "$1: no channel state"
  elif [ "$2" = pessimist ] || [ "$2" = v2 ] || [ "$2" = c3 ]; then
    [ "$(field ckpt_in_flight "$f")" -gt 0 ] ||
      fail "$1: no checkpoint with requests pending"
  else
    n=$(($(field deferred_msgs "$f") + $(field queued_msgs "$f") +
      $(field ckpt_in_flight "$f")))
    [ "$n" -gt 0 ] || fail "$1: no message deferred, queued or in an image"
  fi
}

# drained NAME: bookmark's images hold messages its drain took off the wire
# before the checkpoint (arrived, not yet received: ckpt_in_flight), which a
# rollback makes receivable first; lu (766-845 per run), recovery (12) and
# mtbf (1034) always have some
drained() {
  [ "$p" != bookmark ] || [ "$(field ckpt_in_flight "$dir/$1")" -gt 0 ] ||
    fail "$1: no drained message in an image"
}

# first TIME of a record "KIND WAVE" in the trace NAME (any rank)
first() {
  cat "$dir/ev.$1".* | awk -v k="$2" -v w="$3" \
    '$4 == k && $5 == w { if (t == "" || $1 < t) t = $1 } END { print t }'
}

case $case in
*_pcl | *_vcl | *_bookmark | *_pessimist | *_v2 | *_c3) p=${case##*_} app=${case%_*} ;;
esac
# cg's checkpoint period (the cg, midwave and recovery cases). At the
# platform's own cost per MPI_Test (issue 19; SMPI's old 100 us before),
# vcl's waves every 4 ms land where none of cg's messages is in flight
# (channel_msgs 0 with a failure at 12 or 22 ms, 2 at 33 ms); every 3 ms
# each run keeps 32 to 38 as channel state.
cg_period=0.004
[ "${p:-}" = vcl ] && cg_period=0.003

# like_none APP: APP replayed under $p with checkpoints and no failure
# sends the messages and bytes of its replay under none
like_none() {
  "$ftsim" run --replay "$dir/$1" --platform gige > "$dir/none" 2> "$dir/err" ||
    { cat "$dir/err"; fail "$1 under none"; }
  run "$1" "$p" "$period" "free.$1" ""
  [ "$(field waves "$dir/free.$1")" -ge 1 ] || fail "free.$1: no wave"
  for f in messages bytes; do
    [ "$(field $f "$dir/free.$1")" = "$(field $f "$dir/none")" ] ||
      fail "free.$1: $f $(field $f "$dir/free.$1"), none $(field $f "$dir/none")"
  done
}

# first_pending: "TIME_PENDING TIME_COMMIT RANK WAVE" of the first committed
# checkpoint taken with requests pending; c3's commits are the dispatcher's
# (every rank's checkpoint of the epoch), message logging's each rank's
first_pending() {
  if [ "$p" = c3 ]; then
    cat "$dir"/ev.free.* | awk '$4 == "pending" && $6 > 0 {
        k = $2 " " $5; if (!(k in t)) t[k] = $1 }
      $4 == "commit" && !($5 in c) { c[$5] = $1 }
      END { for (k in t) { split(k, a, " "); if (a[2] in c)
        print t[k], c[a[2]], a[1], a[2] } }' | sort -g | head -1
  else
    cat "$dir"/ev.free.* | awk '$4 == "pending" && $6 > 0 {
        k = $2 " " $5; if (!(k in t)) t[k] = $1 }
      $4 == "commit" { k = $2 " " $5; if (k in t) print t[k], $1, $2, $5 }' |
      sort -g | head -1
  fi
}

case $case in
ring_* | cg_* | lu_*)
  record "$app"
  case $app in
  ring) period=0.003 times="0.012 0.021 0.033" ;;
  cg) period=$cg_period times="0.012 0.022 0.033" ;;
  lu) period=0.01 times="0.03 0.1 0.15" ;;
  esac
  for t in $times; do
    run "$app" "$p" $period "$app.$t" "fail 3 at $t\n"
    [ "$(field failures "$dir/$app.$t")" = 1 ] || fail "$t: not one failure"
    not_at_cuts "$app.$t" "$p"
    [ "$app" != lu ] || drained "$app.$t"
  done
  # lu's six replays would outlast the timeout on a loaded host: its counts
  # are in the README's table
  [ "$p" != c3 ] || [ "$app" = lu ] || like_none "$app" ;;
mg_* | bt_*)
  np=8
  [ "$app" = bt ] && np=9 # a square
  record "$app" $np
  t=$(field completion_time_s "$dir/$app.on")
  period=$(awk -v t="$t" 'BEGIN { printf "%.6f", t / 10 }')
  for f in 0.3 0.55 0.8; do
    at=$(awk -v t="$t" -v f="$f" 'BEGIN { printf "%.6f", t * f }')
    run "$app" "$p" "$period" "$app.$f" "fail 3 at $at\n"
    [ "$(field failures "$dir/$app.$f")" = 1 ] || fail "$f: not one failure"
    not_at_cuts "$app.$f" "$p"
  done ;;
midwave_*)
  record cg
  run cg "$p" $cg_period free ""
  t1=$(first free ckpt 2)
  if [ "$p" = vcl ] || [ "$p" = c3 ]; then t2=$(first free store 2); else t2=$(first free commit 2); fi
  [ -n "$t1" ] && [ -n "$t2" ] || fail "no wave 2 in the failure-free run"
  # Trace times are absolute; a scenario's are run time, from the end of
  # MPI_Init (the start line): take the first traced event's time as its
  # origin (within a few us).
  t0=$(grep -vh '^#' "$dir"/ev.free.* | sort -n | head -n 1 | cut -d' ' -f1)
  t=$(awk -v a="$t1" -v b="$t2" -v o="$t0" 'BEGIN { printf "%.9f", (a + b) / 2 - o }')
  echo "wave 2: first checkpoint at $t1, first $([ "$p" = vcl ] || [ "$p" = c3 ] && echo store || echo commit) at $t2: failure at $t"
  if [ "$p" = c3 ]; then # ranks logging epoch 2 at the failure
    n=$(cat "$dir"/ev.free.* | awk -v t="$(awk -v a="$t1" -v b="$t2" \
        'BEGIN { printf "%.9f", (a + b) / 2 }')" '
      $4 == "ckpt" && $5 == 2 { c[$2] = $1 } $4 == "store" && $5 == 2 { s[$2] = $1 }
      END { for (r in c) n += c[r] <= t && (!(r in s) || s[r] > t); print n + 0 }')
    echo "ranks logging epoch 2 at the failure: $n"
    [ "$n" -gt 0 ] || fail "no rank logging at the failure"
  fi
  run cg "$p" $cg_period mid "fail 3 at $t\n"
  grep -q ' 0 ckpt 2 ' "$dir"/ev.mid.* || fail "no checkpoint of wave 2 before the failure"
  grep -q ' rollback 1 ' "$dir"/ev.mid.* || fail "the rollback does not restore wave 1"
  not_at_cuts mid "$p" ;;
recovery_*)
  record cg
  run cg "$p" $cg_period rec "fail 3 at 0.02\nfail 5 at 0.0235\n"
  [ "$(field failures "$dir/rec")" = 2 ] || fail "not two failures"
  [ "$(field rollbacks "$dir/rec")" -ge 1 ] || fail "no rollback"
  not_at_cuts rec "$p"
  drained rec ;;
program_*)
  "$ftsim" record --platform gige --np 4 --app "$program" -o "$dir/prog" \
    > "$dir/prog.on" 2> "$dir/err" || { cat "$dir/err"; fail "record"; }
  "$ftsim" run --replay "$dir/prog" --platform gige > "$dir/none" 2>&1 ||
    fail "replay under none"
  T=$(field completion_time_s "$dir/none")
  for s in 1 2; do
    printf 'detection 0.0001\nrestart 0.0002\n' > "$dir/sc.txt"
    if [ "$p" = c3 ]; then
      awk -v t="$T" -v s=$s 'BEGIN { if (s == 1) printf "fail 2 at %.9f\n" \
        "fail 1 at %.9f\n", 0.3 * t, 0.7 * t; else printf "fail 3 at %.9f\n" \
        "fail 0 at %.9f\n", 0.5 * t, 0.8 * t }' >> "$dir/sc.txt"
    else
      printf 'seed %s\nexponential 0.002\nmax_failures 3\n' $s >> "$dir/sc.txt"
    fi
    "$ftsim" run --replay "$dir/prog" --platform gige --protocol "$p" \
      --set period=0.0005 --set image_mb=0.0001 --scenario "$dir/sc.txt" \
      --trace "$dir/ev.$s" > "$dir/p.$s" 2> "$dir/err" ||
      { rc=$?; cat "$dir/p.$s" "$dir/err"; fail "seed $s exited $rc"; }
    cat "$dir/p.$s"
    grep -q '"verified":true' "$dir/p.$s" || fail "seed $s: not verified"
    [ "$(field failures "$dir/p.$s")" -ge 1 ] || fail "seed $s: no failure"
    [ -n "$(field ckpt_calls "$dir/p.$s")" ] || fail "seed $s: not any-call"
    "$ftsim" check "$dir/ev.$s" > "$dir/check" 2>&1 ||
      { cat "$dir/check"; fail "seed $s: ftsim check rejects the trace"; }
    [ "$p" != c3 ] || grep -q ' restore ' "$dir"/ev.$s.* ||
      fail "seed $s: no checkpoint restored"
  done
  "$ftsim" run --replay "$dir/prog" --platform gige --protocol "$p" \
    > "$dir/free" 2>&1 || fail "no failure: exit $?"
  [ "$(field messages "$dir/none")" = "$(field messages "$dir/free")" ] ||
    fail "messages: none $(field messages "$dir/none"), $p $(field messages "$dir/free")" ;;
bigtag)
  for r in 0 1; do
    printf '%s init\n%s irecv %s 9000000 8\n%s isend %s 9000000 8\n' \
      $r $r $((1 - r)) $r $((1 - r))
    printf '%s waitall 2\n%s finalize\n' $r $r
  done > "$dir/big.ti"
  "$ftsim" run --replay "$dir/big.ti" --protocol pcl > "$dir/out" 2> "$dir/err"
  rc=$?
  cat "$dir/out" "$dir/err"
  [ $rc -eq 2 ] || fail "exit $rc, not 2"
  grep -q 'tag 9000000 on 2 communicators' "$dir/err" || fail "the tag is not named"
  [ ! -s "$dir/out" ] || fail "something ran"
  "$ftsim" run --replay "$dir/big.ti" --protocol pcl --set any_call=0 \
    > "$dir/out" 2> "$dir/err" || { rc=$?; cat "$dir/err"; fail "any_call=0: exit $rc"; }
  grep -q '"verified":true' "$dir/out" || fail "any_call=0: not verified"
  # c3 keeps the trace's tags (no transport): it replays at any call
  "$ftsim" run --replay "$dir/big.ti" --protocol c3 > "$dir/out" 2> "$dir/err" ||
    { rc=$?; cat "$dir/err"; fail "c3: exit $rc"; }
  grep -q '"verified":true' "$dir/out" || fail "c3: not verified"
  [ -n "$(field ckpt_calls "$dir/out")" ] || fail "c3: not in any-call mode" ;;
fidelity_* | overhead_*)
  app=${case#*_}
  record "$app"
  for p in none pcl vcl; do
    "$ftsim" run --replay "$dir/$app" --platform gige --protocol $p \
      --set period=0 > "$dir/$p" 2> "$dir/err" ||
      { rc=$?; cat "$dir/err"; fail "$p exited $rc"; }
    cat "$dir/$p"
    grep -q '"verified":true' "$dir/$p" || fail "$p: not verified"
  done
  for p in pcl vcl; do
    [ -n "$(field ckpt_calls "$dir/$p")" ] || fail "$p: not in any-call mode"
    for f in messages bytes; do
      [ "$(field $f "$dir/$p")" = "$(field $f "$dir/none")" ] ||
        fail "$p: $f $(field $f "$dir/$p"), none $(field $f "$dir/none")"
    done
    hi=0.01 what="within 1%"
    [ "${case%%_*}" = overhead ] && hi=1e9 what="at most 1% faster"
    awk -v a="$(field completion_time_s "$dir/$p")" \
      -v b="$(field completion_time_s "$dir/none")" -v hi=$hi \
      'BEGIN { d = (a - b) / b; exit !(d < hi && d > -0.01) }' ||
      fail "$p: completion $(field completion_time_s "$dir/$p") s, none" \
        "$(field completion_time_s "$dir/none") s: not $what"
  done ;;
pending_*)
  record cg
  run cg "$p" 0.004 free ""
  # the first checkpoint with requests pending that was committed:
  # "TIME_PENDING TIME_COMMIT RANK WAVE"
  set -- $(first_pending)
  [ $# -eq 4 ] || fail "no committed checkpoint with requests pending"
  at=$(awk -v c="$2" 'BEGIN { printf "%.9f", c + 1e-6 }')
  echo "rank $3: checkpoint $4 with requests pending at $1, committed at $2: failure at $at"
  run cg "$p" 0.004 pend "fail $3 at $at\n"
  grep -q " restore $4 " "$dir/ev.pend.$3" ||
    fail "rank $3 does not restore its checkpoint $4"
  not_at_cuts pend "$p" ;;
coll_*)
  for r in 0 1 2 3; do
    echo "$r init"
    i=0
    while [ $i -lt 150 ]; do
      printf '%s compute 20000\n%s allreduce 512 1000\n%s bcast 20480 1\n' \
        $r $r $r
      i=$((i + 1))
    done
    printf '%s barrier\n%s finalize\n' $r $r
  done > "$dir/coll.ti"
  run coll.ti "$p" 0.004 free ""
  not_at_cuts free "$p"
  set -- $(first_pending)
  [ $# -eq 4 ] || fail "no committed checkpoint inside a collective"
  at=$(awk -v c="$2" 'BEGIN { printf "%.9f", c + 1e-6 }')
  echo "rank $3: checkpoint $4 inside a collective at $1, committed at $2: failure at $at"
  run coll.ti "$p" 0.004 coll "fail $3 at $at\n"
  grep -q " restore $4 " "$dir/ev.coll.$3" ||
    fail "rank $3 does not restore its checkpoint $4" ;;
handles_*)
  record mg 6
  printf 'detection 0.000186\nrestart 0.000352\nfail 5 at 0.043511964\n' \
    > "$dir/sc.txt"
  "$ftsim" run --replay "$dir/mg" --platform gige --protocol "$p" \
    --set period=0.00204503 --service-ranks 2 --scenario "$dir/sc.txt" \
    --trace "$dir/ev.h" > "$dir/h" 2> "$dir/err"
  rc=$?
  [ $rc -eq 0 ] || { grep -v '^\[' "$dir/err" | head -3; fail "exit $rc"; }
  cat "$dir/h"
  grep -q '"verified":true' "$dir/h" || fail "not verified"
  "$ftsim" check "$dir/ev.h" > "$dir/check" 2>&1 ||
    { cat "$dir/check"; fail "ftsim check rejects the trace"; }
  grep -q " restore " "$dir/ev.h.5" || fail "rank 5 restores no checkpoint"
  not_at_cuts h "$p" ;;
resend_c3)
  record mg 6
  printf 'detection 0.000457\nrestart 0.000308\nfail 3 at 0.017887509\n' \
    > "$dir/sc.txt"
  printf 'fail 5 at 0.066691005\nfail 0 at 0.062161780\n' >> "$dir/sc.txt"
  printf 'fail 1 at 0.041207719\n' >> "$dir/sc.txt"
  "$ftsim" run --replay "$dir/mg" --platform gige --protocol c3 \
    --set period=0.00253326 --service-ranks 2 --scenario "$dir/sc.txt" \
    --trace "$dir/ev.r" > "$dir/r" 2> "$dir/err"
  rc=$?
  [ $rc -eq 0 ] || { grep -v '^\[' "$dir/err" | head -3; fail "exit $rc"; }
  cat "$dir/r"
  grep -q '"verified":true' "$dir/r" || fail "not verified"
  "$ftsim" check "$dir/ev.r" > "$dir/check" 2>&1 ||
    { cat "$dir/check"; fail "ftsim check rejects the trace"; }
  grep -q ' resend ' "$dir"/ev.r.* || fail "no late message sent again" ;;
mtbf_*)
  record lu 16
  run lu "$p" 0.01 mtbf "seed 3\nexponential 0.04\nmax_failures 6\n"
  [ "$(field failures "$dir/mtbf")" -ge 3 ] || fail "fewer than 3 failures"
  not_at_cuts mtbf "$p"
  drained mtbf ;;
*)
  fail "unknown case" ;;
esac
echo "anycall.sh $case: ok"
