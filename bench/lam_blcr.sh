#!/bin/sh
# LAM/MPI's checkpoint/restart measurements (lam-mpi-blcr, section 6) under
# protocol `bookmark`, simulated: three tables, one per figure pair.
#
#   procs       Figure 12: the time to checkpoint the ring against the
#               number of processes (one per node), image 0.7 MB ("the
#               process size of the ring program is approximately
#               0.7MB"): N = 2 .. 8 and 16, 32;
#   size        Figure 13: the same at 8 processes against the image size
#               (-i sizes, MB);
#   throughput  Figures 10-11: NetPIPE-style throughput (apps/pingpong,
#               ranks 0 and 1) under `none`, under `bookmark` with no
#               checkpoint (period 0: its bookkeeping only, the paper's
#               "TCP RPI with checkpoint/restart") and under `bookmark`
#               checkpointing every 10 ms, and the loss of each against
#               `none` (Figure 11's percentage).
#
# The checkpoint time of a wave is from rank 0's checkpoint request (its
# first `request` control message of the wave, in the event trace) to the
# commit (the dispatcher's `commit` record): the staggered exchange of
# bookmarks, the drain, every image's transfer to the checkpoint server
# and the acknowledgements. Each row gives the mean, min and max over the
# run's waves; each table ends with the least-squares line through the
# means and its r^2. Images cost what the runtime's image store costs
# (image_mb added to the transfer to one checkpoint server over the
# platform's network) by default; -s STORAGE sets the option `storage`
# (README, "Checkpoint storage"): -s local writes each image to its node's
# disk, as BLCR did under LAM/MPI (lam-mpi-blcr 4.2: "The underlying
# checkpointer then writes the process image to stable storage").
#
# Usage: bench/lam_blcr.sh [-p PLATFORM] [-s STORAGE] [-l LAPS]
#                          [-n "NP..."] [-i "MB..."] [TABLE...]
#   defaults: -p gige -s network -l 2000 -n "2 3 4 5 6 7 8 16 32"
#             -i "0.7 1.4 2.8 5.6 11.2", every table (the size table runs
#             LAPS x MB / 2.8 laps when that is more, for a few waves).
# A benchmark, not a test: it prints figures and fails only when a run
# fails (exit 1) or on bad usage (exit 2).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${FTSIM_BUILD_DIR:-$top/build}
ftsim=$build/ftsim
platform=gige storage=network laps=2000 nps="2 3 4 5 6 7 8 16 32"
mbs="0.7 1.4 2.8 5.6 11.2"
while [ $# -gt 0 ]; do
  case $1 in
    -p) platform=$2; shift 2 ;;
    -s) storage=$2; shift 2 ;;
    -l) laps=$2; shift 2 ;;
    -n) nps=$2; shift 2 ;;
    -i) mbs=$2; shift 2 ;;
    -*) echo "lam_blcr.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
tables=${*:-procs size throughput}
for t in $tables; do
  case $t in
    procs | size | throughput) ;;
    *) echo "lam_blcr.sh: unknown table '$t' (procs, size, throughput)" >&2
       exit 2 ;;
  esac
done
[ -x "$ftsim" ] || { echo "lam_blcr.sh: $ftsim is not built" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ring NP MB [LAPS]: the ring under bookmark, a wave every 20 ms, traced
# to $tmp/t; prints "waves mean_ms min_ms max_ms" (waves 0: none).
ring() {
  rm -f "$tmp"/t.*
  "$ftsim" run --platform "$platform" --np "$1" --app ring \
    --protocol bookmark --set period=0.02 --set image_mb="$2" \
    --set storage="$storage" \
    --trace "$tmp/t" -- --iters "${3:-$laps}" >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; echo "lam_blcr.sh: ring $1 ranks, $2 MB" >&2
      exit 1; }
  grep -q '"verified":true' "$tmp/out" ||
    { cat "$tmp/out" >&2; echo "lam_blcr.sh: not verified" >&2; exit 1; }
  awk '$4 == "ctl-send" && $5 == "request" && !($7 in req) { req[$7] = $1 }
       $4 == "commit" && $6 == 0 { com[$5] = $1 }
       END {
         for (w in com) if (w in req) {
           d = (com[w] - req[w]) * 1000; n++; s += d
           if (n == 1 || d < lo) lo = d
           if (n == 1 || d > hi) hi = d
         }
         if (n == 0) { print "0 - - -"; exit }
         printf "%d %.3f %.3f %.3f\n", n, s / n, lo, hi
       }' "$tmp/t.0" "$tmp/t.$1" 2>/dev/null || echo "0 - - -"
}

