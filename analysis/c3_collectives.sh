#!/bin/sh
# c3_collectives.sh: what c3-collectives measured in section 6 (Figures
# 9-12), on the paper's cluster (platforms/velocity.xml: 32 nodes, Giganet
# cLAN over VIA, one rank per node): the time of MPI_Bcast, MPI_Gather and
# MPI_Allgather from 4 bytes to 4 MiB (and of MPI_Scatter, which the paper
# did not measure), and of MPI_Barrier, natively and
# under the runtime's c3 with the protocol's bits (epoch colour, amLogging,
# number) sent by a separate collective before the call's data (each call
# one unit, sim/runtime/piggyback/pb_coll.c), combined with the data (each
# member's bits packed with its block, one collective of the enlarged
# blocks), or switching between the two by size, and the overhead of each.
#
#   analysis/c3_collectives.sh [--quick] [BUILD_DIR]
#
# Four `ftsim run --platform velocity --np 32` of bench/c3coll.c
# --native-only 1 (the mean of --iters 3 repetitions of the slowest rank's
# time of each call): `--protocol none`, then `--protocol c3` (no
# checkpoint: the piggyback alone) with piggyback=separate, combined and
# auto (piggyback_unit_bytes: C3_UNIT_BYTES, and piggyback_switch_bytes:
# C3_SWITCH_BYTES, defaults the runtime's). The runtime carries the
# collectives over point-to-point (sim/runtime/coll.c); under c3 separate
# each call exchanges the bits once in its data-flow class's direction
# (sim/runtime/coll_unit.c), combined packs them with each member's block
# for one collective of the enlarged blocks (sim/runtime/coll_combined.c,
# barrier: the separate exchange); a memory copy costs its bytes at
# copy_mbps = C3_COPY_MBPS MB/s (default 300: a Pentium III's memcpy, an
# estimate; the paper gives none). C3_JOBS runs at a time (default 1).
# --quick: sizes up to 64 KiB (where the combined bcast has grown past
# 100 times its 4-byte cost), one repetition.
#
# The paper's finding: "the cost of using the separate message protocol is
# fairly constant, whereas the cost of the "piggy-backed" protocol grows
# with the size of the message. [...] the optimal strategy would be a
# protocol that switched from a combined message to separate messages as
# the size of the data message grew. Using such a strategy, the overhead
# added by this protocol is minimal." The verdict line of each call says
# whether the run shows it: the separate overhead roughly constant (largest
# / smallest over the sizes under 10: it is one message's latency per round
# of the call's algorithm, and the runtime's algorithms change with the
# size), the combined one growing (at the largest size over 100 times the
# smallest's, and above the separate one there), and auto's at every size
# within 10% (and 1 us) of the cheaper of the two.
#
# Exit status: 0 if the four runs succeeded with "verified":true; 1 if not;
# 2 on usage errors.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
JOBS=${C3_JOBS:-1}
COPY=${C3_COPY_MBPS:-300}
SWITCH=${C3_SWITCH_BYTES:-}
UNIT=${C3_UNIT_BYTES:-}

die() { echo "c3_collectives.sh: $*" >&2; exit 2; }

. "$ROOT/analysis/runs.sh"
parse_args C3_JOBS "$@"
APP=$BUILD/bench/smpi/c3coll
[ -f "$APP" ] || die "$APP not built (cmake --build $BUILD --target c3coll-smpi)"

TMP=$(mktemp -d) || die "cannot create a scratch directory"
trap 'rm -rf "$TMP"' EXIT
ARGS="--iters 3"
[ "$QUICK" = 1 ] && ARGS="--iters 1 --max 65536"

C3="--protocol c3 --set copy_mbps=$COPY --set piggyback"
AUTO=auto
[ -n "$SWITCH" ] && AUTO="$AUTO --set piggyback_switch_bytes=$SWITCH"
[ -n "$UNIT" ] && AUTO="$AUTO --set piggyback_unit_bytes=$UNIT"
for form in none separate combined auto; do
  case $form in
  none) how="--protocol none" ;;
  auto) how="$C3=$AUTO" ;;
  *) how="$C3=$form" ;;
  esac
  echo "$form --platform velocity --np 32 --app $APP $how -- --native-only 1 $ARGS"
done | run_jobs
failed=0
for form in none separate combined auto; do
  check $form "c3coll on velocity, $form" || failed=1
done

# The lines of one operation: BYTES NATIVE SEPARATE COMBINED AUTO.
lines() {
  for form in none separate combined auto; do
    awk -v op="$1" '$1 == "c3coll" && $2 == op { print $3, $4 }' "$TMP/$form.err"
  done | awk '{ t[$1] = t[$1] " " $2; if (!($1 in seen)) { seen[$1] = 1; order[n++] = $1 } }
    END { for (i = 0; i < n; i++) print order[i] t[order[i]] }'
}

for op in bcast gather allgather scatter barrier; do
  echo "== MPI_${op}: time (us) and the piggyback's overhead (us), 32 ranks"
  printf '%9s %10s %10s %8s %10s %8s %10s %8s %9s\n' bytes native separate +sep \
    combined +comb auto +auto cheaper
  lines "$op" | awk '{
    s = $3 - $2; c = $4 - $2; a = $5 - $2; b = s < c ? "separate" : "combined"
    printf "%9s %10.1f %10.1f %8.1f %10.1f %8.1f %10.1f %8.1f %9s\n", $1, $2, $3, s, $4, c, $5, a, b
  }'
  [ "$op" = barrier ] && continue
  lines "$op" | awk -v op="$op" '
    NR == 1 { c0 = $4 - $2 }
    { s = $3 - $2; c = $4 - $2; a = $5 - $2; m = s < c ? s : c
      if (NR == 1 || s < smin) smin = s
      if (NR == 1 || s > smax) smax = s
      if (a > m + 0.1 * (m < 0 ? -m : m) + 1) { worse++; wsize = $1 }
      slast = s; clast = c; last = $1
      if (!sw && c > s) sw = $1 }
    END {
      spread = smin > 0 ? smax / smin : 0
      growth = c0 > 0 ? clast / c0 : 0
      flat = spread > 0 && spread < 10
      grows = growth > 100 && clast > slast
      ok = flat && grows && !worse
      printf "verdict %s: separate overhead %.1f..%.1f us (x%.2f: %s), combined x%.0f from 4 B to %s B (%s), combined cheaper below %s, auto %s: %s\n",
        op, smin, smax, spread, flat ? "roughly constant" : "NOT constant",
        growth, last, grows ? "grows" : "does NOT grow",
        sw ? sw " B" : "every size",
        worse ? "above the cheaper at " worse " sizes (up to " wsize " B)" : "within 10% of the cheaper at every size",
        ok ? "reproduced" : "NOT reproduced" }'
  echo
done
n=$(cat "$TMP"/none.err "$TMP"/separate.err "$TMP"/combined.err "$TMP"/auto.err |
  grep -c '^c3coll ')
echo "c3_collectives: 4 runs, $n lines, failed: $failed"
exit $failed
