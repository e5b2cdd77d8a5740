#!/bin/sh
# MPICH-V's implementation costs calibrated to pessimist-openmpi-v 4.2-4.3
# (analysis/impl_costs.sh, the presets the analysis scripts use): on
# myrinet, Vdummy (protocol none with the daemon preset) at 96.1 us and 22%
# of none's bandwidth ("increases the latency to 96.1us, even without
# enabling event logging"), MPICH-V2 (v2 with the daemon and the event
# logger's TCP round trip) at 183 us ("to reach 183us") and 22% ("MPICH-V
# reaches only 22% of the MPICH-MX bandwidth"); each within 10%.
# Usage: mpichv_costs.sh FTSIM ROOT
ftsim=$1
. "$2/analysis/impl_costs.sh"
run() { # PROTOCOL [options]: "bytes us Mb/s" lines
  p=$1
  shift
  "$ftsim" run --platform myrinet --np 2 --app pingpong --protocol "$p" "$@" \
    -- --sizes 0,1M --iters 3 --warmup 1 2>&1 |
    awk '$2 == "bytes" { print $1, $5, $7 }'
}
within() { # NAME VALUE TARGET: VALUE within 10% of TARGET
  awk -v n="$1" -v v="$2" -v t="$3" 'BEGIN {
    printf "%s: %s (paper: %s)\n", n, v, t
    exit !(v != "" && v >= 0.9 * t && v <= 1.1 * t) }'
}
fig() { awk -v b="$2" -v c="$3" '$1 == b { print $c }' "$1"; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
run none >"$tmp/none"
run none $MPICHV_DAEMON_myrinet >"$tmp/vd"
run v2 $MPICHV_DAEMON_myrinet $MPICHV2_EL_myrinet >"$tmp/v2"
bw() { awk -v a="$(fig "$1" 1048576 3)" -v b="$(fig "$tmp/none" 1048576 3)" \
  'BEGIN { if (a != "" && b > 0) print a / b }'; }
status=0
within "Vdummy latency, us" "$(fig "$tmp/vd" 0 2)" 96.1 || status=1
within "Vdummy bandwidth, share of none" "$(bw "$tmp/vd")" 0.22 || status=1
within "MPICH-V2 latency, us" "$(fig "$tmp/v2" 0 2)" 183 || status=1
within "MPICH-V2 bandwidth, share of none" "$(bw "$tmp/v2")" 0.22 || status=1
exit $status
