#!/bin/sh
# `ftsim host-speed` measures and stores this machine's speed, --show reads
# it back, and a measured run passes it to SMPI (issue 14, item 3).
# Usage: host_speed.sh FTSIM APP  (FTSIM_HOST_CONF is set here)
ftsim=$1 app=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ftsim-speed-XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
export FTSIM_HOST_CONF="$tmp/conf/ftsim/host.conf"
unset FTSIM_HOST_SPEED
fail() { echo "FAIL: $*"; exit 1; }
"$ftsim" host-speed --repeat 3 >"$tmp/out" || fail "host-speed exited $?"
cat "$tmp/out" "$FTSIM_HOST_CONF"
speed=$(sed -n 's/^host_speed = \([0-9.e+]*\) (stored in .*/\1/p' "$tmp/out")
[ -n "$speed" ] || fail "no speed printed"
awk -v s="$speed" 'BEGIN { exit !(s > 1e6 && s < 1e13) }' ||
  fail "implausible speed $speed flop/s"
"$ftsim" host-speed --show | grep -qxF "host_speed = $speed (from $FTSIM_HOST_CONF)" ||
  fail "--show does not read back $speed"
"$ftsim" run --platform tiny --app "$app" --compute measured --dry-run >"$tmp/dry" ||
  fail "dry run exited $?"
grep -qF -- "--cfg=smpi/host-speed:${speed}f" "$tmp/dry" ||
  { cat "$tmp/dry"; fail "the run does not pass smpi/host-speed:${speed}f"; }
FTSIM_HOST_SPEED=3e9 "$ftsim" run --platform tiny --app "$app" --compute measured --dry-run |
  grep -qF -- "--cfg=smpi/host-speed:3e+09f" || fail "FTSIM_HOST_SPEED ignored"
echo "ok: $speed flop/s"
