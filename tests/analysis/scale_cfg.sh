#!/bin/sh
# bench/scale.sh -c KEY:VALUE reaches the simulation: cg at 4 ranks, one
# iteration, with SimGrid's default detached-send threshold and with
# `-c smpi/send-is-detached-thresh:0` (every send rendezvous), must print
# different simulated times (0.002806 and 0.002925 s on 3.32), and an
# unknown SimGrid key given with -c must make scale.sh exit non-zero.
#   scale_cfg.sh SOURCE_DIR BUILD_DIR
set -eu
src=$1
FTSIM_BUILD_DIR="$2"
export FTSIM_BUILD_DIR
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
scale() { sh "$src/bench/scale.sh" -n 4 -R "" "$@" cg -- --iters 1 --tol 0; }
# sim_s of the one cg row (column 7), or nothing.
sim() { awk '$1 == "cg" && $2 == 4 { print $7 }'; }
plain=$(scale | sim)
det0=$(scale -c smpi/send-is-detached-thresh:0 | sim)
echo "plain sim_s=$plain, send-is-detached-thresh:0 sim_s=$det0"
if [ -z "$plain" ] || [ -z "$det0" ]; then
  echo "FAIL: a row is missing"
  exit 1
fi
[ "$plain" != "$det0" ] || { echo "FAIL: -c changed nothing"; exit 1; }
if scale -c smpi/no-such-key:0 >out 2>err; then
  echo "FAIL: an unknown SimGrid key was accepted"
  exit 1
fi
grep -q "Bad config key: smpi/no-such-key" err ||
  { echo "FAIL: SimGrid's error is missing"; cat err; exit 1; }
echo "ok"
