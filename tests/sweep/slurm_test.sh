#!/bin/sh
# `ftsim sweep --emit-slurm` against a real Slurm on localhost (issue 18,
# item 5): Debian's slurm-wlm and munge, started here on one node with
# their own configuration, key, sockets, ports and state in a temporary
# directory (never /etc/slurm, /etc/munge or /run/munge), then stopped.
#
#   1. A 4-point sweep (none, pcl failure-free, pcl with failures x 2
#      seeds; 4 ranks of cg) emitted with --time 2 --mem 100M
#      --points-per-task 2: Slurm holds the job with those limits, the
#      array of 2 tasks runs and merges into one CSV with every point once,
#      every row ok and verified (`ftsim sweep --dry-run`: 4 done).
#   2. The same sweep into a second CSV, with the default options (1 point
#      per task, --time from the time-out, --mem 2G), submitted held;
#      task 2 is cancelled, the rest released and run: 3 rows. Emitting
#      again lists only task 2 (--array=2); submitted, it completes the CSV.
#
# Needs root (the daemons run as root, as in CI); when not root it says so
# and exits 77 (ctest: skipped). Daemons left by a killed earlier run (their
# directory's owner process is gone) are stopped and their files removed
# first; every daemon started here is stopped on exit, failure included.
# Usage: slurm_test.sh FTSIM
set -u
FTSIM=$1
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: the Slurm test starts slurmctld, slurmd and munged as root; run it as root"
  exit 77
fi
for d in /usr/sbin/slurmctld /usr/sbin/slurmd /usr/sbin/munged; do
  [ -x "$d" ] || { echo "FAIL: no $d: install slurm-wlm and munge (scripts/setup.sh)"; exit 1; }
done
# Our own configuration only, whatever the environment says.
unset SLURM_JOB_ID SLURM_ARRAY_JOB_ID SLURM_ARRAY_TASK_ID SLURM_CONF_SERVER
TMPBASE=${TMPDIR:-/tmp}
BOUND=${SLURM_TEST_BOUND:-90} # seconds to wait for a job, at most

