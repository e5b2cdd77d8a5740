C     pi: an ordinary MPI program in Fortran 77 (mpif.h), built with
C     ftsim's wrappers (Makefile: FC = ftsimff) or its CMake package.
C
C     Each round rank 0 sends the number of intervals to every rank
C     (mpi_send), every rank integrates 4/(1+x*x) over its share of them
C     with the midpoint rule and sends its part back (mpi_recv on rank
C     0); the same sum is also made with mpi_allreduce. Both must agree
C     and be within 1e-6 of pi, on every round. Rank 0 prints
C     "pi: ... verified" (or FAILED), broadcasts the verdict (mpi_bcast)
C     and every rank reports it to ftsim (ft_report_result).
C
C     No safe point: after a failure the program runs again from the
C     top. Built the SMPI way (smpiff turns "program pi" into
C     "subroutine user_main") it runs as well: ftsim's runtime restarts
C     user_main_ as smpirun starts it.
      program pi
      implicit none
      include 'mpif.h'
      integer nround
      parameter (nround = 150)
      integer ierr, rank, nproc, n, r, k, fails
      integer status(MPI_STATUS_SIZE)
      double precision part, total, sum, got, err, worst
      double precision pi0
      parameter (pi0 = 3.14159265358979323846d0)

      call mpi_init(ierr)
      call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
      call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
      fails = 0
      worst = 0.0d0
      do 30 k = 1, nround
        n = 1000 + 10 * k
        if (rank .eq. 0) then
          do 10 r = 1, nproc - 1
            call mpi_send(n, 1, MPI_INTEGER, r, 1, MPI_COMM_WORLD, ierr)
   10     continue
        else
          call mpi_recv(n, 1, MPI_INTEGER, 0, 1, MPI_COMM_WORLD,
     &                  status, ierr)
        end if
        call integrate(n, rank, nproc, part)
        call mpi_allreduce(part, total, 1, MPI_DOUBLE_PRECISION,
     &                     MPI_SUM, MPI_COMM_WORLD, ierr)
        if (rank .eq. 0) then
          sum = part
          do 20 r = 1, nproc - 1
            call mpi_recv(got, 1, MPI_DOUBLE_PRECISION, r, 2,
     &                    MPI_COMM_WORLD, status, ierr)
            sum = sum + got
   20     continue
          err = abs(sum - pi0)
          if (err .gt. worst) worst = err
          if (err .gt. 1.0d-6 .or. abs(sum - total) .gt. 1.0d-12)
     &      fails = fails + 1
        else
          call mpi_send(part, 1, MPI_DOUBLE_PRECISION, 0, 2,
     &                  MPI_COMM_WORLD, ierr)
        end if
   30 continue

      call mpi_bcast(fails, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
      if (rank .eq. 0) then
        if (fails .eq. 0) then
          write (*, '(a,i0,a,i0,a,es9.2,a)') 'pi: ', nproc, ' ranks, ',
     &      nround, ' rounds, error ', worst, ': verified'
        else
          write (*, '(a,i0,a)') 'pi: ', fails, ' rounds wrong: FAILED'
        end if
      end if
      if (fails .eq. 0) then
        call ft_report_result(1, worst)
      else
        call ft_report_result(0, worst)
      end if
      call mpi_finalize(ierr)
      end program pi

C     The midpoint rule over intervals rank+1, rank+1+nproc, ... of n.
      subroutine integrate(n, rank, nproc, part)
      implicit none
      integer n, rank, nproc, i
      double precision part, h, x
      h = 1.0d0 / n
      part = 0.0d0
      do 40 i = rank + 1, n, nproc
        x = h * (i - 0.5d0)
        part = part + 4.0d0 / (1.0d0 + x * x)
   40 continue
      part = part * h
      end
