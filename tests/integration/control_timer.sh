#!/bin/sh
# Latency-only control messages (issue 18, item 2; option control_timer,
# sim/runtime/control.h, ft_control_courier_start): under SMPI no control
# message between two application ranks is an MPI message (each one was a
# SimGrid communication, about 150 us of CPU time: a coordinated wave on p
# ranks sends p(p - 1) of them), and the simulated time stays the one of
# MPI messages that do not wait for their receive (control_window at one
# receive per other rank), within 2% (ring on 8 ranks of gige, a wave
# every 2 ms, at the platform's own cost per MPI_Test and MPI_Iprobe:
# bookmark 0.054038 s against 0.054169 s, pcl 0.049799 against 0.050073,
# vcl 0.048954 against 0.049164, the same waves).
#
# Runs RUN_SMPI (tests/run_smpi.sh) on PLATFORM: PROGRAM on NP ranks and one
# service rank, FTSIM_OPTIONS protocol=PROTOCOL,period=PERIOD, with SMPI's
# request log on, and fails when a control message (tag 1, FT_TAG_CONTROL;
# 64 bytes, struct ft_wire) goes from one application rank to another
# (pids <= NP; a courier's bell goes from a rank to itself), when no wave
# was committed, or when the completion time is more than 2% away from
# the same run's with control_timer=0 and control_window=NP (a receive
# posted for every other rank, the service included).
#
# SCOPE `all` (message logging: the service rank is the event logger,
# which takes its messages through a courier too, driver.h,
# courier_service) also counts every control message, of any size, from
# an application rank to the service (pid NP + 1): the events shipped to the
# logger were MPI messages, which SMPI 3.32 transfers only once the
# logger's one posted receive matches them (one a network latency: v2,
# bt on 400 ranks of grid5000, 2,196 s simulated against 14.1 s for
# none). Default `app`: between application ranks only. With `all`, the
# completion time may be up to 10% below the MPI run's (the share of
# control traffic is large: every send of v2 waits for the logger's
# acknowledgement, and an MPI message on gige takes 66 us against the
# Hockney time of 60.6 us, SimGrid's TCP cross-traffic and sharing; mg on
# 8 ranks, a checkpoint every 10 ms: pessimist 0.067444 s against
# 0.073866, 8.7% below, v2 0.069846 against 0.073947, 5.5%. Under SMPI's
# old 100 us per MPI_Test, which this test pinned until issue 19, the
# same 6.1 and 3.9 ms were 5.6% and 3.6% of longer runs), and
# the bells that woke a rank (a courier's helper, pid above NP + 1, to an
# application rank) must be at most a tenth of the events shipped
# (el_messages): a helper kicked when a rank woke from
# ft_backend_courier_wait rang at once for the message the rank was about
# to take, one bell, a flow on the host's links, per acknowledgement
# (v2, bt on 64 ranks of grid5000: 26,001 bells for 28,736).
#
# Usage: control_timer.sh RUN_SMPI PLATFORM NP PROTOCOL PERIOD PROGRAM [SCOPE]
set -u
[ $# -eq 6 ] || [ $# -eq 7 ] || {
  echo "usage: control_timer.sh RUN_SMPI PLATFORM NP PROTOCOL PERIOD PROGRAM [app|all]" >&2
  exit 2
}
run_smpi=$1 platform=$2 np=$3 protocol=$4 period=$5 program=$6 scope=${7:-app}
case $scope in app | all) ;; *) echo "control_timer: SCOPE is app or all" >&2; exit 2 ;; esac
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# run NAME OPTIONS...: the run's output in $tmp/NAME.
run() {
  name=$1
  shift
  FTSIM_OPTIONS=protocol=$protocol,period=$period$* sh "$run_smpi" \
    "$platform" "$np" 1 . --log=smpi_request.thres:debug "$program" \
    >"$tmp/$name" 2>&1 || {
    echo "control_timer: the $protocol run ($name) failed"
    grep -v smpi_request "$tmp/$name" | tail -n 5
    exit 1
  }
}
run timer
run mpi ",control_timer=0,control_window=$np"
# "New send  request P  [buf = B, size = S, src = PID, dst = PID, tag = T,
# flags = F]" (Request::print_request).
between=$(awk -v np="$np" -v all="$scope" '
  /New send  request/ {
    for (i = 1; i <= NF; i++) {
      if ($i == "size") s = $(i + 2)
      if ($i == "src") src = $(i + 2)
      if ($i == "dst") dst = $(i + 2)
      if ($i == "tag") t = $(i + 2)
    }
    sub(",", "", s); sub(",", "", src); sub(",", "", dst); sub(",", "", t)
    app = s == 64 && t == 1 && src + 0 <= np + 0 && dst + 0 <= np + 0 &&
      src != dst
    n += app || (all == "all" && t == 1 && src + 0 <= np + 0 &&
      dst + 0 == np + 1)
  }
  END { print n + 0 }' "$tmp/timer")
bells=$(awk -v np="$np" '
  /New send  request/ {
    for (i = 1; i <= NF; i++) {
      if ($i == "size") s = $(i + 2)
      if ($i == "src") src = $(i + 2)
      if ($i == "dst") dst = $(i + 2)
      if ($i == "tag") t = $(i + 2)
    }
    sub(",", "", s); sub(",", "", src); sub(",", "", dst); sub(",", "", t)
    n += s == 64 && t == 1 && src + 0 > np + 1 && dst + 0 <= np + 0
  }
  END { print n + 0 }' "$tmp/timer")
field() {
  sed -n "s/.*FTSIM_SUMMARY.*\"$1\":\([0-9.]*\).*/\1/p" "$2" | tail -n 1
}
waves=$(field waves "$tmp/timer")
t1=$(field completion_time_s "$tmp/timer")
t0=$(field completion_time_s "$tmp/mpi")
echo "control_timer: $protocol on $np ranks: $between MPI control messages" \
  "between ranks ($scope), $waves waves, completion $t1 s" \
  "(MPI, every receive posted: $t0 s)"
[ "$between" -eq 0 ] || exit 1
[ "${waves:-0}" -ge 1 ] || { echo "no wave: nothing checked"; exit 1; }
[ "$scope" = app ] || {
  shipped=$(field el_messages "$tmp/timer")
  echo "control_timer: $bells bells for $shipped event shipments"
  [ $((bells * 10)) -le "${shipped:-0}" ] ||
    { echo "more bells than a tenth of the shipments"; exit 1; }
}
below=0.02
[ "$scope" = all ] && below=0.10
# Under SMPI's old 100 us per MPI_Test, which this test pinned until issue
# 19, rank 0 of pcl and bookmark, no longer held at its safe point for the
# positions (advance_own_position), took the MPI run's positions late in
# the ring's MPI_Test polls (a position sent at 2.771 ms taken at 3.622
# ms, the courier's at 3.073 ms): the MPI run's waves landed a safe point
# later, 10 to 13% above the courier's; at the platform's 1 us the two
# agree within 0.6%.
awk -v a="$t1" -v b="$t0" -v below="$below" 'BEGIN { d = a - b
  exit !(b > 0 && d <= 0.02 * b && -d <= below * b) }' ||
  { echo "the completion times differ by more than 2% (${below} below)"; exit 1; }
