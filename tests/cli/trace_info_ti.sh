#!/bin/sh
# `ftsim trace-info` on a real SimGrid time-independent trace: builds
# ti_prog.c with smpicc, records it with `smpirun -trace-ti` on 3 ranks,
# and checks what trace-info reads (bytes counted by hand from ti_prog.c:
# rank 0 sends 100 doubles (isend), 10 ints (send), 4 doubles (allreduce)
# and 8 doubles as the bcast's root). Then a broken copy of rank 1's file
# must give exit 2 with FILE:LINE.
# Usage: trace_info_ti.sh SMPICC SMPIRUN FTSIM PLATFORM SOURCE_DIR
set -u
smpicc=$1 smpirun=$2 ftsim=$3 platform=$4 src=$5
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "trace_info_ti.sh: $*"; exit 1; }
"$smpicc" -o "$dir/p" "$src/ti_prog.c" || fail "smpicc failed"
"$smpirun" -np 3 -platform "$platform" -trace-ti \
  --cfg=tracing/filename:"$dir/tr" --cfg=smpi/display-timing:no \
  --log=root.thres:error "$dir/p" || fail "smpirun failed"
out=$("$ftsim" trace-info --ti-host-speed 1 "$dir/tr") || fail "trace-info failed: $out"
printf '%s\n' "$out"
printf '%s\n' "$out" | grep -q '^trace .*: 3 ranks' || fail "not 3 ranks"
printf '%s\n' "$out" | grep -Eq '^rank 0: .*\(send 1, isend 1, irecv 1, complete 1, collective 3, compute [0-9]+\), sent 936 B, received 832 B' ||
  fail "rank 0"
printf '%s\n' "$out" | grep -Eq '^rank 1: .*\(isend 1, recv 1, irecv 1, complete 1, collective 3, compute [0-9]+\), sent 832 B, received 936 B' ||
  fail "rank 1"
# A broken copy: an unknown action on rank 1's line 3.
mkdir "$dir/bad"
i=0
for f in $(cat "$dir/tr"); do
  cp "$f" "$dir/bad/$i.txt"
  echo "$i.txt" >> "$dir/bad/index"
  i=$((i + 1))
done
sed -i '3s/.*/1 put 0 12/' "$dir/bad/1.txt"
err=$("$ftsim" trace-info "$dir/bad/index" 2>&1); rc=$?
printf '%s\n' "$err"
[ $rc -eq 2 ] || fail "exit $rc on a bad trace, not 2"
printf '%s\n' "$err" | grep -q "bad/1.txt:3: unknown action 'put'" ||
  fail "no FILE:LINE in the error"
echo "trace_info_ti.sh: ok"
