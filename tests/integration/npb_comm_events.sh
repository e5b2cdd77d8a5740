#!/bin/sh
# npb_comm_events.sh FTSIM APP: APP (mg or cg) with --npb-comm, 4 ranks of
# gige under the pessimist, traced. pessimist-openmpi-v, Table I and 4.2:
# NAS CG logs no event; in NAS MG "the only non-deterministic events are
# any source messages; there are no non-deterministic deliveries or
# probes". So cg must log 0 events, and mg at least one, every one of them
# a MATCH (kind 1, FT_LOGGED_MATCH in protocols/ft_protocol.h: a wildcard
# receive matched), as many as the summary's events_logged. Before
# --npb-comm, mg logged a MATCH and two COMPLETIONs (Waitsome, Testall) per
# face and cg 0.44 COMPLETIONs (Testsome, Waitany) per message.
set -u
ftsim=$1 app=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/npb_comm.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "npb_comm_events.sh ($app): $*"; exit 1; }
"$ftsim" run --platform gige --np 4 --app "$app" --protocol pessimist \
  --trace "$dir/t" -- --npb-comm >"$dir/out" 2>"$dir/err" ||
  { tail -n 5 "$dir/err"; fail "ftsim run exited $?"; }
line=$(tail -n 1 "$dir/out")
echo "$line"
case $line in *'"verified":true'*) ;; *) fail "not verified" ;; esac
logged=$(echo "$line" | sed -n 's/.*"events_logged":\([0-9]*\).*/\1/p')
kinds=$(cat "$dir"/t.* | awk '!/^#/ && $4 == "nd" { n[$6]++ }
  END { for (k in n) printf "%s:%d ", k, n[k] }')
matches=$(cat "$dir"/t.* | awk '!/^#/ && $4 == "nd" && $6 == 1' | wc -l)
echo "events_logged $logged; nd events by kind: ${kinds:-none}"
if [ "$app" = cg ]; then
  [ "$logged" = 0 ] || fail "cg logged $logged events, NAS CG none"
  exit 0
fi
[ "${logged:-0}" -gt 0 ] || fail "mg logged no event"
[ "$kinds" = "1:$matches " ] || fail "events other than MATCH: $kinds"
[ "$matches" = "$logged" ] || fail "$matches MATCH events traced, $logged logged"
