! heat: an ordinary MPI program in Fortran 90 (use mpi), built with ftsim's
! wrappers (Makefile: FC = ftsimf90) or its CMake package (CMakeLists.txt).
!
! One-dimensional heat diffusion on n points per rank, fixed ends: every
! step exchanges halo cells with both neighbours (mpi_irecv, mpi_isend,
! mpi_waitall) and every 10 steps sums the heat (mpi_allreduce). At the end
! rank 0 gathers the rod (mpi_gather), runs the same scheme alone and
! compares point by point (same arithmetic: identical results), broadcasts
! the verdict (mpi_bcast) and prints "heat: ... verified" (or FAILED);
! every rank reports it to ftsim (ft_report_result).
!
! Checkpoints (ftsim's Fortran entry points ft_protect and ft_snapshot): the
! step, the local rod and the last sum of the heat (all the loop carries from
! one step to the next) are protected and the top of each step is a safe
! point. They are VOLATILE (ft_snapshot writes them behind the compiler's
! back) and the loop is a DO WHILE (a DO loop's trip count is fixed when it
! starts). After a failure the program runs again from the top and the
! first ft_snapshot restores them.
program heat
  use mpi
  implicit none
  integer, parameter :: n = 32, steps = 400
  integer :: ierr, rank, nproc, left, right, i, st, ok
  integer, volatile :: s
  double precision, volatile :: u(0:n + 1)
  double precision, volatile :: total
  double precision :: next(n), mine, diff
  double precision, allocatable :: rod(:)
  integer :: reqs(4)
  integer, external :: ft_snapshot

  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  left = rank - 1
  if (rank == 0) left = MPI_PROC_NULL
  right = rank + 1
  if (rank == nproc - 1) right = MPI_PROC_NULL
  u = 0.0d0
  do i = 1, n
    u(i) = initial(rank * n + i - 1)
  end do
  total = 0.0d0
  call ft_protect(0, s, int(storage_size(s) / 8, 8))
  call ft_protect(1, u, int(size(u) * storage_size(u(0)) / 8, 8))
  call ft_protect(2, total, int(storage_size(total) / 8, 8))

  s = 0
  do while (s < steps)
    st = ft_snapshot() ! safe point: checkpoint, or restore s and u
    call mpi_irecv(u(n + 1), 1, MPI_DOUBLE_PRECISION, right, 0, &
                   MPI_COMM_WORLD, reqs(1), ierr)
    call mpi_irecv(u(0), 1, MPI_DOUBLE_PRECISION, left, 1, &
                   MPI_COMM_WORLD, reqs(2), ierr)
    call mpi_isend(u(1), 1, MPI_DOUBLE_PRECISION, left, 0, &
                   MPI_COMM_WORLD, reqs(3), ierr)
    call mpi_isend(u(n), 1, MPI_DOUBLE_PRECISION, right, 1, &
                   MPI_COMM_WORLD, reqs(4), ierr)
    call mpi_waitall(4, reqs, MPI_STATUSES_IGNORE, ierr)
    if (left == MPI_PROC_NULL) u(0) = 0.0d0
    if (right == MPI_PROC_NULL) u(n + 1) = 0.0d0
    do i = 1, n
      next(i) = u(i) + 0.25d0 * (u(i - 1) - 2.0d0 * u(i) + u(i + 1))
    end do
    u(1:n) = next
    if (mod(s, 10) == 0) then
      mine = sum(u(1:n))
      call mpi_allreduce(mine, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, &
                         MPI_COMM_WORLD, ierr)
    end if
    s = s + 1
  end do

  allocate (rod(n * nproc))
  call mpi_gather(u(1:n), n, MPI_DOUBLE_PRECISION, rod, n, &
                  MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  diff = 0.0d0
  ok = 0
  if (rank == 0) then
    diff = serial_difference(rod)
    if (diff == 0.0d0 .and. total > 0.0d0) ok = 1
  end if
  call mpi_bcast(ok, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (ok == 1) then
      write (*, '(a,i0,a,i0,a,f0.6,a)') 'heat: ', nproc, ' ranks, ', steps, &
        ' steps, heat ', total, ': verified'
    else
      write (*, '(a,es9.2,a)') 'heat: difference ', diff, ': FAILED'
    end if
  end if
  call ft_report_result(ok, diff)
  call mpi_finalize(ierr)

contains

  double precision function initial(global)
    integer, intent(in) :: global
    initial = mod(global, 7) * 1.5d0
  end function initial

  ! The whole rod alone: the largest difference with what the ranks got.
  double precision function serial_difference(got)
    double precision, intent(in) :: got(:)
    double precision :: w(0:size(got) + 1), nxt(size(got))
    integer :: k, j, m
    m = size(got)
    w = 0.0d0
    do j = 1, m
      w(j) = initial(j - 1)
    end do
    do k = 1, steps
      do j = 1, m
        nxt(j) = w(j) + 0.25d0 * (w(j - 1) - 2.0d0 * w(j) + w(j + 1))
      end do
      w(1:m) = nxt
    end do
    serial_difference = maxval(abs(got - w(1:m)))
  end function serial_difference

end program heat
