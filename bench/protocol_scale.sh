#!/bin/sh
# Wall time of each protocol against `none`, failure-free, side by side in
# one run: the same workload, platform and placement through `ftsim run`,
# protocol after protocol, REPEAT rounds (the protocols alternate inside a
# round, so that a machine busy for a while slows them all alike). Prints
# the best wall time of each (the summary's wall_s) and its ratio to
# none's, the best CPU time of the run (user + system, GNU time; "-"
# without /usr/bin/time) and its ratio (steadier than wall time on a
# shared machine), and the simulated completion time and waves (what the
# protocol costs on the platform). A benchmark, not a test: nothing here
# passes or fails on speed.
#
# What the figures showed (docs/testing.md, "Protocols at scale"): a pcl
# wave at 400 ranks woke every rank still running towards K once per
# marker (a bell each, p(p - 1) a wave) until its markers became quiet
# (307979d: the 400-rank pcl run's CPU time, alternated at load 3 to 6,
# 28.4 s -> 24.7 s, none 9.7 s: 2.9x -> 2.5x); what was left of a wave
# was SimGrid's network solver re-solving one system of up to p image
# flows while the images went up to the checkpoint server, until a server
# took at most upload_streams images at once (default 16; pcl at 400
# ranks 2.6x -> 1.3-1.4x of none's CPU time). vcl's markers and CUTs woke
# a rank nearly once each (about 2.4x none's CPU time at 400 ranks) until
# they became quiet, a rank woken only once as many are due as its core
# needs to act (the core's wake_after: the notice, K, the last CUT).
#
# A protocol may carry settings after a colon, comma-separated, to compare
# variants side by side: -P "pcl pcl:upload_streams=0" runs pcl with the
# default upload_streams and with no limit (each image a flow of its own,
# the model before; README, "Protocols at scale"); and environment
# variables after an @, comma-separated: -P "pcl pcl@FTSIM_WAIT_EVERY_SEND=1"
# runs pcl as built and with every wait of a send in the library (before
# sim/runtime/pending.c). -s 100 runs without waves (bt on 400 ranks ends
# before 15 s): the per-call cost of a protocol that recovers, alone.
#
# Usage: bench/protocol_scale.sh [-a APP] [-p PLATFORM] [-r REPEAT]
#                                [-P "PROTOCOLS"] [-s PERIOD] [NP...]
#   defaults: -a bt -p grid5000 -r 1 -s 2.5,
#   -P "none pcl vcl pessimist v2 bookmark", NP = 64 400
#   (bt on 400 ranks runs about 15 s simulated; period 2.5 commits 2 waves:
#   a wave starts a period after the previous commit and at a safe point)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${FTSIM_BUILD_DIR:-$top/build}
app=bt platform=grid5000 repeat=1 period=2.5 nps=""
protocols="none pcl vcl pessimist v2 bookmark"
while [ $# -gt 0 ]; do
  case $1 in
    -a) app=$2; shift 2 ;;
    -p) platform=$2; shift 2 ;;
    -r) repeat=$2; shift 2 ;;
    -P) protocols=$2; shift 2 ;;
    -s) period=$2; shift 2 ;;
    -*) echo "protocol_scale.sh: unknown option $1" >&2; exit 2 ;;
    *) nps="$nps $1"; shift ;;
  esac
done
[ -n "$nps" ] || nps="64 400"
case " $protocols " in
  *" none "*) ;;
  *) protocols="none $protocols" ;;
esac
[ -x "$build/ftsim" ] ||
  { echo "protocol_scale.sh: $build/ftsim is not built" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# field NAME FILE: a number of the summary line in FILE.
field() {
  sed -n "s/.*\"$1\":\([-0-9.e]*\).*/\1/p" "$2" | tail -1
}

timer=""
[ -x /usr/bin/time ] && timer="/usr/bin/time -f %U+%S -o $tmp/cpu"

# run_once PROTOCOL NP: appends "wall_s cpu_s completion_s waves" to
# $tmp/PROTOCOL.NP (cpu_s -1: not measured); a run that fails or is not
# verified stops the benchmark.
run_once() {
  p=$1 np=$2
  spec=${p%%@*} envs=""
  case $p in *@*) envs=$(echo "${p#*@}" | tr ',' ' ') ;; esac
  name=${spec%%:*} sets=""
  case $spec in *:*) sets=$(echo "${spec#*:}" | tr ',' ' ') ;; esac
  set --
  for kv in $sets; do set -- "$@" --set "$kv"; done
  echo -1 >"$tmp/cpu"
  # shellcheck disable=SC2086 # $envs and $timer are words
  env $envs $timer "$build/ftsim" run --platform "$platform" --np "$np" --app "$app" \
    --protocol "$name" --set period="$period" "$@" >"$tmp/out" 2>"$tmp/err" ||
    { echo "protocol_scale.sh: $p on $np ranks failed:" >&2; cat "$tmp/err" >&2
      exit 1; }
  grep -q '"verified":true' "$tmp/out" ||
    { echo "protocol_scale.sh: $p on $np ranks not verified:" >&2
      cat "$tmp/out" >&2; exit 1; }
  cpu=$(tail -n 1 "$tmp/cpu" | awk -F+ 'NF == 2 { print $1 + $2; next }
    { print -1 }')
  echo "$(field wall_s "$tmp/out") $cpu $(field completion_time_s "$tmp/out")" \
    "$(field waves "$tmp/out")" >>"$tmp/$p.$np"
}

printf '%-30s %5s  %8s %6s  %8s %6s  %12s %5s\n' protocol ranks wall_s ratio \
  cpu_s ratio simulated_s waves
for np in $nps; do
  i=0
  while [ $i -lt "$repeat" ]; do
    for p in $protocols; do
      run_once "$p" "$np"
    done
    i=$((i + 1))
  done
  base=$(awk 'NR == 1 || $1 < w { w = $1 } NR == 1 || $2 < c { c = $2 }
    END { print w, c }' "$tmp/none.$np")
  for p in $protocols; do
    awk -v p="$p" -v n="$np" -v b="$base" '
      NR == 1 || $1 < w { w = $1; t = $3; v = $4 }
      NR == 1 || $2 < c { c = $2 }
      END {
        split(b, base, " ")
        if (c < 0 || base[2] <= 0) cpu = sprintf("%8s %6s", "-", "-")
        else cpu = sprintf("%8.2f %6.2f", c, c / base[2])
        printf "%-30s %5d  %8.2f %6.2f  %s  %12.6f %5d\n", p, n, w,
          w / base[1], cpu, t, v
      }' "$tmp/$p.$np"
  done
done
