! A Fortran call the runtime refuses (sim/runtime/unsupported.c): its own
! binding must stop the run, or SimGrid's (or the MPI's) would make the
! call behind the runtime's back. Prints "f_refused: mpi_ibcast returned"
! only if it did not stop.
program f_refused
  implicit none
  include 'mpif.h'
  integer :: ierr, x, req, status(MPI_STATUS_SIZE)

  x = 1
  call mpi_init(ierr)
  call mpi_ibcast(x, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, req, ierr)
  call mpi_wait(req, status, ierr)
  print '(a)', 'f_refused: mpi_ibcast returned'
  call mpi_finalize(ierr)
end program f_refused
