#!/bin/sh
# The runtime's structure, read off its object files with nm (issue 15,
# "Explicit state"): which file calls which (A calls B when A uses a symbol B
# defines), the direction of those calls between the layers of a map, the
# files that reach the per-rank root, the cycles of the call graph (its
# strongly connected components of more than one file) and the mutable
# statics (file- or function-scope variables in .data or .bss: nm's local `d`
# and `b`, and global ones, `D`, `B`, `C`: a global flag is mutable state
# too), file by file. A const table of pointers (a protocol family's driver,
# driver.h) lands in .data.rel.ro in position-independent code, which nm also
# shows as `d` or `D`: it is read-only once relocated, so objdump's section
# names it and it is not counted. SMPI's mpi.h declares the MPI functions
# weak: a call of a wrapper is a weak reference (`w`) to a weak definition
# (`W`), counted like any other.
#
# Usage: layers.sh [-m MAP [-a ALLOWED]] MAX_CYCLE MAX_STATICS OBJECT...
#   -m MAP       the layers (tests/layers/runtime_layers.txt): lines
#                `LEVEL MODULE PATH...`, bottom to top, a PATH naming a file
#                (p2p.c) or, ending in /, a directory (message_logging/),
#                relative to sim/runtime; and one line `root PATH...`, the
#                only files that may call ft_runtime(). A call from a module
#                must go to a module of a lower LEVEL; every object must be
#                in the map.
#   -a ALLOWED   violations tolerated for now (known_violations.txt): lines
#                `A.c -> B.c : symbol` as printed below, # comments. The
#                check fails on a violation not in the list and on an entry
#                that no longer occurs (the list only shrinks).
#   MAX_CYCLE    fail if a cycle holds more files than this (- for no limit)
#   MAX_STATICS  fail if there are more mutable statics than this (-)
#   OBJECT       the runtime's objects (build/sim/CMakeFiles/
#                ftsim_runtime_smpi.dir/runtime/*.o and
#                runtime/message_logging/*.o); a file's name is its path
#                after the last runtime/ (message_logging/ml_ops.c).
# Each violation is printed as `A.c -> B.c : symbol  [module -> module]`.
# The limits are a ratchet: lower them as the runtime is restructured; a
# change that raises one says why in its commit.
set -u
usage() {
  echo "usage: layers.sh [-m MAP [-a ALLOWED]] MAX_CYCLE MAX_STATICS OBJECT..." >&2
  exit 2
}
map='' allowed=''
while getopts m:a: opt; do
  case $opt in
  m) map=$OPTARG ;;
  a) allowed=$OPTARG ;;
  *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 3 ] || usage
[ -z "$allowed" ] || [ -n "$map" ] || usage
for f in $map $allowed; do
  [ -f "$f" ] || { echo "layers.sh: no file $f" >&2; exit 2; }
done
max_cycle=$1 max_statics=$2
shift 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
for o in "$@"; do
  [ -f "$o" ] || { echo "layers.sh: no object $o" >&2; exit 2; }
  case $o in
  */runtime/*) f=$(echo "$o" | sed 's|.*/runtime/||; s|\.o$||') ;;
  *) f=$(basename "$o" .o) ;;
  esac
  objdump -t "$o" | awk '$4 ~ /^\.data\.rel\.ro/ { print $NF }' >"$tmp/ro"
  nm "$o" | awk -v f="$f" '
    FILENAME != "-" { ro[$1] = 1; next }
    $1 ~ /^[Uwv]$/ { print "use", f, $2; next }
    $2 ~ /^[DBC]$/ && ($3 in ro) { print "def", f, $3; next }
    $2 ~ /^[DBC]$/ { print "def", f, $3; print "static", f, $3; next }
    $2 ~ /^[TRWV]$/ { print "def", f, $3; next }
    $2 ~ /^[db]$/ && !($3 in ro) { print "static", f, $3 }' "$tmp/ro" -
