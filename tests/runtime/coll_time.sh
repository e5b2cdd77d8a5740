#!/bin/sh
# Compares the simulated time of each collective through the runtime
# (protocol none) with plain SMPI's under the `ompi` selector, on the same
# platform and hosts (issue 18, item 3): coll_time.c built twice.
# Usage: coll_time.sh BIN PLATFORM NP TOLERANCE COUNT...
#   BIN holds smpi/coll_time and plain/coll_time; TOLERANCE is the largest
#   relative difference allowed per collective and size (0.05 = 5%).
#   Prints one line per collective and size: name, bytes, plain seconds,
#   runtime seconds, ratio, and "ok" or "OFF"; exits 1 if any is OFF.
set -u
bin=$1 platform=$2 np=$3 tol=$4
shift 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Host names in file order, as tests/run_smpi.sh reads them: <host id>, or
# a <cluster>'s prefix and radical range.
grep -o '<host id="[^"]*"\|prefix="[^"]*"\( suffix="[^"]*"\)\? radical="[^"]*"' "$platform" |
  sed 's/<host id="\([^"]*\)"/\1/;
       s/prefix="\([^"]*\)".* radical="\([0-9]*\)-\([0-9]*\)"/\1 \2 \3/' |
  while read -r p a b; do
    if [ -n "${a:-}" ]; then seq -f "$p%g" "$a" "$b"; else echo "$p"; fi
  done | grep -v -- '-service-' | head -n "$np" >"$tmp/hosts"
for mode in plain smpi; do
  FTSIM_OPTIONS=protocol=none smpirun -np "$np" -platform "$platform" \
    -hostfile "$tmp/hosts" --cfg=smpi/simulate-computation:no \
    --cfg=smpi/grow-injected-times:no --cfg=smpi/coll-selector:ompi \
    --log=root.thres:critical "$bin/$mode/coll_time" "$@" >"$tmp/$mode" 2>&1 ||
    { cat "$tmp/$mode"; echo "coll_time.sh: $mode run failed"; exit 1; }
  grep -q '^coll_time ' "$tmp/$mode" ||
    { cat "$tmp/$mode"; echo "coll_time.sh: $mode printed no time"; exit 1; }
done
grep '^coll_time ' "$tmp/plain" >"$tmp/p"
grep '^coll_time ' "$tmp/smpi" >"$tmp/s"
paste -d ' ' "$tmp/p" "$tmp/s" | awk -v tol="$tol" -v np="$np" '
  $2 != $6 || $3 != $7 { print "coll_time.sh: runs differ: " $0; bad = 1; next }
  {
    r = $4 > 0 ? $8 / $4 : ($8 > 0 ? 99 : 1)
    off = r > 1 + tol || r < 1 - tol
    printf "np %d %-10s %8d B  plain %.6f s  ftsim %.6f s  ratio %.3f %s\n",
      np, $2, $3, $4, $8, r, off ? "OFF" : "ok"
    bad = bad || off
  }
  END { exit bad }'
