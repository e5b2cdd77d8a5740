#!/bin/sh
# calibrate.sh FTSIM SMPIRUN SIMULATED_PINGPONG: `ftsim calibrate` writes a
# platform that SimGrid loads (smpirun on it), with one compute host per
# core (or --np N), and on which the simulated ping-pong gives back the
# latency and bandwidth the real one measured (within 3%: the file's
# numbers, not a wall-clock timing; SMPI's times are deterministic).
set -u
FTSIM=$1 SMPIRUN=$2 PINGPONG=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/ftsim-calib-XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# its own --disk-dir: two tests calibrating at once in the same directory
# removed each other's ftsim-calibrate-disk.img
FTSIM_PLATFORM_CONF=$dir/p.xml "$FTSIM" calibrate --repeat 1 --rounds 20 --service-rounds 50 \
  --disk-dir "$dir" >"$dir/out" 2>"$dir/err" ||
  { rc=$?; cat "$dir/err"; fail "calibrate exited $rc"; }
cat "$dir/out"
json=$(cat "$dir/out")
num() { printf '%s\n' "$json" | sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p"; }
lat=$(num lat_us) bw=$(num bw_mbps) hosts=$(num hosts)
[ "$hosts" = "$(getconf _NPROCESSORS_ONLN)" ] || fail "hosts $hosts, not the core count"
[ "$(grep -c '<host id="local-[0-9]' "$dir/p.xml")" = "$hosts" ] ||
  fail "the file does not have $hosts compute hosts"
# The service round trip (us): a number > 0, on every host (compute and
# service) as ftsim_service_rtt_s.
rtt=$(num service_rtt_us)
awk -v r="$rtt" 'BEGIN { exit !(r ~ /^[0-9.e+-]+$/ && r + 0 > 0) }' ||
  fail "service_rtt_us '$rtt' is not a number > 0"
[ "$(grep -c '<prop id="ftsim_service_rtt_s" value="[0-9.e+-]*"/>' \
  "$dir/p.xml")" = "$((hosts + 2))" ] ||
  fail "not every host has the property ftsim_service_rtt_s"

# MPI_Test's and MPI_Iprobe's costs (us): numbers > 0, written as the
# file's smpi/test and smpi/iprobe (seconds), which SMPI charges per call.
for k in test iprobe; do
  v=$(num ${k}_us)
  awk -v r="$v" 'BEGIN { exit !(r ~ /^[0-9.e+-]+$/ && r + 0 > 0) }' ||
    fail "${k}_us '$v' is not a number > 0"
  p=$(sed -n "s|.*<prop id=\"smpi/$k\" value=\"\([^\"]*\)\"/>.*|\1|p" "$dir/p.xml")
  awk -v a="$p" -v b="$v" 'BEGIN { d = a * 1e6 - b; exit !(d < 1e-3 * b && -d < 1e-3 * b) }' ||
    fail "smpi/$k '$p' s is not the measured ${k}_us $v"
done

printf 'local-1\nlocal-%s\nlocal-service-1\n' "$hosts" >"$dir/hosts"
"$SMPIRUN" -np 3 -platform "$dir/p.xml" -hostfile "$dir/hosts" \
  --cfg=smpi/privatization:dlopen --log=root.thres:warning \
  "$PINGPONG" -r 5 -s 1048576 0:1 0:2 >"$dir/sim" 2>"$dir/simerr" ||
  { cat "$dir/simerr"; fail "smpirun on the calibrated file failed"; }
cat "$dir/sim"
[ "$(grep -c '^pair' "$dir/sim")" = 2 ] || fail "expected 2 pair lines"
awk -v lat="$lat" -v bw="$bw" '
  function off(a, b) { d = (a - b) / b; return d < 0 ? -d : d }
  /^pair/ { n++; if (off($5, lat) > 0.03 || off($7, bw) > 0.03) {
    printf "FAIL: %s: %s us, %s Mb/s against %s us, %s Mb/s measured\n",
      $2 "-" $3, $5, $7, lat, bw; bad = 1 } }
  END { exit bad }' "$dir/sim" || exit 1

# calibrate send (a blocking send beside a napping service) runs and stops
# its service rank under SMPI too: one line, mean, median and p90 > 0.
"$SMPIRUN" -np 3 -platform "$dir/p.xml" -hostfile "$dir/hosts" \
  --cfg=smpi/privatization:dlopen --log=root.thres:warning \
  "$PINGPONG" send -r 50 >"$dir/send" 2>"$dir/senderr" ||
  { cat "$dir/senderr"; fail "calibrate send failed under smpirun"; }
cat "$dir/send"
awk '/^send ranks 3 mean_us / { n++; if ($5 > 0 && $7 > 0 && $9 > 0) ok++ }
  END { exit !(n == 1 && ok == 1) }' "$dir/send" ||
  fail "expected one 'send ranks 3 mean_us X median_us Y p90_us Z' line, X Y Z > 0"

# --np 5: five compute hosts, loaded by SimGrid too.
"$FTSIM" calibrate -o "$dir/p5.xml" --np 5 --repeat 1 --rounds 5 --service-rounds 5 >/dev/null \
  2>&1 || fail "calibrate --np 5 failed"
printf 'local-5\nlocal-service-2\n' >"$dir/h5"
"$SMPIRUN" -np 2 -platform "$dir/p5.xml" -hostfile "$dir/h5" \
  --cfg=smpi/privatization:dlopen --log=root.thres:warning \
  "$PINGPONG" -r 2 0:1 >"$dir/sim5" 2>&1 || { cat "$dir/sim5"; fail "p5"; }
grep -q '^pair local-5 local-service-2' "$dir/sim5" || fail "no local-5"
echo "OK"
