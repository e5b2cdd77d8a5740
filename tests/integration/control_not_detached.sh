#!/bin/sh
# No control message of an application rank is a detached send (issue 18,
# item 2). SimGrid 3.32 keeps every detached communication in one list of
# the whole simulation and removes each by a linear search when it
# completes; a coordinated wave's p(p-1) markers, sent as detached standard
# sends, made every completion scan them (bt on 400 ranks of grid5000 under
# pcl: over 900 s of wall time, 13.7 s under none). ft_control_send sends
# them synchronously (control.h). Checked with control_timer=0: by default
# they are latency-only messages, no MPI message at all
# (e2e/control_timer_*).
#
# Runs RUN_SMPI (tests/run_smpi.sh) on PLATFORM: PROGRAM on NP ranks and one
# service rank, FTSIM_OPTIONS protocol=PROTOCOL,period=PERIOD, with SMPI's
# request log on, and fails when a send of a control message (tag 1,
# FT_TAG_CONTROL; 64 bytes, struct ft_wire) from an application rank to
# another (pids <= NP) was detached, or when the run sent none (the check
# would prove nothing).
#
# SCOPE `service`: with the couriers (control_timer, the default), the
# control messages of application ranks to the service rank (pid NP + 1:
# a checkpoint server's STOREs, the scheduler's and dispatcher's reports),
# which stay MPI messages to its one posted control receive. Sent as
# detached standard sends, a wave's p STOREs and p reports waited in
# SimGrid's list until the service took them one after the other, and
# every completion of the run scanned them meanwhile (bt, 144 ranks of
# grid5000, vcl: 14,339 scans of 200 entries or more against 2,107
# without a wave; 2,337 since). They are synchronous sends now
# (control.c, ft_control_send_quiet), at the same simulated times.
#
# Usage: control_not_detached.sh RUN_SMPI PLATFORM NP PROTOCOL PERIOD PROGRAM [SCOPE]
set -u
[ $# -eq 6 ] || [ $# -eq 7 ] || {
  echo "usage: control_not_detached.sh RUN_SMPI PLATFORM NP PROTOCOL PERIOD PROGRAM [app|service]" >&2
  exit 2
}
run_smpi=$1 platform=$2 np=$3 protocol=$4 period=$5 program=$6 scope=${7:-app}
case $scope in
app) timer=,control_timer=0 ;;
service) timer= ;;
*) echo "control_not_detached: SCOPE is app or service" >&2; exit 2 ;;
esac
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
if ! FTSIM_OPTIONS=protocol=$protocol,period=$period$timer sh "$run_smpi" \
  "$platform" "$np" 1 . --log=smpi_request.thres:debug "$program" \
  >"$tmp/out" 2>&1; then
  echo "control_not_detached: the $protocol run failed"
  grep -v smpi_request "$tmp/out" | tail -n 5
  exit 1
fi
# "New send  request P  [buf = B, size = S, src = PID, dst = PID, tag = T,
# flags = F]" (Request::print_request), then "Send request P is detached"
# for a detached one (Request::start).
awk -v np="$np" -v scope="$scope" '
  /New send  request/ {
    for (i = 1; i <= NF; i++) {
      if ($i == "request") p = $(i + 1)
      if ($i == "size") s = $(i + 2)
      if ($i == "src") src = $(i + 2)
      if ($i == "dst") dst = $(i + 2)
      if ($i == "tag") t = $(i + 2)
    }
    sub(",", "", s); sub(",", "", src); sub(",", "", dst); sub(",", "", t)
    to = scope == "app" ? dst + 0 <= np + 0 : dst + 0 == np + 1
    control[p] = (s == 64 && t == 1 && src + 0 <= np + 0 && to)
    sends += control[p]
  }
  /Send request .* is detached/ {
    for (i = 1; i <= NF; i++)
      if ($i == "request") p = $(i + 1)
    detached += control[p]
  }
  END { print sends + 0, detached + 0 }
' "$tmp/out" >"$tmp/counts"
read -r sends detached <"$tmp/counts"
echo "control_not_detached: $protocol on $np ranks: $sends control sends" \
  "of application ranks ($scope), $detached detached"
[ "$sends" -gt 0 ] || { echo "no control send seen: nothing checked"; exit 1; }
[ "$detached" -eq 0 ]