# fit: reads "x mean" lines, prints the least-squares line and r^2.
fit() {
  awk '{ n++; sx += $1; sy += $2; sxx += $1 * $1; sxy += $1 * $2
         syy += $2 * $2 }
       END {
         if (n < 2) exit
         b = (n * sxy - sx * sy) / (n * sxx - sx * sx); a = (sy - b * sx) / n
         d = sqrt((n * sxx - sx * sx) * (n * syy - sy * sy))
         r = d > 0 ? (n * sxy - sx * sy) / d : 1
         printf "fit: %.3f ms + %.3f ms x %s, r^2 %.4f\n", a, b, unit, r * r
       }' unit="$1"
}

procs() {
  echo "# Figure 12: ring, image 0.7 MB, checkpoint time against processes ($platform, storage $storage)"
  printf '%6s %6s %10s %10s %10s\n' procs waves mean_ms min_ms max_ms
  : >"$tmp/xy"
  for np in $nps; do
    set -- $(ring "$np" 0.7)
    printf '%6s %6s %10s %10s %10s\n' "$np" "$1" "$2" "$3" "$4"
    [ "$1" = 0 ] || echo "$np $2" >>"$tmp/xy"
  done
  fit process <"$tmp/xy"
}

size() {
  echo "# Figure 13: ring, 8 processes, checkpoint time against image size ($platform, storage $storage)"
  printf '%8s %6s %10s %10s %10s\n' image_mb waves mean_ms min_ms max_ms
  : >"$tmp/xy"
  for mb in $mbs; do
    set -- $(ring 8 "$mb" $(awk -v l="$laps" -v m="$mb" \
      'BEGIN { n = int(l * m / 2.8); print (n > l ? n : l) }'))
    printf '%8s %6s %10s %10s %10s\n' "$mb" "$1" "$2" "$3" "$4"
    [ "$1" = 0 ] || echo "$mb $2" >>"$tmp/xy"
  done
  fit MB <"$tmp/xy"
}

# pingpong NAME ARGS...: the Mb/s column of apps/pingpong (its lines come
# with the run's messages) into $tmp/NAME.
pingpong() {
  name=$1
  shift
  "$ftsim" run --platform "$platform" --np 2 --app pingpong "$@" \
    -- --iters 20 --sizes 1,64,1024,16384,131072,1048576,4194304 \
    >"$tmp/$name.out" 2>&1 ||
    { cat "$tmp/$name.out" >&2; echo "lam_blcr.sh: pingpong $name" >&2
      exit 1; }
  grep -q '"verified":true' "$tmp/$name.out" ||
    { echo "lam_blcr.sh: pingpong $name: not verified" >&2; exit 1; }
  awk '$2 == "bytes" { print $1, $7 }' "$tmp/$name.out" >"$tmp/$name"
}

throughput() {
  echo "# Figures 10-11: pingpong throughput, Mb/s, and loss against none ($platform, storage $storage)"
  pingpong none --protocol none
  pingpong bm --protocol bookmark --set period=0
  pingpong bmc --protocol bookmark --set period=0.01 --set image_mb=0.7 \
    --set storage="$storage"
  printf '%9s %10s %10s %7s %10s %7s\n' bytes none bookmark loss_% \
    ckpt_10ms loss_%
  paste -d ' ' "$tmp/none" "$tmp/bm" "$tmp/bmc" | awk '{
    printf "%9s %10.3f %10.3f %7.2f %10.3f %7.2f\n", $1, $2, $4,
      100 * ($2 - $4) / $2, $6, 100 * ($2 - $6) / $2 }'
}

first=1
for t in $tables; do
  [ $first = 1 ] || echo
  first=0
  $t
done
