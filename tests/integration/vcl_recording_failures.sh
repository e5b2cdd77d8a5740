#!/bin/sh
# Failures while Vcl records channel state. ahead_check (every message
# crosses the next safe point, so every wave records one message per rank)
# runs under vcl with one failure at a seeded random time; the control trace
# (FTSIM_TRACE_CONTROL) tells whether the failure hit a wave between its first
# CUT and its commit, i.e. while channel state was being recorded. Every run
# must be verified, its event trace must pass `ftsim check`, and at least a
# quarter of them must have failed during a recording, so the test cannot
# pass by missing the window.
#
# Usage: vcl_recording_failures.sh FTSIM RUN_SMPI PLATFORM AHEAD COUNT
set -u
ftsim=$1 run_smpi=$2 platform=$3 ahead=$4 count=$5
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0 during=0
for seed in $(seq 1 "$count"); do
  t=$(awk -v s="$seed" 'BEGIN { srand(s); printf "%.6f", 0.01 + 0.07 * rand() }')
  rank=$((seed % 4))
  printf 'detection 0.0005\nrestart 0.002\nfail %d at %s\n' "$rank" "$t" >"$tmp/s.txt"
  rm -f "$tmp"/t.*
  if ! FTSIM_TRACE_CONTROL=1 FTSIM_OPTIONS="protocol=vcl,period=0.003,scenario=$tmp/s.txt,trace=$tmp/t" \
    sh "$run_smpi" "$platform" 4 1 "all messages checked" "$ahead" 60 >"$tmp/out" 2>&1; then
    echo "seed $seed: rank $rank fails at $t s: FAILED"
    grep -v '^\[' "$tmp/out" | tail -n 5
    failed=$((failed + 1))
    continue
  fi
  if ! "$ftsim" check "$tmp/t" >"$tmp/check" 2>&1; then
    echo "seed $seed: rank $rank fails at $t s: trace check FAILED"
    cat "$tmp/check"
    failed=$((failed + 1))
    continue
  fi
  # Kinds by name: cut, vcl's CUT (a rank took its checkpoint; enum
  # ft_vcl_control in protocols/vcl/vcl.h), COMMIT and FAIL (enum
  # ft_wire_kind in sim/runtime/control.h).
  verdict=$(awk '
    / > / && $0 ~ /kind (cut|COMMIT|FAIL) / {
      tm = substr($1, 2, length($1) - 2) + 0
      for (i = 1; i <= NF; i++) { if ($i == "kind") k = $(i + 1); if ($i == "wave") w = $(i + 1) }
      if (k == "FAIL" && fail == "") fail = tm
      if (k == "cut" && !(w in cut)) cut[w] = tm
      if (k == "COMMIT" && !(w in commit)) commit[w] = tm
    }
    END {
      hit = 0
      for (w in cut) if (cut[w] < fail && (!(w in commit) || commit[w] > fail)) hit = 1
      print hit ? "during recording" : "outside recording"
    }' "$tmp/out")
  [ "$verdict" = "during recording" ] && during=$((during + 1))
  echo "seed $seed: rank $rank fails at $t s: verified, $verdict"
done
echo "vcl_recording_failures: $count runs, $failed failed, $during failed during a recording"
[ "$failed" -eq 0 ] && [ $((during * 4)) -ge "$count" ]
