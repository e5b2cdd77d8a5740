#!/bin/sh
# Checkpoint storage on SimGrid's disks (README, "Checkpoint storage"), one
# case per ctest entry, on small platforms written here: disks of 100 MB/s
# read and 50 MB/s write, so a 5 MB image costs 0.1 s to write and 0.05 s
# to read alone on its disk. pcl, 2 ranks, ring (0.16 s of simulated time,
# one wave at period 0.1; longer where a case needs a committed wave).
#   local_cost       storage=local: ckpt_write_s = waves x 2 x 0.1 s, and
#                    the run is longer by waves x 0.1 s than with no image
#   node_contention  both ranks on one node: each write shares the disk,
#                    0.2 s, so ckpt_write_s = waves x 2 x 0.2 s
#   restart_local    a failure: both ranks read their image back from
#                    their own disks, restart_read_s = 2 x 0.05 s, verified
#   restart_servers  the failed rank's image comes from the server's disk
#                    (0.05 s) over 1 Gb/s (0.04 s), the other rank reads its
#                    local copy (0.05 s): restart_read_s = 0.14 s
#   servers          local write (0.1 s each) then the server's disk,
#                    shared by its two clients (0.2 s each)
#   shared           no local write; the file server's disk (0.2 s each)
#   network_default  no storage setting = storage=network: same summary,
#                    no storage fields
#   replay_footprint a replay's image is its recorded footprint (cg, 2
#                    ranks, image_mb 0; storage=network): the failed rank's
#                    restart fetches that many modelled bytes back, so
#                    recovery_s - detection - restart >= 0.9 x footprint /
#                    gige's 930.4 Mb/s. Before, the server sent image_mb
#                    (0) back: 0.3 ms instead of 7.2 ms.
#   write_cpu        hosts with the property ftsim_write_cpu_s_per_byte
#                    (ftsim calibrate writes it: a durable write's CPU
#                    part) of 10 ns a byte: each 5 MB local write runs
#                    0.05 s on the host's core before the disk's 0.1 s,
#                    ckpt_write_s = waves x 2 x 0.15 s
#   service_shared   service_placement=shared: the hostfile puts the
#                    service rank on the last compute host (no service
#                    host needed), and its CPU part of each image write
#                    (20 ns a byte, 0.1 s per 5 MB image) shares that
#                    host's core with rank 1's computation, so the run
#                    is longer than with service_placement=own
#   bogus            storage=bogus: exit 2 naming the field, nothing run
#   no_disk          storage=servers on hosts without <disk>: exit 2
#                    naming the host and the setting, nothing run
#   real             storage=local with --real (no modelled disk): exit 2
#                    naming the setting, nothing run
# Usage: storage.sh FTSIM CASE
set -u
ftsim=$1 case=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "storage.sh $case: $*"; exit 1; }
field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" "$2"; }
# near A B TOL: |A - B| <= TOL x |B|
near() { awk -v a="$1" -v b="$2" -v t="$3" \
  'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t * (b < 0 ? -b : b)) }'; }

# platform FILE COMPUTE_HOSTS DISK(yes|no) [WRITE_CPU_S_PER_BYTE]
platform() {
  disk='<disk id="d" read_bw="100MBps" write_bw="50MBps"/>'
  [ -z "${4:-}" ] ||
    disk="<prop id=\"ftsim_write_cpu_s_per_byte\" value=\"$4\"/>$disk"
  [ "$3" = yes ] || disk=
  {
    echo '<?xml version="1.0"?>'
    echo '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">'
    echo '<platform version="4.1"><config>'
    echo '<prop id="smpi/lat-factor" value="0:1"/>'
    echo '<prop id="smpi/bw-factor" value="0:1"/></config>'
    echo '<zone id="t" routing="Cluster">'
    for h in $(seq 1 "$2" | sed 's/^/t-/') t-service-1; do
      echo "<host id=\"$h\" speed=\"2Gf\">$disk</host>"
      echo "<link id=\"$h-l\" bandwidth=\"1Gbps\" latency=\"10us\" sharing_policy=\"SPLITDUPLEX\"/>"
      echo "<host_link id=\"$h\" up=\"$h-l_UP\" down=\"$h-l_DOWN\"/>"
    done
    echo '</zone></platform>'
  } > "$1"
}

