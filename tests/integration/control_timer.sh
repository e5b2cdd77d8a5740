#!/bin/sh
# Latency-only control messages (issue 18, item 2; option control_timer,
# sim/runtime/control.h, ft_control_courier_start): under SMPI no control
# message between two application ranks is an MPI message (each one was a
# SimGrid communication, about 150 us of CPU time: a coordinated wave on p
# ranks sends p(p - 1) of them), and the simulated time stays the one of
# MPI messages that do not wait for their receive (control_window at one
# receive per other rank), within 2% (bookmark, a wave every 2 ms on
# gige: 0.066066 s and 14 waves against 0.066680 s and 13; pcl and vcl
# within 0.5%).
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
# Usage: control_timer.sh RUN_SMPI PLATFORM NP PROTOCOL PERIOD PROGRAM
set -u
[ $# -eq 6 ] || {
  echo "usage: control_timer.sh RUN_SMPI PLATFORM NP PROTOCOL PERIOD PROGRAM" >&2
  exit 2
}
run_smpi=$1 platform=$2 np=$3 protocol=$4 period=$5 program=$6
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
between=$(awk -v np="$np" '
  /New send  request/ {
    for (i = 1; i <= NF; i++) {
      if ($i == "size") s = $(i + 2)
      if ($i == "src") src = $(i + 2)
      if ($i == "dst") dst = $(i + 2)
      if ($i == "tag") t = $(i + 2)
    }
    sub(",", "", s); sub(",", "", src); sub(",", "", dst); sub(",", "", t)
    n += s == 64 && t == 1 && src + 0 <= np + 0 && dst + 0 <= np + 0 &&
      src != dst
  }
  END { print n + 0 }' "$tmp/timer")
field() {
  sed -n "s/.*FTSIM_SUMMARY.*\"$1\":\([0-9.]*\).*/\1/p" "$2" | tail -n 1
}
waves=$(field waves "$tmp/timer")
t1=$(field completion_time_s "$tmp/timer")
t0=$(field completion_time_s "$tmp/mpi")
echo "control_timer: $protocol on $np ranks: $between MPI control messages" \
  "between application ranks, $waves waves, completion $t1 s" \
  "(MPI, every receive posted: $t0 s)"
[ "$between" -eq 0 ] || exit 1
[ "${waves:-0}" -ge 1 ] || { echo "no wave: nothing checked"; exit 1; }
awk -v a="$t1" -v b="$t0" 'BEGIN { d = a - b; if (d < 0) d = -d
  exit !(b > 0 && d <= 0.02 * b) }' ||
  { echo "the completion times differ by more than 2%"; exit 1; }
