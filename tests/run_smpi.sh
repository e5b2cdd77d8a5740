#!/bin/sh
# Runs an MPI program under smpirun and checks what it printed.
# Usage: run_smpi.sh PLATFORM NP SERVICE_RANKS EXPECT_REGEX PROGRAM [ARGS...]
#   Hosts: the first NP compute hosts of PLATFORM (names without "-service-"),
#   then SERVICE_RANKS service hosts. FTSIM_OPTIONS gets service_ranks=N
#   (plus whatever FTSIM_OPTIONS already held). Fails on a non-zero exit,
#   a deadlock (smpirun can exit 0 after one), output not matching
#   EXPECT_REGEX, or a summary that is not "verified":true.
set -u
platform=$1 np=$2 services=$3 expect=$4
shift 4
hosts=$(mktemp) out=$(mktemp)
trap 'rm -f "$hosts" "$out"' EXIT
# Host names in file order: <host id="..."> (the shipped platforms spell
# their clusters out, platforms/cluster_zone.sh), or a <cluster>'s prefix
# and radical range.
names=$(grep -o '<host id="[^"]*"\|prefix="[^"]*"\( suffix="[^"]*"\)\? radical="[^"]*"' "$platform" |
  sed 's/<host id="\([^"]*\)"/\1/;
       s/prefix="\([^"]*\)".* radical="\([0-9]*\)-\([0-9]*\)"/\1 \2 \3/' |
  while read -r p a b; do
    if [ -n "${a:-}" ]; then seq -f "$p%g" "$a" "$b"; else echo "$p"; fi
  done)
printf '%s\n' "$names" | grep -v -- '-service-' | head -n "$np" > "$hosts"
printf '%s\n' "$names" | grep -- '-service-' | head -n "$services" >> "$hosts"
opts="service_ranks=$services${FTSIM_OPTIONS:+,$FTSIM_OPTIONS}"
FTSIM_OPTIONS=$opts smpirun -np $((np + services)) -platform "$platform" \
  -hostfile "$hosts" --cfg=smpi/simulate-computation:no --cfg=smpi/grow-injected-times:no \
  --log=root.thres:warning "$@" > "$out" 2>&1
rc=$?
cat "$out"
[ $rc -eq 0 ] || { echo "run_smpi.sh: smpirun exited $rc"; exit 1; }
! grep -q 'Deadlock detected' "$out" || { echo "run_smpi.sh: deadlock"; exit 1; }
grep -Eq "$expect" "$out" || { echo "run_smpi.sh: no line matches '$expect'"; exit 1; }
grep -q '^FTSIM_SUMMARY .*"verified":true' "$out" ||
  { echo "run_smpi.sh: summary missing or not verified"; exit 1; }
