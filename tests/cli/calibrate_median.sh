#!/bin/sh
# calibrate_median.sh FTSIM: `ftsim calibrate` writes the service ping-pong's
# median round trip as ftsim_service_rtt_s, not its mean (which a few rounds
# of milliseconds make: 67-235 us in runs minutes apart on the 2-core VM,
# the median 40-57 us), and passes --service-rounds to the program. The
# ping-pong measures 1 MiB only, and the JSON line says its priority. The
# ping-pong is a stand-in ($FTSIM_PINGPONG) that prints fixed lines, so the
# numbers are known; mpirun still runs it.
set -u
FTSIM=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/ftsim-calib-median-XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat >"$dir/pp" <<EOS
#!/bin/sh
case "\$1" in
  service) echo "\$*" >"$dir/args.\$\$"
           echo "service rtt_us 812.5 median_us 43.25 max_us 9000" ;;
  *) echo "\$*" >"$dir/pair_args"
     echo "pair a b lat_us 0.3 bw_mbps@1048576 60000 test_us 0.02 iprobe_us 0.03" ;;
esac
EOS
chmod +x "$dir/pp"
FTSIM_PINGPONG=$dir/pp "$FTSIM" calibrate -o "$dir/p.xml" --repeat 1 \
  --rounds 5 --service-rounds 77 --disk-dir "$dir" >"$dir/out" 2>"$dir/err" ||
  { rc=$?; cat "$dir/err"; fail "calibrate exited $rc"; }
cat "$dir/out"
grep -q '"service_rtt_us":43.25,' "$dir/out" ||
  fail "service_rtt_us is not the median 43.25"
[ "$(grep -c '<prop id="ftsim_service_rtt_s" value="4.325e-05"/>' "$dir/p.xml")" -ge 1 ] ||
  fail "ftsim_service_rtt_s is not 4.325e-05"
grep -q '43.25 us, the median' "$dir/p.xml" || fail "the comment does not say the median"
grep -qx 'service -r 77' "$dir"/args.* || fail "--service-rounds 77 not passed: $(cat "$dir"/args.*)"
# The bandwidth at 1 MiB only (8 MiB's varied 6.7-77 Gb/s between runs),
# and the priority the measurement ran at, said.
grep -q -- '-s 1048576 ' "$dir/pair_args" || fail "ping-pong not at 1 MiB: $(cat "$dir/pair_args")"
! grep -q 8388608 "$dir/pair_args" || fail "ping-pong still at 8 MiB: $(cat "$dir/pair_args")"
grep -q '"bw_mbps":60000,"bw_bytes":1048576,' "$dir/out" || fail "bandwidth is not the 1 MiB one"
grep -Eq '"priority":"(autogroup-19|as launched)"}' "$dir/out" || fail "no priority field"
echo OK
