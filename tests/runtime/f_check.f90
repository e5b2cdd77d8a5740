! Checks ftsim's Fortran bindings (mpif.h): ring send/recv, isend/irecv +
! waitall/waitany, allreduce (also MPI_IN_PLACE), bcast, reduce, gather,
! comm_split, barrier; comm_group of the world, scan, exscan, issend,
! sendrecv_replace, cart_create and cart_sub (issue 13: without bindings of
! their own they went to the MPI's, behind the runtime's back: the world's
! group counted the service ranks). Prints "f_check: N checks passed" or
! "f_check: FAILED".
program f_check
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nproc, right, left, got, fails, nchecks, total
  integer :: half, hrank, hsize, idx, i
  integer :: reqs(2), status(MPI_STATUS_SIZE), statuses(MPI_STATUS_SIZE, 2)
  integer :: bufs(2), sums(1), gathered(64)
  integer :: group, gsize, grid, column, dims(2), req
  logical :: periods(2), remain(2)
  double precision :: x, y

  fails = 0
  nchecks = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  right = mod(rank + 1, nproc)
  left = mod(rank - 1 + nproc, nproc)

  if (mod(rank, 2) == 0) then
    call mpi_send(rank, 1, MPI_INTEGER, right, 7, MPI_COMM_WORLD, ierr)
    call mpi_recv(got, 1, MPI_INTEGER, left, 7, MPI_COMM_WORLD, status, ierr)
  else
    call mpi_recv(got, 1, MPI_INTEGER, left, 7, MPI_COMM_WORLD, status, ierr)
    call mpi_send(rank, 1, MPI_INTEGER, right, 7, MPI_COMM_WORLD, ierr)
  end if
  call check(got == left .and. status(MPI_SOURCE) == left, 'send/recv ring')

  call mpi_irecv(bufs(1), 1, MPI_INTEGER, left, 8, MPI_COMM_WORLD, reqs(1), ierr)
  call mpi_isend(rank, 1, MPI_INTEGER, right, 8, MPI_COMM_WORLD, reqs(2), ierr)
  call mpi_waitall(2, reqs, statuses, ierr)
  call check(bufs(1) == left .and. statuses(MPI_TAG, 1) == 8, 'isend/irecv/waitall')

  call mpi_irecv(bufs(2), 1, MPI_INTEGER, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, reqs(1), ierr)
  call mpi_send(rank, 1, MPI_INTEGER, right, 9, MPI_COMM_WORLD, ierr)
  call mpi_waitany(1, reqs, idx, status, ierr)
  call check(idx == 1 .and. bufs(2) == left .and. status(MPI_SOURCE) == left, 'waitany any_source')

  x = rank + 1
  call mpi_allreduce(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(nint(y) == nproc * (nproc + 1) / 2, 'allreduce')
  sums(1) = 1
  call mpi_allreduce(MPI_IN_PLACE, sums, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(sums(1) == nproc, 'allreduce in place')
  got = -1
  if (rank == nproc - 1) got = 99
  call mpi_bcast(got, 1, MPI_INTEGER, nproc - 1, MPI_COMM_WORLD, ierr)
  call check(got == 99, 'bcast')
  total = 0
  call mpi_reduce(rank, total, 1, MPI_INTEGER, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) call check(total == nproc - 1, 'reduce max')
  call mpi_gather(rank, 1, MPI_INTEGER, gathered, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) call check(all([(gathered(i) == i - 1, i = 1, min(nproc, 64))]), 'gather')

  call mpi_comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, half, ierr)
  call mpi_comm_size(half, hsize, ierr)
  call mpi_comm_rank(half, hrank, ierr)
  call check(hrank == rank / 2, 'comm_split rank')
  call mpi_barrier(half, ierr)
  call mpi_comm_free(half, ierr)

  call mpi_comm_group(MPI_COMM_WORLD, group, ierr)
  call mpi_group_size(group, gsize, ierr)
  call check(gsize == nproc, 'comm_group of the world')
  call mpi_group_free(group, ierr)
  call mpi_scan(rank + 1, got, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(got == (rank + 1) * (rank + 2) / 2, 'scan')
  got = -1
  call mpi_exscan(rank + 1, got, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank > 0) call check(got == rank * (rank + 1) / 2, 'exscan')
  call mpi_irecv(got, 1, MPI_INTEGER, left, 10, MPI_COMM_WORLD, req, ierr)
  call mpi_issend(rank, 1, MPI_INTEGER, right, 10, MPI_COMM_WORLD, reqs(1), ierr)
  call mpi_wait(req, status, ierr)
  call mpi_wait(reqs(1), status, ierr)
  call check(got == left, 'issend')
  got = rank
  call mpi_sendrecv_replace(got, 1, MPI_INTEGER, right, 11, left, 11, MPI_COMM_WORLD, status, ierr)
  call check(got == left, 'sendrecv_replace')
  dims = [nproc, 1]
  periods = [.true., .false.]
  remain = [.true., .false.]
  call mpi_cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., grid, ierr)
  call mpi_cart_sub(grid, remain, column, ierr)
  call mpi_comm_size(column, gsize, ierr)
  call check(gsize == nproc, 'cart_sub')
  call mpi_comm_free(column, ierr)
  call mpi_comm_free(grid, ierr)

  call mpi_allreduce(fails, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call ft_report_result(merge(1, 0, total == 0), dble(total))
  if (rank == 0) then
    if (total == 0) then
      print '(a, i0, a)', 'f_check: ', nchecks, ' checks passed'
    else
      print '(a, i0, a)', 'f_check: FAILED ', total, ' checks'
    end if
  end if
  call mpi_finalize(ierr)

contains
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    nchecks = nchecks + 1
    if (.not. ok) then
      fails = fails + 1
      print '(a, i0, 2a)', 'f_check: rank ', rank, ' FAILED ', what
    end if
  end subroutine check
end program f_check
