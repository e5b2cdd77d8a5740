#!/bin/sh
# The generic runtime names no protocol family (issue 15, item 1): outside
# the families' directories (sim/runtime/coordinated/, channel_state/,
# message_logging/), no .c file of sim/runtime/ names a family's state,
# functions, enum constants (its wire kinds and tags too) or protocols,
# except drivers.c, the one file that maps a family to its driver table
# (driver.h); nor do the generic headers of the control plane and the
# drivers (control.h, driver.h), where a new family must not need to add
# its kinds. Paper citations
# (pcl-vs-vcl-sc06, pessimist-openmpi-v) and test names (user/c_pcl_mtbf,
# e2e/vcl_...) in comments are allowed: they are stripped before the grep.
#
# Usage: families.sh RUNTIME_DIR [ALLOWED_FILE...]
#   RUNTIME_DIR   sim/runtime
#   ALLOWED_FILE  a further file name (service.c) not checked yet
# Exit status: 0 clean, 1 some file names a family (listed), 2 bad usage.
set -u
[ $# -ge 1 ] && [ -d "$1" ] || { echo "usage: families.sh RUNTIME_DIR [ALLOWED_FILE...]" >&2; exit 2; }
dir=$1
shift
pattern='rt->ml\b\|ml_state\|FT_FAMILY_\|ft_ml_\|ft_channel_\|ft_cs_\|rt->cs\b\|vcl\|pcl\|pessimist'
pattern="$pattern"'\|bookmark\|FT_WIRE_ML\|FT_WIRE_REPLAY\|FT_TAG_REPLAY\|FT_TAG_ML'
found=0
for f in "$dir"/*.c "$dir"/control.h "$dir"/driver.h; do
  name=$(basename "$f")
  skip=0
  for allowed in drivers.c "$@"; do
    [ "$name" = "$allowed" ] && skip=1
  done
  [ $skip = 1 ] && continue
  hits=$(sed -e 's/[a-z0-9]*-vs-[a-z0-9]*-[a-z0-9]*//g' \
             -e 's/pessimist-openmpi-v//g' \
             -e 's#\(user\|e2e\|runtime\|cli\)/[A-Za-z0-9_-]*##g' "$f" |
         grep -n "$pattern")
  if [ -n "$hits" ]; then
    echo "$hits" | sed "s#^#$name:#"
    found=1
  fi
done
[ $found = 0 ] && echo "families.sh: the generic runtime names no family"
exit $found
