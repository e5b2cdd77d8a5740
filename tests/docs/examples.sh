#!/usr/bin/env bash
# Runs the example command blocks of markdown pages, so that they cannot go
# stale (issue 14, item 10).
#
#   examples.sh SOURCE_DIR BUILD_DIR PAGE...    (PAGE relative to SOURCE_DIR)
#
# Every ```sh block of a page is an example and runs as one bash script
# (set -e -o pipefail), in the page's order, in a scratch directory that
# looks like the source tree: `build` is BUILD_DIR, every other top-level
# entry of SOURCE_DIR a symbolic link to it, except `examples/`, copied
# (its programs are built in place). Blocks of one page share the scratch
# directory, so a block may use what an earlier one wrote.
#
# HTML comments before a block adjust it (one per line, any number):
#   <!-- test: skip REASON -->        do not run it (REASON is required)
#   <!-- test: replace OLD => NEW --> run it with the literal text OLD
#                                     replaced by NEW: the reduced form of a
#                                     long command; OLD must occur
#   <!-- test: before COMMAND -->     run COMMAND first (same directory)
#   <!-- test: in DIR -->             run it in DIR (relative to the
#                                     scratch directory), not at its top
#   <!-- test: file PATH -->          the next block, of any language, is
#                                     PATH's content (compared without
#                                     comments, blank lines and blanks at
#                                     the ends of lines); not run
# Any other comment starting with "test:" is an error. A block that would
# set up, build, install or run the suite (scripts/setup.sh,
# scripts/test.sh, apt-get, cmake, ninja, ctest) must be skipped: it would
# rebuild the build directory under the test's feet. Exit status: 0 every block passed, 1 one failed, 2 bad usage.
set -u -o pipefail

