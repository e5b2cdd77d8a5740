#!/bin/sh
# Runs a command and checks its exit status and what it printed.
# Usage: check.sh STATUS [CHECK...] -- COMMAND [ARGS...]
# CHECK is one of
#   out:TEXT   stdout contains TEXT (fixed string)
#   err:TEXT   stderr contains TEXT
#   !out:TEXT  stdout does not contain TEXT
#   !err:TEXT  stderr does not contain TEXT
#   lines:N    stdout has exactly N lines
# Both outputs are shown, so that a failing test explains itself.
want=$1
shift
checks=
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  checks="$checks$1
"
  shift
done
[ "$1" = "--" ] || { echo "check.sh: missing -- before the command" >&2; exit 2; }
shift

dir=$(mktemp -d "${TMPDIR:-/tmp}/ftsim-check-XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
"$@" >"$dir/out" 2>"$dir/err"
got=$?
echo "--- command: $*"
echo "--- stdout:"; cat "$dir/out"
echo "--- stderr:"; cat "$dir/err"
echo "--- exit status: $got"

fail=0
if [ "$got" != "$want" ]; then
  echo "FAIL: exit status $got, expected $want"
  fail=1
fi
# One check per line of $checks (a check may contain spaces).
while IFS= read -r c; do
  [ -n "$c" ] || continue
  case $c in
    out:*) grep -qF -- "${c#out:}" "$dir/out" || { echo "FAIL: stdout lacks: ${c#out:}"; fail=1; } ;;
    err:*) grep -qF -- "${c#err:}" "$dir/err" || { echo "FAIL: stderr lacks: ${c#err:}"; fail=1; } ;;
    !out:*) ! grep -qF -- "${c#!out:}" "$dir/out" || { echo "FAIL: stdout has: ${c#!out:}"; fail=1; } ;;
    !err:*) ! grep -qF -- "${c#!err:}" "$dir/err" || { echo "FAIL: stderr has: ${c#!err:}"; fail=1; } ;;
    lines:*) n=$(wc -l <"$dir/out" | tr -d ' ')
             [ "$n" = "${c#lines:}" ] || { echo "FAIL: stdout has $n lines, expected ${c#lines:}"; fail=1; } ;;
    *) echo "check.sh: unknown check '$c'"; fail=1 ;;
  esac
done <<EOF_CHECKS
$checks
EOF_CHECKS
[ $fail -eq 0 ] && echo "PASS"
exit $fail
