#!/bin/sh
# Runs the fixed runs of runs.txt and compares their summaries with the
# recorded ones (summaries.txt), field for field: a change that should not
# change behaviour (issue 15's restructuring of the runtime) must leave
# every line identical. Each line: the run's name, `ftsim run`'s exit
# status, `ftsim check`'s verdict on its trace, and the JSON summary
# without "wall_s" (the machine's speed), "stack_gap" (the depth of the
# runtime's own frames at a restart: it moves when a struct on that path
# grows, as merging issue 15's replay decisions showed, by 16 bytes),
# "images_held" and "image_requests" (memory figures added after the
# recording).
#
# Usage: summaries.sh FTSIM [--record]
#   --record  rewrite summaries.txt from this build (after a change meant
#             to change behaviour; the diff goes in the commit)
set -u
ftsim=$1 record=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
out=$tmp/summaries.txt
: >"$out"
grep -v '^#' "$here/runs.txt" | while IFS='|' read -r name scenario args; do
  name=$(echo $name) scenario=$(echo $scenario)
  [ -n "$name" ] || continue
  set -- --trace "$tmp/trace"
  if [ "$scenario" != - ]; then
    printf "$scenario" >"$tmp/scenario.txt"
    set -- "$@" --scenario "$tmp/scenario.txt"
  fi
  # shellcheck disable=SC2086 # the arguments are words
  "$ftsim" run "$@" $args >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if "$ftsim" check "$tmp/trace" >"$tmp/check" 2>&1; then verdict=ok
  else verdict=fail; fi
  json=$(grep '^{' "$tmp/out" |
    sed 's/,"wall_s":[0-9.e+-]*//; s/,"stack_gap":[0-9]*//; s/,"images_held":[0-9]*//; s/,"image_requests":[0-9]*//')
  echo "$name exit=$rc check=$verdict $json" >>"$out"
  rm -f "$tmp"/trace*
done
if [ "$record" = --record ]; then
  cp "$out" "$here/summaries.txt"
  echo "summaries.sh: recorded $(wc -l <"$out") runs in $here/summaries.txt"
  exit 0
fi
if diff -u "$here/summaries.txt" "$out"; then
  echo "summaries.sh: $(wc -l <"$out") runs, every summary as recorded"
  exit 0
fi
echo "summaries.sh: the summaries above differ from tests/golden/summaries.txt" >&2
exit 1
