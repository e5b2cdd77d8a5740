#!/bin/sh
# Prints a flat cluster as an explicit SimGrid 4.1 zone whose hosts each
# carry a <disk>: SimGrid 3.32's <cluster> tag cannot declare disks (its
# DTD allows <prop> only), so the platform files spell each cluster out.
# The zone is what <cluster> builds (src/surf/sg_platf.cpp,
# sg_platf_new_cluster_flat): a Cluster (star) zone, one SPLITDUPLEX link
# ID_link_N per host with the same name and values, created in the same
# order (host, its link), then the router; routes are the same two links
# (host up, host down), so the network's numbers do not change.
#
# Usage: cluster_zone.sh ID PREFIX FIRST LAST SPEED CORES BW LAT ROUTER \
#          READ_BW WRITE_BW [INDENT]
# e.g.   cluster_zone.sh gdx-nodes gdx- 1 216 2Gf 2 930.4Mbps 30us \
#          gdx-router 60MBps 50MBps "    "
set -eu
[ $# -ge 11 ] || { sed -n '2,14p' "$0" >&2; exit 2; }
id=$1 prefix=$2 first=$3 last=$4 speed=$5 cores=$6 bw=$7 lat=$8 router=$9
shift 9
read_bw=$1 write_bw=$2 in=${3:-}
echo "$in<zone id=\"$id\" routing=\"Cluster\">"
i=$first
while [ "$i" -le "$last" ]; do
  h=$prefix$i l=${id}_link_$i
  echo "$in  <host id=\"$h\" speed=\"$speed\" core=\"$cores\"><disk id=\"$h-disk\" read_bw=\"$read_bw\" write_bw=\"$write_bw\"/></host>"
  echo "$in  <link id=\"$l\" bandwidth=\"$bw\" latency=\"$lat\" sharing_policy=\"SPLITDUPLEX\"/>"
  echo "$in  <host_link id=\"$h\" up=\"${l}_UP\" down=\"${l}_DOWN\"/>"
  i=$((i + 1))
done
echo "$in  <router id=\"$router\"/>"
echo "$in</zone>"
