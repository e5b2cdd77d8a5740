! f_bottom: Fortran's MPI_BOTTOM through ftsim's Fortran bindings (issue 14,
! item 8). Each rank describes two arrays (integers and doubles, separate
! variables) by one struct datatype of their absolute addresses
! (MPI_GET_ADDRESS) and sends it from MPI_BOTTOM around a ring with
! MPI_SEND/MPI_RECV and with MPI_ISEND/MPI_IRECV/MPI_WAITALL, receiving
! from MPI_BOTTOM into two other arrays described the same way; every value
! is checked, ITERS times (argument 1, default 20), a safe point at the top
! of each; then the same with persistent requests made once per run of the
! program (MPI_SEND_INIT, MPI_RECV_INIT, MPI_STARTALL, MPI_WAITALL, which
! leaves them allocated, MPI_START and MPI_WAIT, MPI_REQUEST_FREE at the
! end). Before, the bindings passed the address of the library's
! MPI_BOTTOM variable as the buffer: the absolute addresses were added to
! it. Prints "f_bottom: N iterations, verified" or "FAILED" and reports
! the verdict (ft_report_result).
program f_bottom
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nproc, right, left, k, iters, i, ok, all
  integer, volatile :: kk, fails
  integer :: ia(3), ib(3), tsend, trecv, st, reqs(2), preqs(2)
  double precision :: da(2), db(2)
  integer :: blocks(2), types(2), status(MPI_STATUS_SIZE)
  integer(kind=MPI_ADDRESS_KIND) :: displs(2)
  character(len=16) :: arg
  integer, external :: ft_snapshot

  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  iters = 20
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) iters
  end if
  right = mod(rank + 1, nproc)
  left = mod(rank - 1 + nproc, nproc)
  blocks = (/3, 2/)
  types = (/MPI_INTEGER, MPI_DOUBLE_PRECISION/)
  call mpi_get_address(ia, displs(1), ierr)
  call mpi_get_address(da, displs(2), ierr)
  call mpi_type_create_struct(2, blocks, displs, types, tsend, ierr)
  call mpi_type_commit(tsend, ierr)
  call mpi_get_address(ib, displs(1), ierr)
  call mpi_get_address(db, displs(2), ierr)
  call mpi_type_create_struct(2, blocks, displs, types, trecv, ierr)
  call mpi_type_commit(trecv, ierr)

  call mpi_recv_init(MPI_BOTTOM, 1, trecv, left, 8, MPI_COMM_WORLD, &
                     preqs(1), ierr)
  call mpi_send_init(MPI_BOTTOM, 1, tsend, right, 8, MPI_COMM_WORLD, &
                     preqs(2), ierr)
  fails = 0
  call ft_protect(0, kk, int(storage_size(kk) / 8, 8))
  call ft_protect(1, fails, int(storage_size(fails) / 8, 8))
  kk = 0
  do while (kk < iters)
    st = ft_snapshot()
    k = kk
    call ft_compute(2.0d6)
    do i = 1, 3
      ia(i) = rank * 100 + k * 10 + i
    end do
    da = (/rank + 0.5d0 * k, -1.0d0 * rank/)
    ib = -1
    db = 0.0d0
    if (mod(rank, 2) == 0) then
      call mpi_send(MPI_BOTTOM, 1, tsend, right, 5, MPI_COMM_WORLD, ierr)
      call mpi_recv(MPI_BOTTOM, 1, trecv, left, 5, MPI_COMM_WORLD, status, ierr)
    else
      call mpi_recv(MPI_BOTTOM, 1, trecv, left, 5, MPI_COMM_WORLD, status, ierr)
      call mpi_send(MPI_BOTTOM, 1, tsend, right, 5, MPI_COMM_WORLD, ierr)
    end if
    call check(left, k)
    ib = -1
    db = 0.0d0
    call mpi_irecv(MPI_BOTTOM, 1, trecv, left, 6, MPI_COMM_WORLD, reqs(1), ierr)
    call mpi_isend(MPI_BOTTOM, 1, tsend, right, 6, MPI_COMM_WORLD, reqs(2), ierr)
    call mpi_waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
    call check(left, k)
    ib = -1
    db = 0.0d0
    if (mod(k, 2) == 0) then
      call mpi_startall(2, preqs, ierr)
      call mpi_waitall(2, preqs, MPI_STATUSES_IGNORE, ierr)
    else
      call mpi_start(preqs(1), ierr)
      call mpi_start(preqs(2), ierr)
      call mpi_wait(preqs(2), status, ierr)
      call mpi_wait(preqs(1), status, ierr)
      if (status(MPI_SOURCE) /= left .or. status(MPI_TAG) /= 8) &
        fails = fails + 1
    end if
    if (preqs(1) == MPI_REQUEST_NULL .or. preqs(2) == MPI_REQUEST_NULL) &
      fails = fails + 1
    call check(left, k)
    kk = kk + 1
  end do
  call mpi_request_free(preqs(1), ierr)
  call mpi_request_free(preqs(2), ierr)
  if (preqs(1) /= MPI_REQUEST_NULL .or. preqs(2) /= MPI_REQUEST_NULL) &
    fails = fails + 1
  call queries()
  call mpi_allreduce(fails, all, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  ok = 0
  if (all == 0) ok = 1
  if (rank == 0) then
    if (ok == 1) then
      write (*, '(a,i0,a)') 'f_bottom: ', iters, ' iterations, verified'
    else
      write (*, '(a,i0,a)') 'f_bottom: ', all, ' wrong values: FAILED'
    end if
  end if
  call ft_report_result(ok, dble(iters))
  call mpi_type_free(tsend, ierr)
  call mpi_type_free(trecv, ierr)
  call mpi_finalize(ierr)

contains

  ! MPI_UNIVERSE_SIZE is the application's size, MPI_TAG_UB an INTEGER of
  ! at least 32767, the world has no topology, and MPI_GET_ELEMENTS of a
  ! message of 3 integers is 3.
  subroutine queries()
    integer(kind=MPI_ADDRESS_KIND) :: v
    logical :: flag
    integer :: topo, n, three(3), got(3)
    call mpi_comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, v, flag, ierr)
    if (.not. flag .or. v /= nproc) fails = fails + 1
    call mpi_comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, v, flag, ierr)
    if (.not. flag .or. v < 32767) fails = fails + 1
    call mpi_topo_test(MPI_COMM_WORLD, topo, ierr)
    if (topo /= MPI_UNDEFINED) fails = fails + 1
    three = (/1, 2, 3/)
    call mpi_sendrecv(three, 3, MPI_INTEGER, right, 9, got, 3, MPI_INTEGER, &
                      left, 9, MPI_COMM_WORLD, status, ierr)
    call mpi_get_elements(status, MPI_INTEGER, n, ierr)
    if (n /= 3) fails = fails + 1
  end subroutine queries

  subroutine check(from, step)
    integer, intent(in) :: from, step
    integer :: j
    do j = 1, 3
      if (ib(j) /= from * 100 + step * 10 + j) fails = fails + 1
    end do
    if (db(1) /= from + 0.5d0 * step .or. db(2) /= -1.0d0 * from) &
      fails = fails + 1
  end subroutine check
end program f_bottom
