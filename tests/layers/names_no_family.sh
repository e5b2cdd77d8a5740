#!/bin/sh
# The generic runtime names no protocol family (issue 15, item 1): prints
# every line of FILE... that names a protocol, a family, a family's flag
# or its roles and messages, and fails if there is one. A paper's name
# (pcl-vs-vcl-sc06, pessimist-openmpi-v...) is allowed: code that follows
# a paper quotes it.
#
# Usage: names_no_family.sh FILE...
set -u
[ $# -ge 1 ] || { echo "usage: names_no_family.sh FILE..." >&2; exit 2; }
words='has_scheduler|restarts_alone|recovers|pcl|vcl|pessimist|v2|logger|bookmark'
words="$words|scheduler|message.logging|channel.state|coordinated"
words="$words|FT_FAMILY|FT_WIRE_ML|FT_ML_|ft_ml_|ft_cs_"
words="$words|FT_WIRE_REPLAY|FT_TAG_REPLAY|FT_TAG_ML"
papers='pcl-vs-vcl-(sc06|fgcs08)|pessimist-openmpi-v'
status=0
for f in "$@"; do
  [ -f "$f" ] || { echo "names_no_family.sh: no file $f" >&2; exit 2; }
  hits=$(sed -E "s/$papers//g" "$f" | grep -niE "$words")
  if [ -n "$hits" ]; then
    echo "$f names a protocol family (the generic runtime reaches it only through rt->driver):"
    echo "$hits" | sed 's/^/  /'
    status=1
  fi
done
[ $status -eq 0 ] && echo "$# file(s) name no protocol family"
exit $status
