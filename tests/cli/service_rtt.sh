#!/bin/sh
# The platform's service round trip (README, "Cross-check against this
# machine"): hosts with the property ftsim_service_rtt_s (ftsim calibrate
# writes it) charge each wait of a message-logging rank for the event
# logger's acknowledgement as el_rtt_us does; el_rtt_us overrides it.
# lu, 2 ranks, pessimist, modelled computation (deterministic times).
#   charged   property 200 us: the run is longer than with none, and
#             exactly as long as el_rtt_us=200 on hosts without it
#   override  property 200 us and el_rtt_us=50: as el_rtt_us=50 alone
#   bad       ftsim_service_rtt_s="2ms": ftsim run stops before the launch
#             naming the file, line, property and value (never taken as 0)
# Usage: service_rtt.sh FTSIM CASE
set -u
ftsim=$1 case=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "service_rtt.sh $case: $*"; exit 1; }
field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" "$2"; }

# platform FILE [RTT_VALUE]
platform() {
  prop=
  [ -z "${2:-}" ] || prop="<prop id=\"ftsim_service_rtt_s\" value=\"$2\"/>"
  {
    echo '<?xml version="1.0"?>'
    echo '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">'
    echo '<platform version="4.1"><zone id="t" routing="Cluster">'
    for h in t-1 t-2 t-service-1; do
      echo "<host id=\"$h\" speed=\"2Gf\">$prop</host>"
      echo "<link id=\"$h-l\" bandwidth=\"1Gbps\" latency=\"10us\" sharing_policy=\"SPLITDUPLEX\"/>"
      echo "<host_link id=\"$h\" up=\"$h-l_UP\" down=\"$h-l_DOWN\"/>"
    done
    echo '</zone></platform>'
  } > "$1"
}

# run NAME PLATFORM [ftsim run options...]: the summary in $dir/NAME
run() {
  name=$1 plat=$2
  shift 2
  "$ftsim" run --platform "$plat" --np 2 --app lu --protocol pessimist \
    "$@" -- --class S --iters 20 > "$dir/$name" 2> "$dir/$name.err"
  rc=$?
  [ $rc = 0 ] || { cat "$dir/$name.err"; fail "$name: exit $rc"; }
  [ "$(field verified "$dir/$name")" = true ] || fail "$name: not verified"
  [ "$(field events_logged "$dir/$name")" -gt 0 ] || fail "$name: no event"
}
t() { field completion_time_s "$dir/$1"; }

platform "$dir/none.xml"
platform "$dir/rtt.xml" 2e-4
case $case in
charged)
  run none "$dir/none.xml"
  run prop "$dir/rtt.xml"
  run opt "$dir/none.xml" --set el_rtt_us=200
  echo "none $(t none) s, property $(t prop) s, el_rtt_us=200 $(t opt) s"
  awk -v a="$(t prop)" -v b="$(t none)" 'BEGIN { exit !(a > b) }' ||
    fail "the property charged nothing"
  [ "$(t prop)" = "$(t opt)" ] || fail "the property and el_rtt_us differ"
  ;;
override)
  run prop "$dir/rtt.xml" --set el_rtt_us=50
  run opt "$dir/none.xml" --set el_rtt_us=50
  echo "property + el_rtt_us=50 $(t prop) s, el_rtt_us=50 $(t opt) s"
  [ "$(t prop)" = "$(t opt)" ] || fail "el_rtt_us did not override the property"
  ;;
bad)
  platform "$dir/bad.xml" 2ms
  "$ftsim" run --platform "$dir/bad.xml" --np 2 --app lu --protocol pessimist \
    -- --class S --iters 20 > "$dir/out" 2> "$dir/err"
  rc=$?
  [ $rc != 0 ] || fail "exit 0 with a malformed property"
  want="$dir/bad.xml:4: field 'ftsim_service_rtt_s': value '2ms' is not a number of seconds"
  grep -q -- "$want" "$dir/err" || { cat "$dir/err"; fail "no message '$want'"; }
  grep -q '"completion_time_s"' "$dir/out" && fail "a summary was printed"
  ;;
*) fail "unknown case" ;;
esac
echo "service_rtt.sh $case: ok"
