#!/bin/sh
# reproduce_fig6_fake.sh SOURCE_DIR BUILD_DIR: the verdict of sc06-f6-freq
# (reproduce.sh part_fig6: Pcl's overhead over none at 10 s between
# checkpoints at least F6_GAP = 1 point of % above Vcl's at every size,
# with waves at any MPI call: bt recorded and replayed) run
# against a stand-in for ftsim whose completion times are known, in the
# quick form's sizes and periods (4 and 16 ranks, 10 and 20 s). Pcl 3% over
# none at 10 s and Vcl 0.5% must give "reproduced"; Pcl +0.0006% and Vcl
# +0.0003% (above in sign only, as measured on 25 November 2026, which the
# test before issue 19's change called reproduced) "not reproduced", with
# an explanation that gives the gap; Pcl 1.2 points above Vcl at one size
# and 0.8 at the other "not reproduced" (every size must be). Exit 0 if
# all hold; 1 otherwise, naming the first that does not.
set -u
SRC=$1
BUILD=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/f6fake.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/build/analysis"
ln -s "$BUILD/analysis/fit" "$T/build/analysis/fit"
# The stand-in: none 100 s; at period 10 Pcl 100 * (1 + PCL / 100) with
# PCL4 and PCL16 the overheads in % at 4 and 16 ranks, Vcl with VCL;
# at 20 s both 0.0002%; waves = floor(100 / period). The same for the
# part's runs at bt's step ends and for its replays (waves at any MPI
# call, which the claim tests); ftsim record prints none's line.
cat >"$T/build/ftsim" <<'FAKE'
#!/bin/sh
shift
per=$(echo "$*" | sed -n 's/.*--set period=\([^ ]*\).*/\1/p')
proto=$(echo "$*" | sed -n 's/.*--protocol \([^ ]*\).*/\1/p')
np=$(echo "$*" | sed -n 's/.*--np \([^ ]*\).*/\1/p')
# a replay (--replay DIR/f6r_NP, the any-call series) takes NP from its path
[ -n "$np" ] || np=$(echo "$*" | sed -n 's/.*--replay [^ ]*f6r_\([0-9]*\).*/\1/p')
pcl=$PCL4
[ "$np" = 16 ] && pcl=$PCL16
awk -v p="${per:-0}" -v pr="$proto" -v pcl="$pcl" -v vcl="$VCL" 'BEGIN {
  w = (p > 0 && pr != "none") ? int(100 / p) : 0
  o = 0
  if (pr != "none") o = (p == 10) ? (pr == "pcl" ? pcl : vcl) : 0.0002
  printf "{\"protocol\":\"%s\",\"completion_time_s\":%.9f,\"verified\":true,\"waves\":%d}\n", pr, 100 * (1 + o / 100), w }'
FAKE
chmod +x "$T/build/ftsim"

fail() { echo "reproduce_fig6_fake.sh: $*"; exit 1; }
# run NAME PCL4 PCL16 VCL: the quick form's fig6 part; its output on stdout
# and in $T/NAME.out. Exit 0 or 1 (1 when the verdict differs from
# EXPECT_NOT's); 2 would be a usage error.
run() {
  PCL4=$2 PCL16=$3 VCL=$4 REPRO_PARTS=fig6 sh "$SRC/analysis/reproduce.sh" --quick -o "$T/$1" "$T/build" >"$T/$1.out" 2>&1
  rc=$?
  cat "$T/$1.out"
  [ $rc -le 1 ] || fail "$1: exit $rc"
}
verdict() { grep "^claim sc06-f6-freq (sc06, fgcs08 Fig. 6): $2: " "$T/$1.out" >/dev/null; }

run far 3 3 0.5
verdict far reproduced || fail "Pcl 2.5 points above Vcl: sc06-f6-freq not reproduced"
run sign 0.0006 0.0006 0.0003
verdict sign "not reproduced" || fail "Pcl 0.0003 point above Vcl: sc06-f6-freq reproduced"
grep '^sc06-f6-freq' "$T/sign/data/claims.tsv" | cut -f 9 | grep 'at 0 of 2 sizes, the test asks every size (the largest gap 0.0003 point' >/dev/null ||
  fail "Pcl 0.0003 point above Vcl: the explanation does not give the gap"
run one 1.7 1.3 0.5
verdict one "not reproduced" || fail "Pcl 0.8 point above Vcl at 16 ranks: sc06-f6-freq reproduced"
[ "$(grep -vc '^#' "$T/far/data/fig6_anycall.dat")" = 2 ] ||
  fail "data/fig6_anycall.dat does not have the 2 sizes"
for f in fig6.png fig6.svg; do
  [ -s "$T/far/fig/$f" ] || fail "no figure $f"
done
echo "reproduce_fig6_fake.sh: the verdicts follow the gap"
