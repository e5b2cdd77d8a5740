#!/bin/sh
# The option upload_streams (issue 18, item 2): a checkpoint server
# receives at most that many images at once, the others waiting at their
# senders in the order of their STOREs (sim/runtime/service.c,
# start_waiting). The same run of PROTOCOL (bt, 4 ranks of gige, one
# server, image_mb=2: each image about 17 ms alone on the server's link)
# with upload_streams=1 and 0 (no limit) must both verify and commit waves;
# with 0 the four images of the first wave share the server's link and are
# stored within a few milliseconds of each other, with 1 they are stored
# one after the other: the trace's `image` records of wave 1 (TIME: when
# STORED reached the rank) span at least 1.5 images' time (three images
# queued behind the first, 17 ms each alone, span about 125 ms beside bt's
# traffic). And with 1 stream a run whose failures cut uploads while
# others wait completes, verified. Deterministic: simulated times only.
#
# Usage: upload_streams.sh FTSIM PROTOCOL
set -u
[ $# -eq 2 ] || { echo "usage: upload_streams.sh FTSIM PROTOCOL" >&2; exit 2; }
ftsim=$1 protocol=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for k in 0 1; do
  if ! "$ftsim" run --platform gige --np 4 --app bt --protocol "$protocol" \
    --set period=0.05 --set image_mb=2 --set upload_streams=$k \
    --trace "$tmp/trace.$k" >"$tmp/out.$k" 2>"$tmp/err.$k"; then
    echo "upload_streams: the run with upload_streams=$k failed"
    tail -n 5 "$tmp/err.$k"
    exit 1
  fi
  grep -q '"verified":true' "$tmp/out.$k" ||
    { echo "upload_streams=$k: not verified"; exit 1; }
  grep -q '"waves":[1-9]' "$tmp/out.$k" ||
    { echo "upload_streams=$k: no wave committed"; cat "$tmp/out.$k"; exit 1; }
done
# spread K: the last minus the first time at which a rank's image of wave 1
# was stored, over the 4 ranks (none missing).
spread() {
  cat "$tmp/trace.$1".* | awk '$4 == "image" && $5 == 1 {
      n++; if (n == 1 || $1 < lo) lo = $1; if (n == 1 || $1 > hi) hi = $1 }
    END { if (n != 4) { print "missing"; exit } printf "%.6f\n", hi - lo }'
}
s0=$(spread 0) s1=$(spread 1)
echo "upload_streams: $protocol: wave 1's images stored within $s0 s (no limit), $s1 s (1 stream)"
case "$s0$s1" in *missing*)
  echo "upload_streams: a rank's image of wave 1 has no image record"; exit 1 ;;
esac
# Images waiting their turn when a rollback cuts the uploads in flight: a
# failure during the second wave's uploads (1 stream), the run completes,
# verified, after its rollback.
printf 'detection 0.001\nrestart 0.01\nfail 1 at 0.12\nfail 2 at 0.3\n' >"$tmp/fail.txt"
"$ftsim" run --platform gige --np 4 --app bt --protocol "$protocol" \
  --set period=0.05 --set image_mb=2 --set upload_streams=1 \
  --scenario "$tmp/fail.txt" >"$tmp/out.f" 2>"$tmp/err.f" ||
  { echo "upload_streams: the run with failures failed"; tail -n 5 "$tmp/err.f"; exit 1; }
if ! grep -q '"verified":true' "$tmp/out.f" ||
  ! grep -q '"rollbacks":[1-9]' "$tmp/out.f"; then
  echo "upload_streams: the run with failures: not verified or no rollback"
  cat "$tmp/out.f"
  exit 1
fi
awk -v a="$s0" 'BEGIN { exit !(a < 0.005) }' ||
  { echo "upload_streams: without a limit the images should be stored together"; exit 1; }
awk -v a="$s1" 'BEGIN { exit !(a > 0.025) }' ||
  { echo "upload_streams: with 1 stream the images should be stored one after the other"; exit 1; }
