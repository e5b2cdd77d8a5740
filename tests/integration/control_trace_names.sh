#!/bin/sh
# FTSIM_TRACE_CONTROL names every control message's kind (issue 15, item 3):
# a short run of PROTOCOL through one failure must succeed, print control
# lines, name the kinds FAMILY_KIND (one of the family's own, from its
# driver's wire_name) and GENERIC_KIND (control.c's), and print no kind by
# number, nor an unknown one.
#
# Usage: control_trace_names.sh FTSIM PROTOCOL FAMILY_KIND GENERIC_KIND
set -u
[ $# -eq 4 ] || { echo "usage: control_trace_names.sh FTSIM PROTOCOL FAMILY_KIND GENERIC_KIND" >&2; exit 2; }
ftsim=$1 protocol=$2 family=$3 generic=$4
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
if ! FTSIM_TRACE_CONTROL=1 "$ftsim" run --platform gige --np 2 --app pingpong \
  --protocol "$protocol" --set period=0.01 --scenario one-failure \
  >"$tmp/out" 2>"$tmp/err"; then
  echo "control_trace_names: the $protocol run failed"
  tail -n 5 "$tmp/out" "$tmp/err"
  exit 1
fi
# "[time] rank dir peer: kind NAME wave W inc I value V" (control.h)
grep '^\[[0-9.]*\] [0-9]* [<>] [0-9]*: kind ' "$tmp/err" >"$tmp/lines"
lines=$(wc -l <"$tmp/lines")
kinds=$(awk '{ for (i = 1; i < NF; i++) if ($i == "kind") print $(i + 1) }' \
  "$tmp/lines" | sort | uniq -c | tr -s ' \n' '  ')
echo "control_trace_names: $protocol: $lines control lines, kinds:$kinds"
status=0
[ "$lines" -gt 0 ] || { echo "no control line"; status=1; }
for k in "$family" "$generic"; do
  grep -q ": kind $k wave " "$tmp/lines" || { echo "no kind $k"; status=1; }
done
bad=$(grep -v ': kind [A-Za-z][A-Za-z_-]* wave ' "$tmp/lines" | head -n 3)
[ -z "$bad" ] || { echo "kinds not named:"; echo "$bad"; status=1; }
! grep -q 'unknown kind' "$tmp/lines" || { echo "an unknown kind"; status=1; }
exit $status