# run NAME PLATFORM [ftsim run options...]: the summary in $dir/NAME
run() {
  name=$1 plat=$2
  shift 2
  "$ftsim" run --platform "$plat" --np 2 --app ring --protocol pcl \
    --set period=0.1 "$@" -- --iters "${iters:-1000}" > "$dir/$name" \
    2> "$dir/$name.err"
  rc=$?
  [ $rc = 0 ] || { cat "$dir/$name.err"; fail "$name: exit $rc"; }
  [ "$(field verified "$dir/$name")" = true ] || fail "$name: not verified"
}

platform "$dir/two.xml" 2 yes
platform "$dir/one.xml" 1 yes
platform "$dir/bare.xml" 2 no
img="--set image_mb=5"

# expect_write NAME SECONDS_PER_WAVE: ckpt_write_s = waves x that, 2%
expect_write() {
  w=$(field waves "$dir/$1") s=$(field ckpt_write_s "$dir/$1")
  [ "${w:-0}" -ge 1 ] || fail "$1: no wave committed"
  want=$(awk -v w="$w" -v p="$2" 'BEGIN { print w * p }')
  near "$s" "$want" 0.02 || fail "$1: ckpt_write_s $s, expected $want ($w waves)"
}

case $case in
local_cost)
  run a "$dir/two.xml" $img --set storage=local
  run b "$dir/two.xml" --set storage=local
  expect_write a 0.2
  [ "$(field waves "$dir/a")" = "$(field waves "$dir/b")" ] ||
    fail "the runs took different waves"
  grow=$(awk -v a="$(field completion_time_s "$dir/a")" \
    -v b="$(field completion_time_s "$dir/b")" 'BEGIN { print a - b }')
  want=$(awk -v w="$(field waves "$dir/a")" 'BEGIN { print w * 0.1 }')
  near "$grow" "$want" 0.05 || fail "completion grew by $grow s, expected $want"
  ;;
node_contention)
  run a "$dir/one.xml" $img --set storage=local
  expect_write a 0.4
  ;;
restart_local)
  printf 'detection 0.001\nrestart 0.01\nfail 1 at 0.25\n' > "$dir/sc.txt"
  iters=2000
  run a "$dir/two.xml" $img --set storage=local --scenario "$dir/sc.txt"
  [ "$(field rollbacks "$dir/a")" = 1 ] || fail "expected one rollback"
  s=$(field restart_read_s "$dir/a")
  near "$s" 0.1 0.02 || fail "restart_read_s $s, expected 0.1"
  ;;
restart_servers)
  printf 'detection 0.001\nrestart 0.01\nfail 1 at 0.5\n' > "$dir/sc.txt"
  iters=4000
  run a "$dir/two.xml" $img --set storage=servers --scenario "$dir/sc.txt"
  [ "$(field rollbacks "$dir/a")" = 1 ] || fail "expected one rollback"
  s=$(field restart_read_s "$dir/a")
  near "$s" 0.14 0.05 || fail "restart_read_s $s, expected 0.14"
  ;;
servers)
  iters=4000
  run a "$dir/two.xml" $img --set storage=servers
  expect_write a 0.6
  ;;
shared)
  iters=4000
  run a "$dir/two.xml" $img --set storage=shared
  expect_write a 0.4
  ;;
network_default)
  run a "$dir/two.xml" $img
  run b "$dir/two.xml" $img --set storage=network
  grep -q '"ckpt_write_s"\|"storage"' "$dir/a" && fail "storage fields printed"
  strip() { sed 's/"wall_s":[0-9.e+-]*//' "$1"; }
  [ "$(strip "$dir/a")" = "$(strip "$dir/b")" ] ||
    fail "default differs from storage=network"
  ;;
