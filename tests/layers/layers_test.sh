#!/bin/sh
# Tests of tests/layers/layers.sh on tiny fake runtimes: a few .c files
# compiled here, a map of their layers, and the verdicts the check must give
# (a downward call passes, an upward one fails, the allowlist only shrinks,
# only the root's callers reach it, every file is mapped, the limits on
# cycles and statics hold).
#
# Usage: layers_test.sh LAYERS_SH CC
set -u
[ $# -eq 2 ] || { echo "usage: layers_test.sh LAYERS_SH CC" >&2; exit 2; }
layers=$1 cc=$2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/runtime/fam" "$tmp/src/fam"
failures=0

# obj NAME SOURCE: compiles SOURCE into runtime/NAME.o (NAME may be fam/x.c).
obj() {
  printf '%s\n' "$2" >"$tmp/src/$1"
  "$cc" -c -fPIC -o "$tmp/runtime/$1.o" "$tmp/src/$1" ||
    { echo "layers_test: cannot compile $1" >&2; exit 2; }
}

# expect STATUS TEXT NAME ARGS...: runs layers.sh ARGS, wants exit STATUS
# and TEXT (if not empty) in its output.
expect() {
  want=$1 text=$2 name=$3
  shift 3
  sh "$layers" "$@" >"$tmp/out" 2>&1
  got=$?
  if [ "$got" -ne "$want" ]; then
    echo "FAIL $name: exit $got, expected $want"
    sed 's/^/  | /' "$tmp/out"
    failures=$((failures + 1))
  elif [ -n "$text" ] && ! grep -qF -- "$text" "$tmp/out"; then
    echo "FAIL $name: no \"$text\" in"
    sed 's/^/  | /' "$tmp/out"
    failures=$((failures + 1))
  else
    echo "ok   $name"
  fi
}

cat >"$tmp/map" <<'EOF'
# a comment
0 root root.c
1 low  low.c
2 fam  fam/
3 top  top.c
root top.c
EOF
obj root.c 'int *ft_runtime(void); static int state; int *ft_runtime(void) { return &state; }'
obj low.c 'int low_f(int x); int low_f(int x) { return x + 1; }'
obj fam/a.c 'int low_f(int); int fam_f(int); int fam_g(int);
int fam_f(int x) { return low_f(x) + fam_g(x); }'
obj fam/b.c 'int fam_f(int); int fam_g(int); int fam_g(int x) { return x; }'
obj top.c 'int *ft_runtime(void); int fam_f(int); int top_f(void);
int top_f(void) { return fam_f(*ft_runtime()); }'
down="$tmp/runtime/root.c.o $tmp/runtime/low.c.o $tmp/runtime/fam/a.c.o $tmp/runtime/fam/b.c.o $tmp/runtime/top.c.o"
: >"$tmp/none"

# shellcheck disable=SC2086
expect 0 "layer violations 0" downward_calls_pass -m "$tmp/map" -a "$tmp/none" - - $down
# shellcheck disable=SC2086
expect 0 "statics in root.c: state" one_static_within_limit -m "$tmp/map" - 1 $down

# low.c calls up into the family: reported with both modules, fails.
obj low.c 'int low_f(int x); int fam_g(int); int low_f(int x) { return fam_g(x); }'
# shellcheck disable=SC2086
expect 1 "low.c -> fam/b.c : fam_g  [low (1) -> fam (2)]" upward_call_fails \
  -m "$tmp/map" -a "$tmp/none" - - $down
echo 'low.c -> fam/b.c : fam_g' >"$tmp/known"
# shellcheck disable=SC2086
expect 0 "layer violations 1 (known 1)" known_violation_passes \
  -m "$tmp/map" -a "$tmp/known" - - $down
obj low.c 'int low_f(int x); int fam_f(int); int low_f(int x) { return x ? fam_f(x - 1) : 0; }'
# shellcheck disable=SC2086
expect 1 "a cycle of 2 files, more than 1" cycle_past_the_limit_fails 1 - $down

# Fixed again: the allowlist's entry is stale, which fails too.
obj low.c 'int low_f(int x); int low_f(int x) { return x + 1; }'
# shellcheck disable=SC2086
expect 1 "remove from" stale_allowlist_entry_fails -m "$tmp/map" -a "$tmp/known" - - $down

# A weak reference (SMPI's mpi.h declares the MPI functions weak) counts.
obj low.c '__attribute__((weak)) int fam_g(int); int low_f(int x); int low_f(int x) { return fam_g(x); }'
# shellcheck disable=SC2086
expect 1 "low.c -> fam/b.c : fam_g" weak_upward_call_fails -m "$tmp/map" - - $down
obj low.c 'int low_f(int x); int low_f(int x) { return x + 1; }'

# A call between two modules of one level is not downward.
printf '0 root root.c\n1 low low.c\n1 fam fam/\n3 top top.c\nroot top.c\n' >"$tmp/flat"
# shellcheck disable=SC2086
expect 1 "fam/a.c -> low.c : low_f  [fam (1) -> low (1)]" same_level_call_fails \
  -m "$tmp/flat" - - $down

# Only the root's callers reach the root.
obj low.c 'int *ft_runtime(void); int low_f(int x); int low_f(int x) { return x + *ft_runtime(); }'
# shellcheck disable=SC2086
expect 1 "low.c -> root.c : ft_runtime  [low may not reach the root]" root_reached_from_below \
  -m "$tmp/map" - - $down
obj low.c 'int low_f(int x); int low_f(int x) { return x + 1; }'

# A file in no module, a malformed map: errors, before any verdict.
obj stray.c 'int low_f(int); int stray(void); int stray(void) { return low_f(1); }'
# shellcheck disable=SC2086
expect 2 "stray.c is in no module" unmapped_file_is_an_error -m "$tmp/map" - - $down "$tmp/runtime/stray.c.o"
printf 'root root.c\nlow low.c\n' >"$tmp/badmap"
# shellcheck disable=SC2086
expect 2 "badmap:2: expected" malformed_map_is_an_error -m "$tmp/badmap" - - $down

# The limits: a second mutable static.
obj low.c 'int low_f(int x); static int calls; int low_f(int x) { return x + calls++; }'
# shellcheck disable=SC2086
expect 1 "2 mutable statics, more than 1" second_static_fails -m "$tmp/map" - 1 $down

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "all passed"