fail() { echo "FAIL: $*"; show_logs; exit 1; }
show_logs() {
  for f in "$T"/log/*.log "$T"/munge/log "$T"/*.csv.d/slurm-*.out; do
    [ -f "$f" ] && { echo "--- $f"; tail -n 15 "$f"; }
  done
  return 0
}

# stop_daemon DIR PIDFILE: stops the daemon of PIDFILE if its command line
# names DIR (so never another process that reused the pid).
stop_daemon() {
  [ -f "$2" ] || return 0
  pid=$(cat "$2" 2>/dev/null)
  case $pid in '' | *[!0-9]*) return 0 ;; esac
  { tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null | grep -qF "$1/" || return 0
  kill "$pid" 2>/dev/null
  i=0
  while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
  kill -9 "$pid" 2>/dev/null
  return 0
}
stop_all() {
  stop_daemon "$1" "$1/slurmd.pid"
  stop_daemon "$1" "$1/slurmctld.pid"
  stop_daemon "$1" "$1/munge/pid"
}

# Leftovers of a killed earlier run: their owner (the test's shell) is gone.
for old in "$TMPBASE"/ftsim-slurm.*; do
  [ -d "$old" ] || continue
  owner=$(cat "$old/owner" 2>/dev/null)
  if [ -n "$owner" ] && { tr '\0' ' ' <"/proc/$owner/cmdline"; } 2>/dev/null |
    grep -q slurm_test.sh; then
    continue # a run under way
  fi
  echo "stopping the daemons of an earlier run in $old"
  stop_all "$old"
  rm -rf "$old"
done

T=$(mktemp -d "$TMPBASE/ftsim-slurm.XXXXXX") || exit 2
echo $$ >"$T/owner"
cleanup() {
  stop_all "$T"
  rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# free_port FROM: the first TCP port from FROM on that nobody listens on
# (read from /proc/net/tcp*: state 0A; no dependency on ss or netstat).
free_port() {
  p=$1
  while awk -v port="$(printf '%04X' "$p")" '
      $4 == "0A" && substr($2, length($2) - 3) == port { found = 1 }
      END { exit !found }' /proc/net/tcp /proc/net/tcp6 2>/dev/null; do
    p=$((p + 1))
  done
  echo "$p"
}
base=$((20000 + $$ % 20000))
CTLD_PORT=$(free_port "$base")
SLURMD_PORT=$(free_port $((CTLD_PORT + 1)))
HOST=$(hostname -s)
CPUS=$(nproc)
MEM_MB=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)

mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/log"
dd if=/dev/urandom of="$T/munge/key" bs=1024 count=1 2>/dev/null
chmod 400 "$T/munge/key"
munged --force --socket="$T/munge/sock" --key-file="$T/munge/key" \
  --log-file="$T/munge/log" --pid-file="$T/munge/pid" \
  --seed-file="$T/munge/seed" || fail "munged did not start"

cat >"$T/slurm.conf" <<EOF
ClusterName=ftsimtest
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MpiDefault=none
ReturnToService=2
InactiveLimit=0
MinJobAge=600
KillWait=2
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$MEM_MB State=UNKNOWN
PartitionName=ftsimtest Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$T/slurm.conf"
slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start"
slurmd -f "$SLURM_CONF" || fail "slurmd did not start"

# wait_for SECONDS COMMAND...: until COMMAND succeeds, at most SECONDS.
wait_for() {
  end=$(($(date +%s) + $1))
  shift
  until "$@"; do
    [ "$(date +%s)" -lt "$end" ] || return 1
    sleep 0.5
  done
}
node_idle() { sinfo -h -o %T 2>/dev/null | grep -qx idle; }
wait_for 30 node_idle || fail "the node did not become idle: $(sinfo 2>&1)"
echo "slurm up on $HOST (ports $CTLD_PORT, $SLURMD_PORT), $CPUS CPUs"

job_gone() { [ -z "$(squeue -h -j "$1" 2>/dev/null)" ]; }
# submit SCRIPT [SBATCH OPTIONS]: prints the job id.
submit() {
  script=$1
  shift
  sbatch --parsable "$@" "$script" || fail "sbatch $script failed"
}
wait_job() {
  wait_for $BOUND job_gone "$1" || fail "job $1 still queued after ${BOUND}s: $(squeue 2>&1)"
}

cat >"$T/tiny.txt" <<'EOS'
protocols none pcl
platforms gige
apps cg
ranks 4
periods 0.02
mtbfs none 0.2
seeds 1 2
max_failures 3
app_args --iters 100 --tol 0
EOS

# check_csv CSV ROWS: ROWS rows (the provenance comments and the header
# aside), each point once, every row ok and verified.
check_csv() {
  rows=$(grep -v '^#' "$1" | tail -n +2 | wc -l)
  [ "$rows" -eq "$2" ] || fail "$1: $rows rows, expected $2: $(cat "$1")"
  dups=$(grep -v '^#' "$1" | tail -n +2 | cut -d, -f1-13 | sort | uniq -d)
  [ -z "$dups" ] || fail "$1: a point has two rows: $dups"
  bad=$(grep -v '^#' "$1" | tail -n +2 | grep -v ',0,ok,true,')
  [ -z "$bad" ] || fail "$1: a row is not ok and verified: $bad"
}

# 1. The whole array, 2 points per task.
"$FTSIM" sweep --emit-slurm "$T/a.sbatch" --time 2 --mem 100M \
  --points-per-task 2 -o "$T/a.csv" "$T/tiny.txt" 2>"$T/emit.err" ||
  fail "emit-slurm exited $?: $(cat "$T/emit.err")"
for line in '#SBATCH --array=0-1' '#SBATCH --time=2' '#SBATCH --mem=100M'; do
  grep -qx -- "$line" "$T/a.sbatch" || fail "a.sbatch lacks '$line': $(cat "$T/a.sbatch")"
done
job=$(submit "$T/a.sbatch" --hold)
info=$(scontrol show job "${job}_0" 2>&1)
echo "$info" | grep -q 'TimeLimit=00:02:00' || fail "Slurm's time limit is not 2 min: $info"
echo "$info" | grep -q 'MinMemoryNode=100M' || fail "Slurm's memory is not 100M: $info"
scontrol release "$job" || fail "scontrol release $job"
wait_job "$job"
check_csv "$T/a.csv" 4
"$FTSIM" sweep --dry-run -o "$T/a.csv" "$T/tiny.txt" | grep -qx '# 4 points, 4 done, 0 to run' ||
  fail "a.csv does not have every point: $("$FTSIM" sweep --dry-run -o "$T/a.csv" "$T/tiny.txt")"
outs=$(ls "$T"/a.csv.d/slurm-"${job}"_*.out | wc -l)
[ "$outs" -eq 2 ] || fail "expected 2 array tasks, Slurm ran $outs"
echo "ok: array of 2 tasks x 2 points merged into one CSV, 4 points ok"

# 2. Cancel a task, resume: only the missing point runs.
"$FTSIM" sweep --emit-slurm "$T/b.sbatch" -o "$T/b.csv" "$T/tiny.txt" 2>"$T/emit.err" ||
  fail "emit-slurm exited $?: $(cat "$T/emit.err")"
# The defaults: 1 point per task, 2G, the time-out of 600 s + 5 s + 1 min.
for line in '#SBATCH --array=0-3' '#SBATCH --time=12' '#SBATCH --mem=2G'; do
  grep -qx -- "$line" "$T/b.sbatch" || fail "b.sbatch lacks '$line': $(cat "$T/b.sbatch")"
done
# (sbatch's own --mem overrides the script's: a small machine may lack 2G)
job=$(submit "$T/b.sbatch" --hold --mem=100M)
scancel "${job}_2" || fail "scancel ${job}_2"
scontrol release "$job" || fail "scontrol release $job"
wait_job "$job"
check_csv "$T/b.csv" 3
"$FTSIM" sweep --dry-run -o "$T/b.csv" "$T/tiny.txt" | grep -q '^2 todo ' ||
  fail "point 2 has a row although its task was cancelled"
"$FTSIM" sweep --emit-slurm "$T/b.sbatch" -o "$T/b.csv" "$T/tiny.txt" 2>"$T/emit.err" ||
  fail "emit-slurm (resume) exited $?: $(cat "$T/emit.err")"
grep -q '1 array tasks of 1 point (1 of 4 points without a row)' "$T/emit.err" ||
  fail "resume: $(cat "$T/emit.err")"
grep -qx -- '#SBATCH --array=2' "$T/b.sbatch" || fail "resume script: $(cat "$T/b.sbatch")"
job=$(submit "$T/b.sbatch" --mem=100M)
wait_job "$job"
check_csv "$T/b.csv" 4
outs=$(ls "$T"/b.csv.d/slurm-"${job}"_*.out | wc -l)
[ "$outs" -eq 1 ] || fail "the resumed array ran $outs tasks, expected 1"
"$FTSIM" sweep --emit-slurm "$T/c.sbatch" -o "$T/b.csv" "$T/tiny.txt" 2>"$T/emit.err" ||
  fail "emit-slurm (complete) exited $?"
grep -q 'all 4 points have a row' "$T/emit.err" && [ ! -e "$T/c.sbatch" ] ||
  fail "a complete sweep still emitted a script: $(cat "$T/emit.err")"
echo "ok: a cancelled task resumed alone, the CSV complete"
