! fring: a Fortran 90 ring through mpif.h, the Fortran counterpart of ring.
!
! Checks that a Fortran program runs under ftsim (SMPI or a real MPI) with
! the runtime's mpi_*_ bindings, on a workload that verifies itself:
!   1. a token passes once around the ring with mpi_send / mpi_recv, every
!      rank adding rank + 1: rank 0 gets it back as n(n+1)/2;
!   2. every rank sends a vector to its right neighbour with mpi_isend /
!      mpi_irecv completed by mpi_waitall, then another one the other way
!      completed by two mpi_wait: each checks what its neighbour put in;
!   3. mpi_allreduce of the ranks must give n(n-1)/2, mpi_bcast must bring
!      rank 0's value to every rank, and everyone meets at mpi_barrier.
! Rank 0 prints "fring: <n> ranks, <k> checks: verified" (or FAILED), and
! every rank reports the verdict to ftsim (ft_report_result, through
! ISO_C_BINDING).
!
! Checkpoints (ft.h, through the runtime's Fortran entry points ft_protect_
! and ft_snapshot_): the three parts are the steps of a loop with a safe
! point at the top of each step, where every message of the earlier steps
! has been received and no request is pending. Protected: the step and the
! check counts (fails, checks); they are VOLATILE since ft_snapshot writes
! them behind the compiler's back, and the loop is a DO WHILE because a DO
! loop's trip count is fixed when it starts. After a rollback the program
! runs again from the top: every variable is assigned before it is read
! (none is initialised in its declaration, which would make it static and
! keep its value), and the first ft_snapshot restores the protected ones.
program fring
  use iso_c_binding, only: c_int, c_double
  implicit none
  include 'mpif.h'
  integer, parameter :: nvec = 64, tag_token = 11, tag_right = 12, &
                        tag_left = 13, nsteps = 3
  integer :: ierr, rank, nproc, right, left, token, i, allfails, total, st
  integer, volatile :: step, fails, checks
  integer :: reqs(2), status(MPI_STATUS_SIZE), statuses(MPI_STATUS_SIZE, 2)
  double precision :: outv(nvec), inv(nvec), shared
  integer, external :: ft_snapshot
  interface
    subroutine ft_report_result(verified, value) bind(C, name='ft_report_result')
      import :: c_int, c_double
      integer(c_int), value :: verified
      real(c_double), value :: value
    end subroutine ft_report_result
  end interface

  fails = 0
  checks = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  right = mod(rank + 1, nproc)
  left = mod(rank - 1 + nproc, nproc)
  call ft_protect(0, step, int(storage_size(step) / 8, 8))
  call ft_protect(1, fails, int(storage_size(fails) / 8, 8))
  call ft_protect(2, checks, int(storage_size(checks) / 8, 8))

  step = 1
  do while (step <= nsteps)
    st = ft_snapshot() ! may restore step, fails, checks
    select case (step)
    case (1)
      ! 1. The token, once around with blocking calls.
      if (rank == 0) then
        token = 1
        call mpi_send(token, 1, MPI_INTEGER, right, tag_token, &
                      MPI_COMM_WORLD, ierr)
        call mpi_recv(token, 1, MPI_INTEGER, left, tag_token, &
                      MPI_COMM_WORLD, status, ierr)
        call check(token == nproc * (nproc + 1) / 2)
      else
        call mpi_recv(token, 1, MPI_INTEGER, left, tag_token, &
                      MPI_COMM_WORLD, status, ierr)
        call check(token == rank * (rank + 1) / 2 .and. &
                   status(MPI_SOURCE) == left)
        token = token + rank + 1
        call mpi_send(token, 1, MPI_INTEGER, right, tag_token, &
                      MPI_COMM_WORLD, ierr)
      end if
    case (2)
      ! 2. Vectors to the right (mpi_waitall), then to the left (mpi_wait).
      do i = 1, nvec
        outv(i) = 1000.0d0 * rank + i
      end do
      call mpi_irecv(inv, nvec, MPI_DOUBLE_PRECISION, left, tag_right, &
                     MPI_COMM_WORLD, reqs(1), ierr)
      call mpi_isend(outv, nvec, MPI_DOUBLE_PRECISION, right, tag_right, &
                     MPI_COMM_WORLD, reqs(2), ierr)
      call mpi_waitall(2, reqs, statuses, ierr)
      call check(all(inv == [(1000.0d0 * left + i, i = 1, nvec)]))
      call mpi_irecv(inv, nvec, MPI_DOUBLE_PRECISION, right, tag_left, &
                     MPI_COMM_WORLD, reqs(1), ierr)
      call mpi_isend(outv, nvec, MPI_DOUBLE_PRECISION, left, tag_left, &
                     MPI_COMM_WORLD, reqs(2), ierr)
      call mpi_wait(reqs(2), status, ierr)
      call mpi_wait(reqs(1), status, ierr)
      call check(all(inv == [(1000.0d0 * right + i, i = 1, nvec)]) .and. &
                 status(MPI_SOURCE) == right)
    case (3)
      ! 3. Collectives.
      call mpi_allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, &
                         MPI_COMM_WORLD, ierr)
      call check(total == nproc * (nproc - 1) / 2)
      shared = 0.0d0
      if (rank == 0) shared = 42.5d0 + nproc
      call mpi_bcast(shared, 1, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
      call check(shared == 42.5d0 + nproc)
      call mpi_barrier(MPI_COMM_WORLD, ierr)
    end select
    step = step + 1
  end do

  call mpi_allreduce(fails, allfails, 1, MPI_INTEGER, MPI_SUM, &
                     MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (allfails == 0) then
      write (*, '(a,i0,a,i0,a)') 'fring: ', nproc, ' ranks, ', checks, &
        ' checks per rank: verified'
    else
      write (*, '(a,i0,a)') 'fring: ', allfails, ' checks failed: FAILED'
    end if
  end if
  call ft_report_result(merge(1_c_int, 0_c_int, allfails == 0), &
                        real(allfails, c_double))
  call mpi_finalize(ierr)

contains

  subroutine check(ok)
    logical, intent(in) :: ok
    checks = checks + 1
    if (.not. ok) fails = fails + 1
  end subroutine check

end program fring