[ $# -ge 3 ] || { echo "usage: $0 SOURCE_DIR BUILD_DIR PAGE..." >&2; exit 2; }
src=$(cd "$1" && pwd) || exit 2
build=$(cd "$2" && pwd) || exit 2
shift 2

# CI runs as root, and Open MPI's mpirun refuses root without these (the
# README says so; ftsim run --real passes --allow-run-as-root itself).
if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/ftsim-docs.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT
# A measured run without a stored speed measures this machine's and stores
# it: in the scratch directory, not in the user's ~/.config.
export FTSIM_HOST_CONF=$scratch/host.conf
failures=0

# Lays out the scratch tree for one page.
setup_tree() {
  local tree=$1 entry name
  mkdir -p "$tree"
  ln -s "$build" "$tree/build"
  for entry in "$src"/*; do
    name=$(basename "$entry")
    case $name in
      build | build-*) ;;
      examples) cp -r "$entry" "$tree/examples" ;;
      *) ln -s "$entry" "$tree/$name" ;;
    esac
  done
}

# Splits PAGE into blocks under DIR: DIR/N.sh (the block), DIR/N.lang,
# DIR/N.line (its first line in the page), DIR/N.dirs (its directives).
split_page() {
  awk -v dir="$2" '
    function flush_dirs() { if (pending != "") printf "%s", pending > (dir "/" n ".dirs"); pending = "" }
    /^<!-- test:.*-->[ \t]*$/ && !inblock {
      d = $0; sub(/^<!-- test:[ \t]*/, "", d); sub(/[ \t]*-->[ \t]*$/, "", d)
      pending = pending d "\n"; next
    }
    /^```/ {
      if (!inblock) {
        inblock = 1; n++; lang = substr($0, 4)
        printf "%s\n", lang > (dir "/" n ".lang")
        printf "%d\n", NR + 1 > (dir "/" n ".line")
        printf "" > (dir "/" n ".sh")
        flush_dirs(); next
      }
      inblock = 0; close(dir "/" n ".sh"); next
    }
    inblock { print > (dir "/" n ".sh") }
    END { if (pending != "") { print "directives after the last block" > "/dev/stderr"; exit 1 } }
  ' "$1"
}

# Strips comments, blank lines and blanks at the ends of lines.
significant() { sed -e 's/#.*$//' -e 's/[ \t]*$//' -e 's/^[ \t]*//' "$1" | grep -v '^$'; }

# Reports a failure of block N of PAGE (line LINE) with MESSAGE.
fail() {
  echo "docs: FAILED: $1:$2: $3" >&2
  failures=$((failures + 1))
}

# Runs or checks one block; $1 page, $2 blocks dir, $3 block number,
# $4 scratch tree.
run_block() {
  local page=$1 dir=$2 n=$3 tree=$4 line lang text d key arg old new
  local skip="" cwd=$tree file="" before=()
  line=$(cat "$dir/$n.line")
  lang=$(cat "$dir/$n.lang")
  text=$(cat "$dir/$n.sh")
  if [ -f "$dir/$n.dirs" ]; then
    while IFS= read -r d; do
      key=${d%% *}
      arg=${d#"$key"}
      arg=${arg# }
      case $key in
        skip)
          [ -n "$arg" ] || { fail "$page" "$line" "'skip' needs a reason"; return; }
          skip=$arg ;;
        replace)
          case $arg in *" => "*) ;; *) fail "$page" "$line" "'replace' needs OLD => NEW"; return ;; esac
          old=${arg%% => *}
          new=${arg#* => }
          case $text in
            *"$old"*) text=${text//"$old"/"$new"} ;;
            *) fail "$page" "$line" "replace: '$old' is not in the block (the example changed: update its test directive)"; return ;;
          esac ;;
        before) before+=("$arg") ;;
        in) cwd=$tree/$arg ;;
        file) file=$arg ;;
        *) fail "$page" "$line" "unknown test directive '$key' (skip, replace, before, in, file)"; return ;;
      esac
    done <"$dir/$n.dirs"
  fi
  if [ -n "$file" ]; then
    if ! diff <(significant "$src/$file") <(printf '%s\n' "$text" | significant /dev/stdin) >"$dir/$n.diff"; then
      fail "$page" "$line" "the block is not $file (< the file, > the page):"
      cat "$dir/$n.diff" >&2
    else
      echo "docs: $page:$line: same as $file"
    fi
    return
  fi
  [ "$lang" = sh ] || return
  if [ -n "$skip" ]; then
    echo "docs: $page:$line: skipped: $skip"
    return
  fi
  if printf '%s\n' "$text" | grep -Eq '(^|[^a-z_])(scripts/(setup|test)\.sh|apt-get|cmake|ninja|ctest)( |$)'; then
    fail "$page" "$line" "the block sets up, builds, installs or runs the suite: give it '<!-- test: skip REASON -->'"
    return
  fi
  {
    echo 'set -e -o pipefail'
    for d in "${before[@]}"; do printf '%s\n' "$d"; done
    printf '%s\n' "$text"
  } >"$dir/$n.run"
  local t0=$SECONDS
  if ! (cd "$cwd" && timeout 120 bash "$dir/$n.run") >"$dir/$n.out" 2>&1; then
    fail "$page" "$line" "the block failed; it ran:"
    sed 's/^/  | /' "$dir/$n.run" >&2
    echo "  its output (last 30 lines):" >&2
    tail -n 30 "$dir/$n.out" | sed 's/^/  > /' >&2
    return
  fi
  echo "docs: $page:$line: ok ($((SECONDS - t0)) s)"
}

for page in "$@"; do
  [ -f "$src/$page" ] || { echo "docs: no page $src/$page" >&2; exit 2; }
  tree=$scratch/tree-$(echo "$page" | tr / _)
  dir=$scratch/blocks-$(echo "$page" | tr / _)
  mkdir -p "$dir"
  setup_tree "$tree"
  split_page "$src/$page" "$dir" || { fail "$page" 0 "cannot split"; continue; }
  n=1
  while [ -f "$dir/$n.sh" ]; do
    run_block "$page" "$dir" "$n" "$tree"
    n=$((n + 1))
  done
done
[ "$failures" -eq 0 ] || { echo "docs: $failures block(s) failed" >&2; exit 1; }
echo "docs: every example ran"
