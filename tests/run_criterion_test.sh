#!/bin/sh
# Tests tests/run_criterion.sh with a fake test binary: a pass passes, a
# failure fails at once, one hang then a pass passes on the retry, three hangs
# fail, and a filter that ran nothing fails.
set -u
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export FTSIM_CRITERION_TIMEOUT=1
# The fake binary hangs while $dir/hangs holds a positive count, decrementing it.
cat >"$dir/bin" <<'FAKE'
#!/bin/sh
d=$(dirname "$0"); n=$(cat "$d/hangs")
if [ "$n" -gt 0 ]; then echo $((n - 1)) >"$d/hangs"; exec sleep 30; fi
case $(cat "$d/mode") in
pass) echo "[====] Synthesis: Tested: 1 | Passing: 1 | Failing: 0 | Crashing: 0" ;;
none) echo "[====] Synthesis: Tested: 0 | Passing: 0 | Failing: 0 | Crashing: 0" ;;
fail) echo "[====] Synthesis: Tested: 1 | Passing: 0 | Failing: 1 | Crashing: 0"; exit 1 ;;
esac
FAKE
chmod +x "$dir/bin"
status=0
check() { # expected (0: pass, 1: fail) hangs mode
  echo "$2" >"$dir/hangs"; echo "$3" >"$dir/mode"
  sh "$here/run_criterion.sh" "$dir/bin" s/t >/dev/null 2>&1; rc=$?
  ok=no
  [ "$1" = 0 ] && [ $rc -eq 0 ] && ok=yes
  [ "$1" != 0 ] && [ $rc -ne 0 ] && ok=yes
  if [ $ok = yes ]; then echo "ok: hangs=$2 mode=$3: exit $rc"
  else echo "FAIL: hangs=$2 mode=$3: exit $rc, expected $1"; status=1; fi
}
check 0 0 pass
check 1 0 fail
check 1 0 none
check 0 1 pass
check 0 2 pass
check 1 3 pass
exit $status