done >"$tmp/syms"
# The call edges, one per (caller file, callee file, symbol).
awk '
  $1 == "def" { owner[$3] = $2 }
  $1 == "use" { uses[++n] = $2 " " $3 }
  END {
    for (i = 1; i <= n; i++) {
      split(uses[i], p, " ")
      if ((p[2] in owner) && owner[p[2]] != p[1])
        print p[1], owner[p[2]], p[2]
    }
  }' "$tmp/syms" | sort -u >"$tmp/edges"
awk '
  $1 == "def" || $1 == "use" { files[$2] = 1 }
  $1 == "static" { statics[$2] = statics[$2] " " $3; nstat++ }
  FILENAME != ARGV[1] { edge[$1, $2] = 1 }
  END {
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
  }' "$tmp/syms" "$tmp/edges" | sort >"$tmp/report"
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
[ -n "$map" ] || exit $status

# The direction: every edge between modules goes to a lower level, and only
# the root's callers call ft_runtime.
awk '{ print $1 }' "$tmp/edges" >"$tmp/files"
awk '{ print $2 }' "$tmp/edges" >>"$tmp/files"
awk '$1 == "def" || $1 == "use" { print $2 }' "$tmp/syms" >>"$tmp/files"
sort -u "$tmp/files" -o "$tmp/files"
awk -v mapfile="$map" '
  function module_of(f,   i, p) {
    if (f in exact) return exact[f]
    for (i = 1; i <= ndirs; i++) {
      p = dirs[i]
      if (substr(f, 1, length(p)) == p) return dirmod[i]
    }
    return ""
  }
  FILENAME == mapfile {
    sub(/#.*/, "")
    if (NF == 0) next
    if ($1 == "root") { for (i = 2; i <= NF; i++) root[$i] = 1; next }
    if ($1 !~ /^[0-9]+$/ || NF < 3) {
      printf "layers.sh: %s:%d: expected `LEVEL MODULE PATH...` or `root PATH...`\n",
             mapfile, FNR > "/dev/stderr"
      bad = 1; exit
    }
    if ($2 in level) {
      printf "layers.sh: %s:%d: module %s named twice\n", mapfile, FNR, $2 > "/dev/stderr"
      bad = 1; exit
    }
    level[$2] = $1 + 0
    for (i = 3; i <= NF; i++)
      if ($i ~ /\/$/) { dirs[++ndirs] = $i; dirmod[ndirs] = $2 }
      else exact[$i] = $2
    next
  }
  FILENAME ~ /files$/ {
    if (module_of($1) == "") {
      printf "layers.sh: %s is in no module of %s\n", $1, mapfile > "/dev/stderr"
      bad = 1
    }
    next
  }
  {
    a = module_of($1); b = module_of($2)
    if (a == "" || b == "") next
    if ($3 == "ft_runtime" && !($1 in root))
      printf "%s -> %s : %s  [%s may not reach the root]\n", $1, $2, $3, a
    else if (a != b && level[b] >= level[a])
      printf "%s -> %s : %s  [%s (%d) -> %s (%d)]\n", $1, $2, $3, a, level[a], b, level[b]
  }
  END { if (bad) exit 2 }' "$map" "$tmp/files" "$tmp/edges" >"$tmp/violations" || exit 2
sed 's/  \[.*//' "$tmp/violations" | sort -u >"$tmp/found"
if [ -n "$allowed" ]; then
  sed 's/#.*//; s/[[:space:]]*$//; /^$/d' "$allowed" | sort -u >"$tmp/known"
else
  : >"$tmp/known"
fi
n=$(wc -l <"$tmp/found")
echo "layer violations $n (known $(wc -l <"$tmp/known"))"
comm -23 "$tmp/found" "$tmp/known" >"$tmp/new"
comm -13 "$tmp/found" "$tmp/known" >"$tmp/gone"
if [ -s "$tmp/new" ]; then
  echo "layers.sh: calls against the layers of $map:" >&2
  grep -F -f "$tmp/new" "$tmp/violations" | sed 's/^/  /' >&2
  status=1
fi
if [ -s "$tmp/gone" ]; then
  echo "layers.sh: no longer there, remove from ${allowed:-the list}:" >&2
  sed 's/^/  /' "$tmp/gone" >&2
  status=1
fi
exit $status