replay_footprint)
  "$ftsim" record --platform gige --np 2 --app cg -o "$dir/t" > /dev/null \
    2> "$dir/err" || { cat "$dir/err"; fail "record"; }
  fp=$("$ftsim" trace-info "$dir/t" 2> /dev/null |
    sed -n 's/^rank 1:.* peak memory \([0-9]*\) B.*/\1/p')
  [ -n "$fp" ] && [ "$fp" -gt 100000 ] || fail "no footprint for rank 1 ($fp)"
  printf 'detection 0.001\nrestart 0.001\nfail 1 at 0.017\n' > "$dir/sc.txt"
  "$ftsim" run --platform gige --replay "$dir/t" --protocol pcl \
    --set period=0.001 --scenario "$dir/sc.txt" > "$dir/a" 2> "$dir/a.err" ||
    { cat "$dir/a.err"; fail "replay: exit $?"; }
  [ "$(field rollbacks "$dir/a")" = 1 ] || fail "expected one rollback"
  [ "$(field waves "$dir/a")" -ge 1 ] || fail "no wave committed"
  fetch=$(awk -v r="$(field recovery_s "$dir/a")" 'BEGIN { print r - 0.002 }')
  want=$(awk -v f="$fp" 'BEGIN { print f / (930.4e6 / 8) }')
  awk -v a="$fetch" -v w="$want" 'BEGIN { exit !(a >= 0.9 * w && a <= 2 * w) }' ||
    fail "the restart's fetch took $fetch s, expected about $want s"
  ;;
write_cpu)
  platform "$dir/cpu.xml" 2 yes 1e-8
  run a "$dir/cpu.xml" $img --set storage=local
  expect_write a 0.3
  ;;
service_shared)
  platform "$dir/cpu.xml" 2 yes 2e-8
  "$ftsim" run --platform "$dir/cpu.xml" --np 2 --app ring --protocol pcl \
    --set service_placement=shared --hostfile-out "$dir/hosts" \
    --dry-run > /dev/null 2> "$dir/err" || { cat "$dir/err"; fail "dry run"; }
  [ "$(tr '\n' ' ' < "$dir/hosts")" = "t-1 t-2 t-2 " ] ||
    fail "hostfile: $(tr '\n' ' ' < "$dir/hosts"), expected t-1 t-2 t-2"
  iters=4000
  run own "$dir/cpu.xml" $img --set storage=shared
  run shared "$dir/cpu.xml" $img --set storage=shared \
    --set service_placement=shared
  w=$(field waves "$dir/shared")
  [ "${w:-0}" -ge 1 ] || fail "no wave committed"
  awk -v a="$(field completion_time_s "$dir/shared")" \
    -v b="$(field completion_time_s "$dir/own")" 'BEGIN { exit !(a > b) }' ||
    fail "shared $(field completion_time_s "$dir/shared") s not longer than own $(field completion_time_s "$dir/own") s"
  ;;
bogus | no_disk | real)
  set -- --set storage=bogus
  plat=$dir/two.xml want="storage=bogus: storage must be network, servers"
  if [ "$case" = no_disk ]; then
    set -- --set storage=servers
    plat=$dir/bare.xml want="host 't-1' (rank 0) has no <disk>, and storage=servers"
  fi
  if [ "$case" = real ]; then
    set -- --set storage=local --real
    want="--set storage=local: disks are modelled in simulation only"
  fi
  "$ftsim" run --platform "$plat" --np 2 --app ring --protocol pcl "$@" \
    > "$dir/out" 2> "$dir/err"
  rc=$?
  [ $rc = 2 ] || fail "exit $rc, expected 2"
  grep -qF -- "$want" "$dir/err" || { cat "$dir/err"; fail "no message '$want'"; }
  [ -s "$dir/out" ] && fail "something ran"
  grep -q "^ring:" "$dir/err" && fail "the app ran"
  ;;
*) fail "unknown case" ;;
esac
[ "$case" != service_shared ] || echo "own $(field completion_time_s "$dir/own") shared $(field completion_time_s "$dir/shared")"
echo "storage.sh $case: ok"
