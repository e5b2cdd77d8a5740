#!/bin/sh
# A failed rank stops at its failure time (README, "The failure model"),
# one case per ctest entry: compute_PROTO replays a two-rank SimGrid TI
# trace whose rank 0 computes 0.1 s (2e8 flops at gige's 2 Gf) from about
# 0.2 ms on, and fails at 0.02 s, in the middle of that computation. The run
# must exit 0, verified, `ftsim check` ok (its after-failure rule: no
# record of rank 0 between 0.02 s and its replacement), and complete before
# 0.16 s: the computation ended at the failure (restart at 0.024 s, then
# 0.1 s again: about 0.126 s); before, rank 0 computed on to 0.1 s, sent
# its message after its failure, and the run ended after 0.2 s.
# Usage: fail_at_time.sh FTSIM CASE
set -u
ftsim=$1 case=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "fail_at_time.sh $case: $*"; exit 1; }
field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" "$2"; }
case $case in
compute_*) p=${case#compute_} ;;
*) fail "unknown case" ;;
esac
for r in 0 1; do
  q=$((1 - r)) flops=1e6
  [ $r = 0 ] && flops=2e8
  printf '%s init\n%s compute 1e6\n%s irecv %s 0 1024\n%s isend %s 0 1024\n' \
    $r $r $r $q $r $q
  printf '%s waitall 2\n%s compute %s\n%s isend %s 1 1024\n' $r $r $flops $r $q
  printf '%s irecv %s 1 1024\n%s waitall 2\n%s allreduce 1 0 0\n' $r $q $r $r
  printf '%s finalize\n' $r
done > "$dir/long.ti"
printf 'detection 0.001\nrestart 0.003\nfail 0 at 0.02\n' > "$dir/sc.txt"
"$ftsim" run --replay "$dir/long.ti" --platform gige --protocol "$p" \
  --set period=0.01 --scenario "$dir/sc.txt" --trace "$dir/t" \
  > "$dir/out" 2> "$dir/err" || { cat "$dir/out" "$dir/err"; fail "exit $?"; }
cat "$dir/out"
grep -q '"verified":true' "$dir/out" || fail "not verified"
[ "$(field failures "$dir/out")" = 1 ] || fail "not one failure"
"$ftsim" check "$dir/t" > "$dir/check" 2>&1 ||
  { cat "$dir/check"; fail "ftsim check rejects the trace"; }
t=$(field completion_time_s "$dir/out")
awk -v t="$t" 'BEGIN { exit !(t < 0.16) }' ||
  fail "completed at $t s: the computation went on after the failure"
echo "fail_at_time.sh $case: ok (completed at $t s)"
