# shellcheck shell=sh disable=SC2154 # build, top, platform, np, tmp: the caller's
# Sourced by bench/overhead.sh, bench/shared_runtime.sh and
# bench/user_runtime.sh: runs SMPI modules alternately under smpirun (so
# that the machine's load falls on all alike) and prints, per module, its
# CPU time (user + system: steadier than the wall time when other work
# shares the machine) and wall time, min and median of the runs, their
# ratios to the first module's, its peak memory and its simulated time.
#
# The caller sets: build (the build directory), top (the source tree),
# platform, np, tmp (a scratch directory), and writes $tmp/hosts
# (`ftsim run ... --dry-run --hostfile-out`). Every run is under protocol
# `none` (FTSIM_OPTIONS) with the settings `ftsim run` passes smpirun.
#
# SMPI's collective selector: a module given as MODULE@SELECTOR runs with
# `--cfg=smpi/coll-selector:SELECTOR`, a bare MODULE with none (SMPI's
# default), as `ftsim run` runs ftsim's modules. Plain SMPI runs with
# `ompi`, whose algorithms the runtime's collectives follow (the same
# simulated times); an ftsim module under `ompi` pays, for each
# communicator it creates (the collectives' shadows too), SMPI's id
# broadcast under that selector, which first runs Comm::init_smp: O(p^2)
# messages that `ftsim run` never sends (docs/testing.md, issue 18).

# alt_once MODULE[@SELECTOR] [ARGS...]: "cpu_s wall_s peak_mb sim_s" of one
# run of MODULE (sim_s: the workload's own "... in S s", simulated); exits
# on a failed run or a deadlock.
alt_once() {
  alt_mod=${1%@*} alt_sel=""
  [ "$alt_mod" = "$1" ] || alt_sel=--cfg=smpi/coll-selector:${1##*@}
  shift
  FTSIM_OPTIONS=protocol=none "$build/bench/measure" smpirun -np "$np" \
    -platform "$top/platforms/$platform.xml" -hostfile "$tmp/hosts" \
    --cfg=smpi/simulate-computation:no --cfg=smpi/grow-injected-times:no \
    --cfg=smpi/privatization:dlopen ${alt_sel:+"$alt_sel"} \
    --log=root.thres:warning "$alt_mod" "$@" >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; exit 1; }
  ! grep -q 'Deadlock detected' "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  sim=$(sed -n 's/.* in \([0-9.]*\) s[,:].*/\1/p' "$tmp/out" | head -n 1)
  wm=$(sed -n 's/^wall_s=\([0-9.]*\) peak_mb=\([0-9.]*\)$/\1 \2/p' "$tmp/err")
  cpu=$(sed -n 's/^cpu_s=\([0-9.]*\)$/\1/p' "$tmp/err")
  echo "$cpu $wm ${sim:-0}"
}

# alt_runs REPEAT NAME=MODULE[@SELECTOR]... [-- ARGS...]: REPEAT rounds, each running
# every MODULE once in the order given (with ARGS); the figures go to
# $tmp/runs, one "NAME cpu wall mb sim" line per run.
alt_runs() {
  alt_n=$1
  shift
  alt_mods=""
  while [ $# -gt 0 ] && [ "$1" != -- ]; do
    alt_mods="$alt_mods $1"
    shift
  done
  [ $# -eq 0 ] || shift
  : >"$tmp/runs"
  alt_i=0
  while [ "$alt_i" -lt "$alt_n" ]; do
    for m in $alt_mods; do
      echo "${m%%=*} $(alt_once "${m#*=}" "$@")" >>"$tmp/runs"
    done
    alt_i=$((alt_i + 1))
  done
}

# alt_header KEY: the table's header (KEY names the first column).
alt_header() {
  printf '%-5s %5s  %-7s %8s %8s %7s %7s %8s %8s %7s %7s %8s %10s\n' "$1" \
    ranks module cpu_min cpu_med x_min x_med wall_min wall_med xw_min \
    xw_med peak_MB sim_s
}

# alt_table LABEL NAME...: one line per NAME of $tmp/runs: min and median
# CPU and wall times, their ratios to the first NAME's min and median, the
# largest peak memory and the simulated time (of the last run).
alt_table() {
  alt_label=$1
  shift
  for m in "$@"; do
    awk -v m="$m" '$1 == m { print $2, $3, $4, $5 }' "$tmp/runs" >"$tmp/$m"
  done
  for m in "$@"; do
    cat "$tmp/$m" "$tmp/$1" | awk -v n="$(wc -l <"$tmp/$m")" -v a="$alt_label" \
      -v r="$np" -v m="$m" '
      function med(x, k,  i, j, t) { # median of x[1..k]
        for (i = 2; i <= k; i++)
          for (j = i; j > 1 && x[j - 1] > x[j]; j--) {
            t = x[j]; x[j] = x[j - 1]; x[j - 1] = t }
        return x[int((k + 1) / 2)]
      }
      NR <= n { c[NR] = $1; w[NR] = $2; if ($3 > mb) mb = $3; s = $4; next }
      { pc[NR - n] = $1; pw[NR - n] = $2 }
      END {
        k = n; cm = med(c, k); wm = med(w, k); pcm = med(pc, k)
        pwm = med(pw, k)
        printf "%-5s %5d  %-7s %8.3f %8.3f %7.3f %7.3f %8.2f %8.2f %7.3f %7.3f %8.1f %10.6f\n",
          a, r, m, c[1], cm, c[1] / pc[1], cm / pcm, w[1], wm, w[1] / pw[1],
          wm / pwm, mb, s }'
  done
}
