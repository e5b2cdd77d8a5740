#!/bin/sh
# A program's collectives replayed as they ran (issue 16, item 5): the
# runtime's own check program tests/runtime/coll_check (every collective,
# MPI_IN_PLACE, a non-commutative user operation, communicators) recorded
# on gige and replayed there must send the same messages and bytes. Before
# the recording kept an operation's commutativity, the replay reduced with
# MPI_BOR on a tree where the run had reduced in rank order (207 messages
# against 205); an MPI_IN_PLACE allgather(v) or alltoall(v, w) was recorded
# as sending nothing.
# Usage: replay_coll.sh FTSIM PROGRAM NP [PROGRAM ARGUMENTS...]
set -u
ftsim=$1 program=$2 np=$3
shift 3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "replay_coll.sh: $*"; exit 1; }
field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" "$2"; }
"$ftsim" record --platform gige --np "$np" --app "$program" -o "$dir/cc" \
  -- "$@" > "$dir/on" 2> "$dir/err" || { cat "$dir/err"; fail "record"; }
"$ftsim" run --replay "$dir/cc" --platform gige > "$dir/re" 2> "$dir/err"
rc=$?
[ $rc -eq 0 ] || { cat "$dir/re" "$dir/err"; fail "replay exited $rc"; }
cat "$dir/on" "$dir/re"
grep -q '"verified":true' "$dir/re" || fail "replay not verified"
for f in messages bytes; do
  [ "$(field $f "$dir/on")" = "$(field $f "$dir/re")" ] ||
    fail "$f: on-line $(field $f "$dir/on"), replay $(field $f "$dir/re")"
done
