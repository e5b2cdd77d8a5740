#!/usr/bin/env bash
# Checks that what a page names in backquotes exists (issue 15, item 5):
#   - a path (a word with a "/" or a file name ending in .c .h .md .txt .sh
#     .pml .json .xml .cmake .in), relative to the top of the source tree,
#     or, when it starts with build/, to BUILD_DIR; globs (ml_*.c) must
#     match a file; a word with a "/" that is no file may be a ctest name
#     of BUILD_DIR (`docs/readme_tables`, or a glob: `check/bug_*`);
#   - a C name of ftsim (ft_..., FT_..., FTSIM_..., with or without "()",
#     "struct " or "enum " before it) or a function written `name()`: it
#     must occur as a whole word in the sources (protocols/ sim/ tests/
#     cmake/ specs/ and the CMakeLists.txt files; not tests/docs/, which
#     names wrong ones on purpose).
# Words with NAME in them (`protocols/NAME/NAME.c`) are what the reader
# creates, and skipped; so are fenced code blocks.
#
#   paths.sh SOURCE_DIR BUILD_DIR PAGE...
#
# Prints one line per missing name, "PAGE:LINE: `WORD`: no such file" or
# "...: not in the sources", then "paths: N names checked, M missing" and
# the missing words. Exit status: 0 every name exists,
# 1 one does not, 2 bad usage.
set -u -o pipefail

[ $# -ge 3 ] || { echo "usage: $0 SOURCE_DIR BUILD_DIR PAGE..." >&2; exit 2; }
src=$1 build=$2
shift 2
cd "$src" || exit 2

# The backquoted words of a page outside fenced blocks: "LINE<TAB>WORD"
# (a span over two lines is one word, joined by a space).
words() {
  awk '
    /^[ \t]*```/ { fenced = !fenced; next }
    fenced { next }
    {
      # A code span may go on over the next line: carry its start.
      if (carry != "") { line = carry " " $0; at = carry_at }
      else { line = $0; at = NR }
      carry = ""
      while (match(line, /`[^`]+`/)) {
        print at "\t" substr(line, RSTART + 1, RLENGTH - 2)
        line = substr(line, RSTART + RLENGTH)
        at = NR
      }
      if (index(line, "`")) { carry = substr(line, index(line, "`")); carry_at = NR }
    }' "$1"
}

is_path() {
  case $1 in
    *" "* | *"|"* | -* | *"="* | *"("* | *"{"* | *"<"* | *">"* | http*) return 1 ;;
    */* | *.c | *.h | *.md | *.txt | *.sh | *.pml | *.json | *.xml | *.cmake | *.in) return 0 ;;
  esac
  return 1
}

# A C name: ft_x, FT_X, FTSIM_X, optionally `struct `/`enum ` before and
# `()` after; or any identifier followed by `()`.
c_name() {
  local w=${1#struct } w2
  w=${w#enum }
  w2=${w%"()"}
  if [[ $w2 =~ ^(ft|FT|FTSIM)_[A-Za-z0-9_]+$ ]] ||
     { [ "$w2" != "$w" ] && [[ $w2 =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]]; }; then
    echo "$w2"
  fi
}

exists_path() {
  local p=$1 base=.
  case $p in
    build/*) base=$build p=${p#build/} ;;
  esac
  p=${p%/}
  compgen -G "$base/$p" >/dev/null
}

in_sources() {
  grep -rqw --include='*.c' --include='*.h' --include='*.txt' \
    --include='*.cmake' --include='*.sh' --include='*.pml' --include='*.in' \
    --exclude-dir=docs -e "$1" protocols sim tests cmake specs CMakeLists.txt \
    2>/dev/null
}

# The ctest names of BUILD_DIR, one a line.
tests=$(ctest --test-dir "$build" -N 2>/dev/null | sed -n 's/^ *Test *#[0-9]*: //p')
is_test() {
  local t
  while IFS= read -r t; do
    # shellcheck disable=SC2053 # the word is a glob
    [[ $t == $1 ]] && return 0
  done <<<"$tests"
  return 1
}

missing=0 checked=0 gone=
for page in "$@"; do
  [ -f "$page" ] || { echo "paths: no page $page" >&2; exit 2; }
  while IFS=$'\t' read -r line word; do
    case $word in *NAME*) continue ;; esac
    if is_path "$word"; then
      checked=$((checked + 1))
      exists_path "$word" || is_test "$word" ||
        { echo "$page:$line: \`$word\`: no such file"; missing=$((missing + 1)); gone="$gone $word"; }
    else
      name=$(c_name "$word")
      [ -n "$name" ] || continue
      checked=$((checked + 1))
      in_sources "$name" ||
        { echo "$page:$line: \`$word\`: not in the sources"; missing=$((missing + 1)); gone="$gone $word"; }
    fi
  done < <(words "$page")
done
echo "paths: $checked names checked, $missing missing${gone:+:$gone}"
[ $missing -eq 0 ]
