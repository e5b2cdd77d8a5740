#!/bin/sh
# The runtime's structure, read off its object files with nm (issue 15,
# "Explicit state"): which file calls which (A calls B when A uses a symbol B
# defines), the cycles of that graph (its strongly connected components of
# more than one file), and the mutable statics (file- or function-scope
# variables in .data or .bss: nm's local `d` and `b`, and global ones, `D`,
# `B`, `C`: a global flag is mutable state too), file by file. A const table
# of pointers (a protocol family's driver, driver.h) lands in .data.rel.ro
# in position-independent code, which nm also shows as `d` or `D`: it is
# read-only once relocated, so objdump's section names it and it is not
# counted.
#
# Usage: layers.sh MAX_CYCLE MAX_STATICS OBJECT...
#   MAX_CYCLE    fail if a cycle holds more files than this (- for no limit)
#   MAX_STATICS  fail if there are more mutable statics than this (-)
#   OBJECT       the runtime's objects (build/sim/CMakeFiles/
#                ftsim_runtime_smpi.dir/runtime/*.o and
#                runtime/message_logging/*.o)
# The limits are a ratchet: lower them as the runtime is restructured; a
# change that raises one says why in its commit.
set -u
[ $# -ge 3 ] || { echo "usage: layers.sh MAX_CYCLE MAX_STATICS OBJECT..." >&2; exit 2; }
max_cycle=$1 max_statics=$2
shift 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
for o in "$@"; do
  [ -f "$o" ] || { echo "layers.sh: no object $o" >&2; exit 2; }
  f=$(basename "$o" .o)
  objdump -t "$o" | awk '$4 ~ /^\.data\.rel\.ro/ { print $NF }' >"$tmp/ro"
  nm "$o" | awk -v f="$f" '
    FILENAME != "-" { ro[$1] = 1; next }
    $1 == "U" { print "use", f, $2; next }
    $2 ~ /^[DBC]$/ && ($3 in ro) { print "def", f, $3; next }
    $2 ~ /^[DBC]$/ { print "def", f, $3; print "static", f, $3; next }
    $2 ~ /^[TR]$/ { print "def", f, $3; next }
    $2 ~ /^[db]$/ && !($3 in ro) { print "static", f, $3 }' "$tmp/ro" -
done >"$tmp/syms"
awk '
  $1 == "def" { owner[$3] = $2; files[$2] = 1 }
  $1 == "use" { uses[++n] = $2 " " $3; files[$2] = 1 }
  $1 == "static" { statics[$2] = statics[$2] " " $3; nstat++ }
  END {
    for (i = 1; i <= n; i++) {
      split(uses[i], p, " ")
      if ((p[2] in owner) && owner[p[2]] != p[1]) edge[p[1], owner[p[2]]] = 1
    }
    m = 0
    for (f in files) name[++m] = f
    # transitive closure (Warshall): reach[a, b] when a calls b, maybe via others
    for (a = 1; a <= m; a++) for (b = 1; b <= m; b++)
      reach[a, b] = ((name[a], name[b]) in edge)
    for (k = 1; k <= m; k++) for (a = 1; a <= m; a++) if (reach[a, k])
      for (b = 1; b <= m; b++) if (reach[k, b]) reach[a, b] = 1
    largest = 0
    for (a = 1; a <= m; a++) {
      if (done[a]) continue
      members = name[a]; size = 1
      for (b = a + 1; b <= m; b++)
        if (!done[b] && reach[a, b] && reach[b, a]) {
          members = members " " name[b]; size++; done[b] = 1
        }
      if (size > 1) printf "cycle of %d files: %s\n", size, members
      if (size > largest) largest = size
    }
    for (f in statics) printf "statics in %s:%s\n", f, statics[f]
    printf "files %d, largest cycle %d, mutable statics %d\n", m, largest, nstat
  }' "$tmp/syms" | sort >"$tmp/report"
cat "$tmp/report"
summary=$(grep '^files ' "$tmp/report")
largest=$(echo "$summary" | sed 's/.*largest cycle \([0-9]*\),.*/\1/')
statics=$(echo "$summary" | sed 's/.*mutable statics \([0-9]*\)$/\1/')
status=0
if [ "$max_cycle" != - ] && [ "$largest" -gt "$max_cycle" ]; then
  echo "layers.sh: a cycle of $largest files, more than $max_cycle" >&2
  status=1
fi
if [ "$max_statics" != - ] && [ "$statics" -gt "$max_statics" ]; then
  echo "layers.sh: $statics mutable statics, more than $max_statics" >&2
  status=1
fi
exit $status
