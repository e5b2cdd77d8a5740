#!/bin/sh
# A thousand failures cost no more memory than ten (issue 13, defect 2:
# pessimist died with SIGSEGV after ~476 failures, its stack gap growing by
# a life per restart; every protocol kept the heap of each abandoned life;
# pcl and vcl, whose abandoned sends and receives were left pending, until
# a rollback settled them).
#
# Runs cg on 4 ranks under PROTOCOL with 'seed 5 / exponential 0.0016 /
# max_failures N' for N = 10 and N = 1000. Both runs must exit 0, say
# "verified":true and count N failures; the application heap held at the
# most by one rank (app_heap_peak) and the deepest stack gap (stack_gap)
# after 1000 failures must stay within twice their values after 10, and
# heap must have been freed (app_heap_released > 0), so that the check
# cannot pass by tracking nothing.
#
# Usage: many_failures.sh FTSIM PROTOCOL
set -u
ftsim=$1 protocol=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

field() { # field NAME JSONLINE
  printf '%s\n' "$2" | sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p"
}

run() { # run N: prints the summary line, or fails
  printf 'seed 5\nexponential 0.0016\nmax_failures %s\n' "$1" >"$tmp/s$1.txt"
  "$ftsim" run --np 4 --app cg --protocol "$protocol" \
    --scenario "$tmp/s$1.txt" >"$tmp/out$1" 2>"$tmp/err$1"
  rc=$?
  line=$(grep '^{' "$tmp/out$1")
  if [ $rc -ne 0 ] || [ "$(field verified "$line")" != true ] ||
    [ "$(field failures "$line")" != "$1" ]; then
    tail -n 20 "$tmp/err$1"
    echo "many_failures: $protocol, $1 failures: exit $rc, summary: $line"
    exit 1
  fi
  printf '%s\n' "$line"
}

few=$(run 10) || { echo "$few"; exit 1; }
many=$(run 1000) || { echo "$many"; exit 1; }
echo "10 failures:   $few"
echo "1000 failures: $many"
status=0
for f in app_heap_peak stack_gap; do
  a=$(field $f "$few") b=$(field $f "$many")
  echo "$f: $a after 10 failures, $b after 1000"
  [ "$b" -le $((2 * a)) ] ||
    { echo "many_failures: $f grew from $a to $b"; status=1; }
done
[ "$(field app_heap_peak "$many")" -gt 0 ] &&
  [ "$(field app_heap_released "$many")" -gt 0 ] ||
  { echo "many_failures: no application heap tracked or freed"; status=1; }
exit $status
