#!/bin/sh
# The platform's ftsim_* host properties are checked by the CLI before
# anything is launched (README, "Errors"): a malformed one stops `ftsim run`
# with exit 2 and "FILE:LINE: field 'PROPERTY': value 'VALUE' ...", and
# smpirun is never started (FTSIM_SMPIRUN points nowhere: a launch would
# say "cannot start").
#   rtt_word, rtt_negative, rtt_too_big, rtt_no_value,
#   write_cpu_word, write_cpu_negative, unknown   refused
#   sweep             ftsim sweep refuses it too, naming the sweep file's line
#   commented, good   accepted (a bad property inside a comment is not one)
# Usage: platform_props.sh FTSIM CASE
set -u
ftsim=$1 case=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "platform_props.sh $case: $*"; exit 1; }

# platform FILE PROPS: hosts t-1, t-2, t-service-1; PROPS on t-2's line 6
platform() {
  {
    echo '<?xml version="1.0"?>'
    echo '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">'
    echo '<platform version="4.1"><zone id="t" routing="Cluster">'
    echo '<host id="t-1" speed="2Gf"><prop id="ftsim_service_rtt_s" value="4.7e-05"/></host>'
    echo '<link id="t-1-l" bandwidth="1Gbps" latency="10us" sharing_policy="SPLITDUPLEX"/><host_link id="t-1" up="t-1-l_UP" down="t-1-l_DOWN"/>'
    echo "<host id=\"t-2\" speed=\"2Gf\">$2</host>"
    echo '<link id="t-2-l" bandwidth="1Gbps" latency="10us" sharing_policy="SPLITDUPLEX"/><host_link id="t-2" up="t-2-l_UP" down="t-2-l_DOWN"/>'
    echo '<host id="t-service-1" speed="2Gf"/>'
    echo '<link id="t-s-l" bandwidth="1Gbps" latency="10us" sharing_policy="SPLITDUPLEX"/><host_link id="t-service-1" up="t-s-l_UP" down="t-s-l_DOWN"/>'
    echo '</zone></platform>'
  } > "$1"
}

# refused PROPS MESSAGE: exit 2, MESSAGE (after "FILE:6: ") on stderr
refused() {
  platform "$dir/p.xml" "$1"
  FTSIM_SMPIRUN=/nonexistent/smpirun "$ftsim" run --platform "$dir/p.xml" \
    --np 2 --app lu --protocol pessimist > "$dir/out" 2> "$dir/err"
  rc=$?
  cat "$dir/err"
  [ $rc = 2 ] || fail "exit $rc, expected 2"
  want="ftsim: $dir/p.xml:6: $2"
  grep -qF -- "$want" "$dir/err" || fail "no message '$want'"
  grep -q "cannot start" "$dir/err" && fail "smpirun was launched"
  [ -s "$dir/out" ] && fail "something on stdout"
  return 0
}

# accepted PROPS: --dry-run exits 0
accepted() {
  platform "$dir/p.xml" "$1"
  "$ftsim" run --platform "$dir/p.xml" --np 2 --app lu --protocol pessimist \
    --dry-run > "$dir/out" 2> "$dir/err"
  rc=$?
  cat "$dir/err"
  [ $rc = 0 ] || fail "exit $rc, expected 0"
}

rtt=ftsim_service_rtt_s cpu=ftsim_write_cpu_s_per_byte
case $case in
rtt_word)
  refused "<prop id=\"$rtt\" value=\"fast\"/>" \
    "field '$rtt': value 'fast' is not a number of seconds" ;;
rtt_negative)
  refused "<prop value=\"-1e-5\" id=\"$rtt\"/>" \
    "field '$rtt': value '-1e-5' is out of range (expected 0 <= x < 1 second)" ;;
rtt_too_big)
  refused "<prop id='$rtt' value='2'/>" \
    "field '$rtt': value '2' is out of range (expected 0 <= x < 1 second)" ;;
rtt_no_value)
  refused "<prop id=\"$rtt\"/>" "field '$rtt': the <prop> has no value" ;;
write_cpu_word)
  refused "<prop id=\"$cpu\" value=\"2ns\"/>" \
    "field '$cpu': value '2ns' is not a number of seconds" ;;
write_cpu_negative)
  refused "<prop id=\"$cpu\" value=\"-3e-10\"/>" \
    "field '$cpu': value '-3e-10' is out of range (expected 0 <= x < 1 second per byte)" ;;
unknown)
  refused "<prop id=\"ftsim_service_rtt\" value=\"4e-5\"/>" \
    "field 'ftsim_service_rtt': unknown ftsim_ host property (known: $rtt, $cpu)" ;;
sweep)
  # ftsim sweep checks each platform of its file before any point runs
  platform "$dir/p.xml" "<prop id=\"$rtt\" value=\"fast\"/>"
  printf 'protocols none\nplatforms %s\nranks 2\napps lu\n' "$dir/p.xml" \
    > "$dir/s.txt"
  "$ftsim" sweep --dry-run -o "$dir/never.csv" "$dir/s.txt" \
    > "$dir/out" 2> "$dir/err"
  rc=$?
  cat "$dir/err"
  [ $rc = 2 ] || fail "exit $rc, expected 2"
  want="ftsim: $dir/s.txt:2: field 'platforms': $dir/p.xml:6: field '$rtt': value 'fast' is not a number of seconds"
  grep -qF -- "$want" "$dir/err" || fail "no message '$want'"
  [ -e "$dir/never.csv" ] && fail "the sweep wrote results"
  ;;
commented)
  accepted "<!-- <prop id=\"$rtt\" value=\"fast\"/> -->" ;;
good)
  accepted "<prop id=\"$rtt\" value=\"0\"/><prop id=\"$cpu\" value=\"3.1e-10\"/><prop id=\"colour\" value=\"red\"/>" ;;
*) fail "unknown case" ;;
esac
echo "platform_props.sh $case: ok"
