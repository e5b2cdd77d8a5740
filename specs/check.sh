#!/bin/sh
# Checks one Promela model of specs/ exhaustively with SPIN.
#
# Usage: specs/check.sh MODEL N [bug]
#   MODEL  bookmark, bookmark_sp, c3, pcl, pcl_anycall, vcl, vcl_anycall or
#          pessimist (specs/MODEL.pml)
#   N      number of application ranks (2 or 3)
#   bug    check the known-bad variant (-DBUG) instead: it must be refuted
#
# Environment: SPECS_WORK (default ./specs-work): where pan is generated,
# compiled and run (one directory per MODEL, N and variant; never the
# source tree); SPIN (default spin), CC (default gcc); SPECS_DEFS: more
# -D options for spin, e.g. "-DIT=3 -DMAXW=2" to change a model's bounds;
# SPECS_MEMLIM: pan's memory limit in MB (default 1024).
#
# For every `ltl NAME` of the model, pan runs an exhaustive search (-a);
# assertions, those of the models' Watch process (every run ends with
# every rank finished) included, are checked in every run. Good model:
# passes when every run says "errors: 0" and none was cut short ("search
# depth too small", memory limit, "search not completed"). Bad variant:
# passes when a run finds an error and leaves a trail, which replays
# (spin -t) into counterexample.txt (the model's "MSC:" lines tell the
# story; counterexample-full.txt has every step). Exit status: 0 pass, 1
# fail, 2 bad usage. Prints one line per run: property, errors, states
# stored, transitions, seconds of search.
set -eu

usage() {
  echo "usage: $0 MODEL N [bug]" >&2
  exit 2
}
[ $# -ge 2 ] && [ $# -le 3 ] || usage
model=$1
n=$2
variant=good
if [ $# -eq 3 ]; then
  [ "$3" = bug ] || usage
  variant=bug
fi
case $n in *[!0-9]* | '') usage ;; esac

src=$(cd "$(dirname "$0")" && pwd)/$model.pml
[ -f "$src" ] || {
  echo "check: no model $src" >&2
  exit 2
}
spin=${SPIN:-spin}
cc=${CC:-gcc}
work=${SPECS_WORK:-specs-work}/$model-n$n-$variant
rm -rf "$work"
mkdir -p "$work"
cp "$src" "$work/$model.pml"
cd "$work"

defs="-DN=$n ${SPECS_DEFS:-}"
[ $variant = bug ] && defs="$defs -DBUG"

fail() {
  echo "check: $model N=$n $variant: FAIL: $*" >&2
  exit 1
}

"$spin" $defs -a "$model.pml" >spin.out 2>&1 || {
  cat spin.out >&2
  fail "spin -a failed"
}
# -DVECTORSZ: room for the state vector; -DCOLLAPSE: compressed state
# storage (exact); -DMEMLIM: pan stops (and this check fails) past
# SPECS_MEMLIM MB. gcc -O2 takes 8 s on the largest pan.c and pays only
# for the large searches (the good models at N >= 3); -O0 takes 1 s.
# Bad variant: pan stops at the first error; at N = 2 a breadth-first
# search (-DBFS, safety only) makes it the shortest counterexample; at
# N = 3 a depth-first search that tries the highest process (the failure
# injector) first (-DREVERSE) finds one at once, where breadth-first or
# plain depth-first searches can take a minute.
ccdefs="-DCOLLAPSE -DVECTORSZ=2048 -DMEMLIM=${SPECS_MEMLIM:-1024}"
if [ $variant = bug ]; then
  if [ "$n" -le 2 ]; then
    ccdefs="$ccdefs -DBFS -DSAFETY"
  else
    ccdefs="$ccdefs -DREVERSE"
  fi
fi
opt=-O0
[ $variant = good ] && [ "$n" -ge 3 ] && opt=-O2
"$cc" $opt $ccdefs -w -o pan pan.c \
  >cc.out 2>&1 || {
  cat cc.out >&2
  fail "gcc pan.c failed"
}

props=$(sed -n 's/^ltl[[:space:]]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' \
  "$model.pml")
[ -n "$props" ] || fail "no ltl property in $model.pml"

found=0
for p in $props; do
  flags="-a"
  [ $variant = bug ] && [ "$n" -le 2 ] && flags=""
  # -m: maximum depth, far beyond these models' (checked below);
  # -w22: 2^22 hash slots.
  start=$(date +%s.%N)
  ./pan -m1000000 -w22 $flags -N "$p" >"pan-$p.out" 2>&1 || true
  end=$(date +%s.%N)
  out="pan-$p.out"
  grep -q "errors:" "$out" || {
    cat "$out" >&2
    fail "$p: pan did not finish"
  }
  errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$out" | head -n 1)
  stored=$(sed -n 's/^ *\([0-9e.+]*\) states, stored.*/\1/p' "$out" |
    head -n 1)
  trans=$(awk '/ transitions \(= / {t=$1}
    END {print t}' "$out")
  secs=$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.2f", b - a}')
  echo "$model N=$n $variant $p: errors $errors, states stored $stored," \
    "transitions $trans, $secs s"
  if [ $variant = good ]; then
    [ "$errors" = 0 ] || {
      cat "$out" >&2
      fail "$p: $errors error(s) in the good model"
    }
    if grep -qi "depth too small\|out of memory\|memory limit\|MEMLIM\|search not completed" \
      "$out"; then
      cat "$out" >&2
      fail "$p: search truncated"
    fi
  elif [ "$errors" != 0 ]; then
    [ -s "$model.pml.trail" ] || fail "$p: error reported but no trail"
    "$spin" $defs -t "$model.pml" >counterexample.txt 2>&1 ||
      fail "$p: the trail does not replay"
    "$spin" $defs -t -p -g -l "$model.pml" >counterexample-full.txt 2>&1 ||
      fail "$p: the trail does not replay"
    grep -q "trail ends after" counterexample.txt ||
      fail "$p: the trail does not replay to its end"
    echo "$model N=$n bug: refuted by $p; trail $work/$model.pml.trail," \
      "replay $work/counterexample.txt:"
    grep -m 1 "^pan:1:" "$out" || true
    found=1
    break
  fi
done

if [ $variant = bug ] && [ $found = 0 ]; then
  fail "the bad variant was not refuted"
fi
echo "check: $model N=$n $variant: ok"
