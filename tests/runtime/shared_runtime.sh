#!/bin/sh
# shared_runtime.sh MODULE...: each SMPI module of ftsim_mpi_program needs
# the runtime's shared library and holds no copy of the runtime (no MPI
# function of its own), so that SMPI loads the runtime once for all ranks
# (issue 18, item 1); a module that calls ft_compute defines it (ftsim run
# --compute auto reads it there). Exit 0 when every module does.
status=0
for m in "$@"; do
  if ! readelf -d "$m" | grep -q 'NEEDED.*\[libftsim_runtime_shared\.so\]'; then
    echo "shared_runtime: $m does not need libftsim_runtime_shared.so"
    status=1
  fi
  own=$(nm -D --defined-only "$m" | awk '$3 ~ /^P?MPI_/ { print $3 }' |
    head -n 3 | tr '\n' ' ')
  if [ -n "$own" ]; then
    echo "shared_runtime: $m holds the runtime's MPI functions ($own...)"
    status=1
  fi
  if nm -D --undefined-only "$m" | grep -qw ft_compute; then
    echo "shared_runtime: $m takes ft_compute from elsewhere"
    status=1
  fi
done
[ $status = 0 ] && echo "shared_runtime: $# modules share the runtime"
exit $status
