! MPI's error semantics through ftsim's Fortran bindings (sim/runtime/errors.c):
! with MPI_ERRORS_RETURN on MPI_COMM_WORLD, mpi_recv from source -1 (Open
! MPI's MPI_ANY_SOURCE hard-coded) sets ierror to an MPI_ERR_RANK code and
! mpi_comm_get_errhandler gives MPI_ERRORS_RETURN back; a handler made with
! mpi_comm_create_errhandler is called with the communicator's Fortran
! handle and the code; a ring exchange still works afterwards. With an
! argument "fatal", mpi_recv from -1 under the default handler must end
! the run. Prints "f_err: N checks passed" or "f_err: FAILED".
! What the handler saw, in a common block (a module's .mod file would clash
! between the SMPI and real builds of this program).
subroutine on_error(comm, code)
  implicit none
  integer :: comm, code
  integer :: seen_comm, seen_code, seen_calls
  common /seen/ seen_comm, seen_code, seen_calls
  seen_comm = comm
  seen_code = code
  seen_calls = seen_calls + 1
end subroutine on_error

program f_err
  implicit none
  include 'mpif.h'
  external :: on_error
  integer :: seen_comm, seen_code, seen_calls
  common /seen/ seen_comm, seen_code, seen_calls
  integer :: ierr, rank, nproc, got, cls, fails, nchecks, total, handler, h
  integer :: status(MPI_STATUS_SIZE)
  character(len=16) :: mode

  fails = 0
  nchecks = 0
  seen_calls = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  mode = ''
  if (command_argument_count() > 0) call get_command_argument(1, mode)
  if (mode == 'fatal') then
    call mpi_recv(got, 1, MPI_INTEGER, -1, 0, MPI_COMM_WORLD, status, ierr)
    print '(a, i0)', 'f_err: fatal: the invalid call returned ', ierr
    call mpi_finalize(ierr)
    stop 3
  end if

  call mpi_comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call mpi_comm_get_errhandler(MPI_COMM_WORLD, h, ierr)
  call check(h == MPI_ERRORS_RETURN, 'get_errhandler')
  call mpi_recv(got, 1, MPI_INTEGER, -1, 0, MPI_COMM_WORLD, status, ierr)
  call mpi_error_class(ierr, cls, got)
  call check(ierr /= MPI_SUCCESS .and. cls == MPI_ERR_RANK, 'errors_return')

  call mpi_comm_create_errhandler(on_error, handler, ierr)
  call mpi_comm_set_errhandler(MPI_COMM_WORLD, handler, ierr)
  call mpi_send(rank, -1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, ierr)
  call mpi_error_class(ierr, cls, got)
  call check(cls == MPI_ERR_COUNT .and. seen_calls == 1 .and. &
             seen_comm == MPI_COMM_WORLD .and. seen_code == ierr, 'user handler')
  call mpi_comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierr)

  call mpi_sendrecv(rank, 1, MPI_INTEGER, mod(rank + 1, nproc), 5, got, 1, &
                    MPI_INTEGER, mod(rank + nproc - 1, nproc), 5, &
                    MPI_COMM_WORLD, status, ierr)
  call check(got == mod(rank + nproc - 1, nproc), 'goes on')

  call mpi_allreduce(fails, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call ft_report_result(merge(1, 0, total == 0), dble(total))
  if (rank == 0) then
    if (total == 0) then
      print '(a, i0, a)', 'f_err: ', nchecks, ' checks passed'
    else
      print '(a, i0, a)', 'f_err: FAILED ', total, ' checks'
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
      print '(a, i0, 2a)', 'f_err: rank ', rank, ' FAILED ', what
    end if
  end subroutine check
end program f_err
