#!/bin/sh
# reproduce_fig7_fake.sh SOURCE_DIR BUILD_DIR: the full form's Figure 7
# (reproduce.sh fig7_paper: BT.B.64 on myrinet, hours of simulation) run
# against a stand-in for ftsim whose completion times are known, so that
# the verdicts' logic is tested in seconds: Pcl's time linear in the waves
# must give sc06-f7-bt "reproduced", the same times with one run 5 s off
# the line "not reproduced"; Vcl below Pcl at the shortest period gives
# sc06-f7-btvcl "reproduced". Exit 0 if all hold; 1 otherwise, naming the
# first that does not.
set -u
SRC=$1
BUILD=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/f7fake.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/build/analysis"
ln -s "$BUILD/analysis/fit" "$T/build/analysis/fit"
# The stand-in: waves = floor(100 / period); none 100 s, Pcl 100.1 + 0.5 s
# a wave, Vcl 100.05 + 0.05 s a wave; OUTLIER=P adds 5 s at period P.
cat >"$T/build/ftsim" <<'FAKE'
#!/bin/sh
shift
per=$(echo "$*" | sed -n 's/.*--set period=\([^ ]*\).*/\1/p')
proto=$(echo "$*" | sed -n 's/.*--protocol \([^ ]*\).*/\1/p')
awk -v p="${per:-0}" -v pr="$proto" -v o="${OUTLIER:-none}" 'BEGIN {
  w = (p > 0 && pr != "none") ? int(100 / p) : 0
  t = 100 + (pr == "pcl" ? 0.1 + 0.5 * w : 0) + (pr == "vcl" ? 0.05 + 0.05 * w : 0)
  if (p "" == o) t += 5
  printf "{\"protocol\":\"%s\",\"completion_time_s\":%.6f,\"verified\":true,\"waves\":%d}\n", pr, t, w }'
FAKE
chmod +x "$T/build/ftsim"

fail() { echo "reproduce_fig7_fake.sh: $*"; exit 1; }
out=$(REPRO_PARTS=fig7 REPRO_F7_APPS=bt sh "$SRC/analysis/reproduce.sh" -o "$T/a" "$T/build" 2>&1)
rc=$?
printf '%s\n' "$out"
# Exit 0 or 1 (1 when a verdict differs from its expectation in
# EXPECT_NOT); 2 would be a usage error.
[ $rc -le 1 ] || fail "linear times: exit $rc"
printf '%s\n' "$out" | grep -q '^claim sc06-f7-bt (sc06 Fig. 7): reproduced: ' ||
  fail "linear times: sc06-f7-bt not reproduced"
printf '%s\n' "$out" | grep -q '^claim sc06-f7-btvcl (sc06 Fig. 7): reproduced: ' ||
  fail "Vcl below Pcl: sc06-f7-btvcl not reproduced"
for f in fig7_bt fig7_bt_period; do
  [ -s "$T/a/fig/$f.png" ] && [ -s "$T/a/fig/$f.svg" ] || fail "no figure $f"
done
# The periods are none's time (100 s) / 1.5 3 5 8 12 20: 20 s is the third.
out=$(OUTLIER=20 REPRO_PARTS=fig7 REPRO_F7_APPS=bt sh "$SRC/analysis/reproduce.sh" -o "$T/b" "$T/build" 2>&1)
rc=$?
printf '%s\n' "$out"
[ $rc -le 1 ] || fail "one run off the line: exit $rc"
printf '%s\n' "$out" | grep -q '^claim sc06-f7-bt (sc06 Fig. 7): not reproduced: ' ||
  fail "one run off the line: sc06-f7-bt still reproduced"
echo "reproduce_fig7_fake.sh: the verdicts follow the times"
