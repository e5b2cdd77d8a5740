#!/bin/sh
# The lag of failed ranks (README, "The failure model"): ring, cg and lu at
# 8 ranks on gige, on-line and replayed, under pcl, vcl, pessimist, v2 and
# bookmark, ranks 3, 1, 2 failing at 12, 21 and 33.1 ms (detection 1 ms,
# restart 3 ms), each run checked by ftsim check; prints per run the
# verdict, the first record of a victim after its failure and the delay of
# its last one before its replacement (none: the victim stopped).
# Usage: analysis/failure_lag.sh FTSIM (about 12 s)
# measure.sh FTSIM: lag of failed ranks per protocol, on-line and any-call replay
F=$1; d=$(mktemp -d); trap 'rm -rf $d' EXIT
printf 'detection 0.001\nrestart 0.003\nfail 3 at 0.012\nfail 1 at 0.021\nfail 2 at 0.0331\n' > $d/sc.txt
for app in ring cg lu; do
  $F record --platform gige --np 8 --app $app -o $d/$app.otf2 >/dev/null 2>&1
done
for p in pcl vcl pessimist v2 bookmark; do
  for app in ring cg lu; do
    for mode in online replay; do
      if [ $mode = online ]; then
        $F run --platform gige --np 8 --app $app --protocol $p --set period=0.004 \
          --set image_mb=0.01 --scenario $d/sc.txt --trace $d/t > $d/out 2>&1
      else
        $F run --replay $d/$app.otf2 --platform gige --protocol $p --set period=0.004 \
          --set image_mb=0.01 --scenario $d/sc.txt --trace $d/t > $d/out 2>&1
      fi
      rc=$?
      c=$($F check $d/t 2>&1)
      lag=$(echo "$c" | sed -n "s/.*, \([0-9.]*\) s after), before.*/\1/p")
      first=$(echo "$c" | sed -n "s/.*acted after: '\([a-z-]*\)'.*/\1/p")
      ok=$(echo "$c" | sed -n 's/ftsim check: \(ok\|violation ([a-z-]*)\).*/\1/p')
      echo "$p $app $mode rc=$rc $(grep -o '"verified":[a-z]*' $d/out) check=$ok first=$first maxlag=$lag"
      rm -f $d/t.*
    done
  done
done
