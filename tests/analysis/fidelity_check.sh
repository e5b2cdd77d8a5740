#!/bin/sh
# fidelity_check.sh MIN_R2 FILE PLATFORM/APP...: checks analysis/fidelity.sh's
# output in FILE: for each PLATFORM/APP named, its fit must exist, with a
# positive slope and R² >= MIN_R2 (the papers' "roughly linear", as
# reproduce.sh tests it: 0.8). Exit 0 if all hold; 1 otherwise, one line
# per failure naming the combination and its numbers.
# Usage: fidelity_check.sh 0.8 fidelity.out gige/bt myrinet/bt
min=$1 file=$2
shift 2
[ -r "$file" ] || { echo "fidelity_check.sh: cannot read $file"; exit 1; }
failed=0
for combo in "$@"; do
  pl=${combo%/*} app=${combo#*/}
  # The fit line that follows "== PLATFORM / APP:" in the output.
  fit=$(awk -v h="== $pl / $app:" 'index($0, h) == 1 { on = 1; next }
    /^== / { on = 0 } on && /^fit: completion_time/ { print; exit }' "$file")
  if [ -z "$fit" ]; then
    echo "fidelity_check.sh: $combo: no fit in $file"
    failed=1
    continue
  fi
  b=$(echo "$fit" | sed -n 's/.*slope b = \([-0-9.e]*\) s\/wave.*/\1/p')
  r2=$(echo "$fit" | sed -n 's/.*R² = \([-0-9.e]*\).*/\1/p')
  if awk -v b="${b:-0}" -v r="${r2:-0}" -v m="$min" 'BEGIN { exit !(b > 0 && r >= m) }'; then
    echo "fidelity_check.sh: $combo: linear (slope $b s/wave, R² $r2 >= $min)"
  else
    echo "fidelity_check.sh: $combo: NOT linear: slope ${b:-?} s/wave, R² ${r2:-?} (need slope > 0 and R² >= $min)"
    failed=1
  fi
done
exit $failed
