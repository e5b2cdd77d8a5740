#!/usr/bin/env bash
# Checks the README's exact tables against what the code says, and that
# the relative links of the README and docs/ name files that exist (issue 14,
# item 10): the names in a table's first column must be exactly the ones
# the program prints, no more, no fewer.
#
#   tables.sh SOURCE_DIR BUILD_DIR
#
# Each table is found as the first table after a sentence of the README;
# a sentence that is gone is a failure (update this script with the text).
# Exit status: 0 every table agrees, 1 one does not, 2 bad usage.
set -u -o pipefail

[ $# -eq 2 ] || { echo "usage: $0 SOURCE_DIR BUILD_DIR" >&2; exit 2; }
readme=$1/README.md
ftsim=$2/ftsim
[ -f "$readme" ] && [ -x "$ftsim" ] || { echo "tables: no $readme or $ftsim" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ftsim-tables.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
failures=0

# Prints the first cells of the first table after the line of README.md
# that contains ANCHOR (a fixed string), header and rule excluded.
first_column() {
  awk -v anchor="$1" '
    !found && index($0, anchor) { found = 1; next }
    found && /^\|/ { intable = 1; rows++; if (rows > 2) { split($0, c, "|"); print c[2] } next }
    found && intable { exit }
    END { if (!found) exit 3 }
  ' "$readme"
}

# The backticked names of a first column, one per line, sorted: `a`, `b` -> a b.
names() { grep -o '`[^`]*`' | tr -d '`' | sort -u; }

# Compares the README's list (file $2) with the program's (file $3) for
# table $1; prints both differences.
compare() {
  if [ ! -s "$2" ]; then
    echo "tables: FAILED: $1: no table found after its sentence in README.md" >&2
    failures=$((failures + 1))
  elif ! diff "$2" "$3" >"$work/diff"; then
    echo "tables: FAILED: $1: the README (<) and the program (>) differ:" >&2
    sed 's/^/  /' "$work/diff" >&2
    failures=$((failures + 1))
  else
    echo "tables: $1: $(wc -l <"$2") entries agree"
  fi
}

# The summary line's fields: README's table and a real run's JSON line,
# with the fields only a replay checkpointing at any MPI call prints (its
# row says "only in a replay that checkpoints at any MPI call") from one,
# and those only a run with disks prints (storage other than network).
first_column 'The summary line has these fields' | names >"$work/summary.readme"
fields() { tail -n 1 | grep -o '"[a-z_0-9]*":' | tr -d '":'; }
"$ftsim" run --np 2 -- --iters 3 2>/dev/null | fields >"$work/fields"
"$ftsim" record --np 2 --app ring -o "$work/ring" >/dev/null 2>&1 &&
  "$ftsim" run --replay "$work/ring" --protocol pcl 2>/dev/null | fields |
  grep -E '^(ckpt_calls|ckpt_in_flight|deferred_msgs|queued_msgs)$' >>"$work/fields"
# ... and the on-line drain's field, printed under bookmark (its row says
# "only under bookmark on-line").
"$ftsim" run --np 2 --platform gige --protocol bookmark -- --iters 3 \
  2>/dev/null | fields | grep -E '^drained_msgs$' >>"$work/fields"
# ... and the storage fields, printed when storage is not `network`.
"$ftsim" run --np 2 --platform gige --protocol pcl --set storage=local \
  -- --iters 3 2>/dev/null | fields |
  grep -E '^(storage|ckpt_write_s|restart_read_s)$' >>"$work/fields"
# ... and the kill fields, printed under failure=kill (reference mode; a
# run with no scenario: nothing is killed). Without a real MPI (ftsim
# built without one: no summary) they cannot be printed: the README's
# names stand (e2e/real_kill_* test them).
"$ftsim" run --real --np 2 --app ring --protocol pcl --set failure=kill \
  --set ckpt_dir="$work/ckpt" 2>/dev/null | fields >"$work/kill"
if [ -s "$work/kill" ]; then
  grep -E '^(failure|relaunches|restart_s)$' "$work/kill" >>"$work/fields"
else
  printf 'failure\nrelaunches\nrestart_s\n' >>"$work/fields"
fi
sort -u "$work/fields" >"$work/summary.code"
compare 'summary fields (ftsim run)' "$work/summary.readme" "$work/summary.code"

# ftsim run's exit statuses: README's table and `ftsim run --help`.
first_column 'documents every option, the placement of ranks on' | tr -d ' ' |
  sort -u >"$work/exit.readme"
"$ftsim" run --help | sed -n '/^Exit status:/,$p' | grep -Eo '^  [0-9]+ ' | tr -d ' ' |
  sort -u >"$work/exit.code"
compare 'exit status (ftsim run)' "$work/exit.readme" "$work/exit.code"

# The runtime options: README's table and the parser's list of keys.
first_column 'The runtime reads `FTSIM_OPTIONS=' | names >"$work/options.readme"
"$ftsim" run --set ftsim_docs_no_such_key=1 --dry-run 2>&1 |
  sed -n 's/.*(known: \(.*\))$/\1/p' | tr -d ' ' | tr , '\n' | sort -u >"$work/options.code"
compare 'runtime options (FTSIM_OPTIONS)' "$work/options.readme" "$work/options.code"

# ftsim soak's options: README's table and `ftsim soak --help`.
first_column 'A progress line comes every `--progress` runs' | names |
  sed 's/ .*//' | sort -u >"$work/soak.readme"
"$ftsim" soak --help | grep -Eo '^  --[a-z-]+' | tr -d ' ' | sort -u >"$work/soak.code"
compare 'options (ftsim soak)' "$work/soak.readme" "$work/soak.code"

# ftsim check's exit statuses: README's table and `ftsim check --help`.
first_column 'ftsim check --summary LINE TRACE` also compares' | tr -d ' ' |
  sort -u >"$work/check.readme"
"$ftsim" check --help 2>&1 | sed -n '/^Exit status:/,$p' | tr '\n' ' ' |
  grep -Eo '(: |, )[0-9]+ ' | tr -dc '0-9\n ' | tr ' ' '\n' | grep . | sort -u >"$work/check.code"
compare 'exit status (ftsim check)' "$work/check.readme" "$work/check.code"

# The workloads: README's table and `ftsim apps`.
first_column '`build/apps/real/NAME --help` lists each one' | names >"$work/apps.readme"
"$ftsim" apps | awk '{ print $1 }' | sort -u >"$work/apps.code"
compare 'workloads (ftsim apps)' "$work/apps.readme" "$work/apps.code"

# Every relative link of the README and of docs/ names a file that exists.
for page in "$1"/README.md "$1"/docs/*.md; do
  grep -o '](\([^)#]*\)[^)]*)' "$page" | sed 's/^](\([^)#]*\).*/\1/' |
    grep -v '^[a-z]*:' | grep . | sort -u |
    while IFS= read -r target; do
      [ -e "$(dirname "$page")/$target" ] || echo "$page: $target"
    done
done >"$work/links"
if [ -s "$work/links" ]; then
  echo "tables: FAILED: links to missing files:" >&2
  sed 's/^/  /' "$work/links" >&2
  failures=$((failures + 1))
else
  echo "tables: links: every relative link names a file"
fi

[ "$failures" -eq 0 ] || { echo "tables: $failures check(s) failed" >&2; exit 1; }
echo "tables: every table agrees with the code, every link names a file"
