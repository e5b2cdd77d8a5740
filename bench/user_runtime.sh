#!/bin/sh
# Issue 18 for users' programs: what linking the runtime's shared library
# (ftsimcc's default, README "Your own program") saves over the runtime
# inside the module (ftsimcc -static-runtime, what ftsimcc linked before)
# under `none`, against the same program built by plain smpicc. Builds a
# cg-like user program (apps/cg.c and its helpers, copied out of the tree
# as a user would have them; plain smpicc takes ft.h's functions from
# sim/app_api_plain.c) three ways with -O2, then runs the three modules
# alternately with smpirun and prints CPU times (user + system, min and
# median of REPEAT), their ratios to plain smpicc's, peak memory and the
# simulated time. A benchmark, not a test: nothing passes or fails on speed.
#
# Usage: bench/user_runtime.sh [-p PLATFORM] [-r REPEAT] [NP]
#   defaults: -p gige -r 3, NP 64 (the default preset's build directory, or
#   FTSIM_BUILD_DIR)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${FTSIM_BUILD_DIR:-$top/build}
platform=gige repeat=3 np=64
while [ $# -gt 0 ]; do
  case $1 in
    -p) platform=$2; shift 2 ;;
    -r) repeat=$2; shift 2 ;;
    -*) echo "user_runtime.sh: unknown option $1" >&2; exit 2 ;;
    *) np=$1; shift ;;
  esac
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cp "$top/apps/cg.c" "$top/apps/common.c" "$top/apps/common.h" \
  "$top/apps/app_options.c" "$top/apps/app_options.h" "$tmp/"
cd "$tmp"
src="cg.c common.c app_options.c"
# shellcheck disable=SC2086 # the sources: words without spaces
smpicc -O2 -DNDEBUG -I"$top/sim" $src "$top/sim/app_api_plain.c" -o plain -lm
# shellcheck disable=SC2086
"$build/bin/ftsimcc" -O2 -DNDEBUG $src -o shared -lm
# shellcheck disable=SC2086
"$build/bin/ftsimcc" -static-runtime -O2 -DNDEBUG $src -o static -lm

"$build/ftsim" run --platform "$platform" --np "$np" --app cg --dry-run \
  --hostfile-out "$tmp/hosts" >/dev/null
# once MODULE: "cpu_s peak_mb sim_s" of one run
once() {
  FTSIM_OPTIONS=protocol=none "$build/bench/measure" smpirun -np "$np" \
    -platform "$top/platforms/$platform.xml" -hostfile "$tmp/hosts" \
    --cfg=smpi/simulate-computation:no --cfg=smpi/grow-injected-times:no \
    --cfg=smpi/privatization:dlopen --cfg=smpi/coll-selector:ompi \
    --log=root.thres:warning "$tmp/$1" >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; exit 1; }
  sim=$(sed -n 's/.* in \([0-9.]*\) s[,:].*/\1/p' "$tmp/out" | head -n 1)
  mb=$(sed -n 's/^wall_s=[0-9.]* peak_mb=\([0-9.]*\)$/\1/p' "$tmp/err")
  cpu=$(sed -n 's/^cpu_s=\([0-9.]*\)$/\1/p' "$tmp/err")
  echo "$cpu $mb ${sim:-0}"
}
i=0
while [ $i -lt "$repeat" ]; do
  for m in plain shared static; do
    echo "$m $(once $m)" >>"$tmp/runs"
  done
  i=$((i + 1))
done
printf '%-5s %5s  %-7s %8s %8s %7s %7s %8s %10s\n' prog ranks module \
  cpu_min cpu_med x_min x_med peak_MB sim_s
for m in plain shared static; do
  awk -v m="$m" '$1 == m { print $2, $3, $4 }' "$tmp/runs" | sort -n >"$tmp/$m"
done
for m in plain shared static; do
  paste "$tmp/$m" "$tmp/plain" | awk -v n="$np" -v m="$m" '
    { c[NR] = $1; p[NR] = $4; mb = $2; s = $3 }
    END { med = c[int((NR + 1) / 2)]; pm = p[int((NR + 1) / 2)]
      printf "%-5s %5d  %-7s %8.3f %8.3f %7.3f %7.3f %8.1f %10.6f\n",
        "cg", n, m, c[1], med, c[1] / p[1], med / pm, mb, s }'
done
