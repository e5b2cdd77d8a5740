/* The few things that differ between SMPI and a real MPI, behind one
 * interface: backend_smpi.c and backend_real.c each implement all of it, so
 * no runtime logic is written twice. */
#ifndef FT_BACKEND_H
#define FT_BACKEND_H

#include <mpi.h>
#include <stdint.h>

/* Non-zero under SMPI. */
int ft_backend_simulated(void);

/* Advances this rank's simulated clock by `flops` operations at its host's
 * speed (SMPI); does nothing for a real MPI. */
void ft_backend_compute(double flops);

/* Computes `flops` as ft_backend_compute does, but for at most `seconds` of
 * simulated time (the rank's failure time: a computation in progress ends
 * there, whatever the host's load). Returns the flops not computed: 0 when
 * the computation ended in time. Under a real MPI nothing is computed (0). */
double ft_backend_compute_for(double flops, double seconds);

/* Ends the calling rank after MPI_Finalize, without returning to the
 * application: a service rank never runs the application's main. Under SMPI
 * this ends only the calling simulated process. */
_Noreturn void ft_backend_exit_rank(int code);

/* The entry points of the program module whose code holds `caller` (an
 * address in it: the return address of the application's MPI_Init), for a
 * runtime that is a shared library of its own (SMPI: cmake/ftsim.cmake's
 * ftsim_runtime_shared, one copy for all ranks, where a weak `main` of the
 * runtime would name one rank's copy of the program for every rank).
 * Returns 1 with *c_main (`main`) and *f_main (`user_main_`, smpiff's
 * Fortran main program) set, each NULL when the module has none; 0, both
 * untouched, when the runtime is inside the program (its own weak
 * references are the program's); -1 when the module cannot be found. */
int ft_backend_entry_points(const void *caller, int (**c_main)(int, char **),
                            void (**f_main)(void));

/* Current time in seconds: the simulated clock under SMPI (read without a
 * simulation call, unlike MPI_Wtime), MPI_Wtime for a real MPI. */
double ft_backend_now(void);

/* Ends the whole run with exit status `code` (> 0), every rank and service
 * included. Under SMPI, MPI_Abort kills the simulated processes but smpirun
 * then reports a deadlock and exits 0, so the simulation process itself
 * exits; with a real MPI this is PMPI_Abort on MPI_COMM_WORLD. */
_Noreturn void ft_backend_abort(int code);

/* Name of the host the calling rank runs on (a platform host under SMPI). */
const char *ft_backend_host_name(void);

/* ft_backend_now, after charging the caller's measured computation up to
 * here (SMPI injects it at the next MPI call's entry: a wrapper's first
 * look at the clock would miss it); the timer restarts after. For the
 * recorder (record.c): the computation between two calls. */
double ft_backend_now_charged(void);

/* Whether ft_backend_now_charged may differ from ft_backend_now: SMPI with
 * measured computation (smpi/simulate-computation, on unless the run turns
 * it off). Otherwise it only stops and restarts the benchmark timer, two
 * clock_gettime system calls, for the same clock: a caller that reads the
 * time often (a latency-only message's due time, 2p(p - 1) of them a vcl
 * wave) asks once and reads ft_backend_now then. 0 for a real MPI. */
int ft_backend_charges_computation(void);

/* Speed in flop/s of the host the calling rank runs on: the platform's
 * (SMPI; its first pstate), 0 for a real MPI (not known here: `ftsim
 * record --real` passes the machine's, record_speed). */
double ft_backend_host_speed(void);

/* Bandwidth in MB/s (10^6 bytes) of the route from the calling rank's
 * host to world rank `world_rank`'s: its slowest link (SMPI), 0 when not
 * known (a real MPI, or a rank this backend cannot place). */
double ft_backend_route_mbps(int world_rank);

/* The mean round trip, seconds, from the calling rank's host to a service
 * process that naps between polls (an event logger): the host's property
 * ftsim_service_rtt_s, which `ftsim calibrate` measures (SMPI), 0 without
 * one or under a real MPI (it is the real thing there). A value that is
 * not a number from 0 to 1 s ends the run, naming the host, the property
 * and the value. */
double ft_backend_service_rtt(void);

/* Fortran's special addresses (MPI_IN_PLACE, MPI_STATUS_IGNORE,
 * MPI_STATUSES_IGNORE are common-block symbols whose names differ between
 * SMPI and Open MPI). Each returns non-zero when `p` is that address. */
int ft_backend_f_in_place(const void *p);
/* 1 if p is the address of Fortran's MPI_BOTTOM. */
int ft_backend_f_bottom(const void *p);
int ft_backend_f_status_ignore(const void *p);
int ft_backend_f_statuses_ignore(const void *p);

/* Converts a C status into a Fortran INTEGER array (SMPI 3.32 lacks
 * MPI_Status_c2f; its Fortran status has the C struct's layout). */
void ft_backend_status_c2f(const MPI_Status *c, MPI_Fint *f);
/* The reverse: a Fortran status into a C one. */
void ft_backend_status_f2c(const MPI_Fint *f, MPI_Status *c);

/* Measured computation (SMPI): restarts this rank's benchmark timer
 * without charging what it measured. Call it right after an MPI call that
 * returns with the timer already running across other actors' work: SMPI
 * 3.32's MPI_Comm_dup, _split, _create and MPI_Cart_create make MPI calls
 * of their own inside, and the CPU time the other ranks spent meanwhile was
 * charged to the caller at its next MPI call (a checkpoint server started
 * 30 ms late). No-op for a real MPI. */
void ft_backend_bench_restart(void);

/* The library's error for a completed receive that a call's return code
 * does not carry: SMPI 3.32's MPI_Sendrecv and waits on a truncated receive
 * return MPI_SUCCESS and leave MPI_ERR_TRUNCATE in status->MPI_ERROR;
 * a real MPI returns the code itself and leaves that field unspecified
 * after a single completion (MPI-3.1, 3.2.5): MPI_SUCCESS there. */
int ft_backend_status_error(const MPI_Status *status);

/* Reference mode's kill failures (README, "Real failures: kill and
 * relaunch"): arms a kernel timer (timer_create on CLOCK_MONOTONIC,
 * SIGEV_SIGNAL) that sends SIGKILL to the calling process `seconds` of
 * wall time from now: the kernel kills it wherever it is, computing or
 * blocked in MPI, and nothing of it runs after. Returns a handle for
 * ft_backend_kill_cancel, or NULL when the timer cannot be armed (the
 * caller reports it). Under SMPI it does nothing and returns NULL: a
 * simulated failure is logical (turning a host off aborts SimGrid). */
void *ft_backend_kill_after(double seconds);

/* Disarms and frees a kill timer (NULL: nothing). */
void ft_backend_kill_cancel(void *handle);

/* Sleeps `seconds` (simulated under SMPI, real otherwise). */
void ft_backend_sleep(double seconds);

/* 1 when no message's transfer starts before a receive matches it: SMPI
 * with smpi/async-small-thresh 0 (the default; SimGrid 3.32,
 * src/smpi/mpi/smpi_request.cpp, start(): a smaller message goes to the
 * receiver's permanent "small" mailbox and starts at once; any other send
 * waits in its mailbox, detached or not). 0 for a real MPI and under a
 * non-zero smpi/async-small-thresh. */
int ft_backend_transfer_waits_for_receive(void);

/* The size in bytes below which a standard send (MPI_Isend, MPI_Send; not
 * a synchronous one) completes when it is posted: SMPI detaches it
 * (smpi/send-is-detached-thresh, 64 KiB by default; SimGrid 3.32,
 * smpi_request.cpp, start(): its bytes are copied, its request's wait or
 * waitany completes it at once with no simcall and no simulated time).
 * 0 for a real MPI, whose sends complete only as its progress allows. */
int ft_backend_send_done_below(void);

/* ---- Modelled bytes: the process image a checkpoint would write (BLCR)
 * beyond the protected buffers. Under SMPI they travel as a SimGrid
 * mailbox transfer of that simulated size, with no memory behind it, so they
 * compete with the application on the simulated network. In reference mode
 * they are not sent (the real image is what travels): these do nothing. ---- */

/* Starts sending `bytes` modelled bytes from the calling rank (world rank
 * `from`) to world rank `to`, as that pair's transfer number `seq` (the
 * receiver names the same number: the control message announcing the
 * transfer carries it); returns at once, with a handle for
 * ft_backend_padding_cut or _forget, or NULL when nothing is sent (under
 * 1 byte; reference mode). */
void *ft_backend_padding_send(int from, int to, uint64_t seq, double bytes);

/* What a modelled transfer does with the disks of its hosts (SMPI: the
 * first <disk> of the host, SimGrid's sg_disk_read/sg_disk_write, shared
 * with every other I/O on that disk; reference mode: nothing). Flags. */
enum {
  FT_PADDING_LOCAL_WRITE = 1, /* sender: write the bytes to its own host's
                                 disk first (sc06 section 4.1: the forked
                                 clone "writes its local checkpoint to a
                                 file"), without blocking the caller */
  FT_PADDING_DISK_READ = 2,   /* sender: read them from its host's disk
                                 first (a server sending an image back) */
  FT_PADDING_DISK_WRITE = 4,  /* receiver: write them to its host's disk
                                 once they all arrived, before the end is
                                 reported (a server storing an image) */
};

/* ft_backend_padding_send, with the disk work `disk` (FT_PADDING_LOCAL_WRITE
 * and/or FT_PADDING_DISK_READ; 0: none). When `write_s` is not NULL the
 * seconds the local write took are added to *write_s, which must stay
 * valid for the whole run (a rank's runtime field). */
void *ft_backend_padding_send_disk(int from, int to, uint64_t seq, double bytes,
                                   int disk, double *write_s);

/* The sender rolled back: the transfer stops after the piece in flight and
 * its receiver sees it end, cut. Releases the handle (NULL: nothing). */
void ft_backend_padding_cut(void *send_handle);

/* The sender lets go of the handle; the transfer goes on to its end. */
void ft_backend_padding_forget(void *send_handle);

/* Starts receiving transfer `seq` from world rank `from` to the calling
 * rank (world rank `to`). Returns a handle for ft_backend_padding_done, or
 * NULL when there is nothing to wait for (reference mode). */
void *ft_backend_padding_receive(int from, int to, uint64_t seq);

/* ft_backend_padding_receive for `bytes` modelled bytes, with the disk work
 * `disk` (FT_PADDING_DISK_WRITE or 0). The seconds the write took are
 * stored in *write_s (not NULL) before the transfer is reported ended; it
 * must stay valid until then. */
void *ft_backend_padding_receive_disk(int from, int to, uint64_t seq,
                                      double bytes, int disk, double *write_s);

/* Blocks the calling rank while `bytes` modelled bytes are written to
 * (ft_backend_disk_write) or read from (_read) the first disk of its host;
 * returns the simulated seconds it took, contention with the host's other
 * I/O included. A host without a disk is fatal (the launcher checks the
 * platform first). Reference mode: nothing, 0. */
double ft_backend_disk_write(double bytes);
double ft_backend_disk_read(double bytes);

/* What ft_backend_padding_done says of an ended transfer. */
enum { FT_PADDING_WHOLE = 1, FT_PADDING_CUT = 2 };

/* 0 while the transfer behind `handle` is in flight; FT_PADDING_WHOLE when
 * it arrived whole, FT_PADDING_CUT when its sender cut it (the handle is
 * then released). NULL handles are whole. With `block`, waits for the
 * end. */
int ft_backend_padding_done(void *handle, int block);

/* ---- Waiting for "a request, a modelled transfer or a deadline" (the
 * service ranks). MPI has no wait with a timeout; under SMPI a helper actor
 * of the calling rank blocks in MPI_Waitany on the rank's behalf while the
 * rank blocks on a semaphore with a timeout, so the rank wakes exactly when
 * a request completes, a modelled transfer ends or its deadline comes. In
 * reference mode the wait tests the requests every 100 us of wall time. */

struct ft_waiter;

/* What ft_backend_wait returns when no request completed. */
enum { FT_WAIT_DEADLINE = -1, FT_WAIT_PADDING = -2 };

/* A waiter for the calling rank (one per rank; its helper actor lives on
 * the rank's host). Never NULL: out of memory is fatal. */
struct ft_waiter *ft_backend_waiter_create(void);

/* Ends the waiter's helper and frees it. Precondition: no wait of it is
 * in progress in the background (the last ft_backend_wait returned a
 * request, or none was ever waited for). */
void ft_backend_waiter_destroy(struct ft_waiter *w);

/* Blocks until one of the n requests *reqs[i] completes (then sets it to
 * MPI_REQUEST_NULL and returns i), a modelled transfer watched by `w` ends
 * (FT_WAIT_PADDING), or the clock reaches `deadline` (absolute time in
 * ft_backend_now's scale; < 0: none; returns FT_WAIT_DEADLINE). Null
 * requests are skipped. The handles must stay at their addresses until one
 * of them is returned: when the call returns for a transfer or the
 * deadline, the wait for the requests goes on in the background, and the
 * next calls continue it. A call with other requests than the background
 * wait's (requests added or dropped meanwhile: a service that took a
 * latency-only message and started a transfer) interrupts it with a
 * message of the rank to itself on MPI_COMM_SELF and returns
 * FT_WAIT_PADDING once the helper let go; the next call waits for the
 * new set. */
int ft_backend_wait(struct ft_waiter *w, int n, MPI_Request *const reqs[],
                    double deadline);

/* Takes `w`'s helper back from a wait going on in the background, if any
 * (a service whose last messages came through its courier), before the
 * caller completes or cancels one of the requests itself: the requests
 * stay as they are, but one the helper completed meanwhile is set to
 * MPI_REQUEST_NULL and what it received is dropped (a service with a
 * courier receives nothing else on its control receive). NULL: nothing. */
void ft_backend_waiter_recall(struct ft_waiter *w);

/* Makes the end of the modelled transfer `handle` (from
 * ft_backend_padding_receive, not NULL) wake `w`'s wait once. */
void ft_backend_padding_notify(void *handle, struct ft_waiter *w);

/* How many modelled transfers watched by `w` (ft_backend_padding_notify)
 * have ended so far: a caller that saw the same count before knows that
 * none ended since (ft_backend_padding_done would say 0 of each one it
 * watches that was in flight then). Reference mode: 0 (its transfers have
 * no modelled bytes: ft_backend_padding_receive returns NULL). */
uint64_t ft_backend_waiter_ended(const struct ft_waiter *w);

/* ---- Latency-only messages (issue 18, item 2). Under SMPI a control
 * message between application ranks need not be a SimGrid communication:
 * it is posted to its receiver's courier, due when the network would have
 * delivered it, and the receiver takes it from there. A courier's helper
 * actor rings a bell (one small MPI message of the rank to itself) when the
 * first message falls due, so that a rank blocked in MPI wakes up on time.
 * A real MPI has no courier: every call below is then a no-op or fatal, as
 * said. ---- */

struct ft_courier;

/* Starts the calling rank's courier and its helper, on the rank's host;
 * the bell is `bell_bytes` (at most 128) of `bell`, sent by the helper as
 * the rank to `self` (the rank's own rank in `comm`) with
 * `tag` on `comm`, a standard send, rung early by its own transfer time so
 * that it arrives when the message is due. Other ranks find the courier
 * by the rank's world rank (ft_backend_courier_of). Returns NULL for a
 * real MPI. Out of memory is fatal. */
struct ft_courier *ft_backend_courier_start(MPI_Comm comm, int self, int tag,
                                            const void *bell, int bell_bytes);

/* The courier of world rank `world_rank`, or NULL when it has none (not
 * started, stopped, or a real MPI). */
struct ft_courier *ft_backend_courier_of(int world_rank);

/* Seconds a message of `bytes` takes from the calling rank's host to world
 * rank `world_rank`'s on an otherwise idle network: the route's latency
 * plus bytes over its bandwidth (the Hockney model of SMPI with
 * smpi/lat-factor and smpi/bw-factor 0:1, as ftsim's platforms set; SMPI's
 * other factors are not applied). Fatal when the rank cannot be placed,
 * and under a real MPI. */
double ft_backend_message_time(int world_rank, size_t bytes);

/* The two terms of ft_backend_message_time for world rank `world_rank`:
 * the route's latency (s) in *latency_s and its bandwidth (bytes/s, 0: not
 * limited) in *bandwidth_Bps, so that a caller that sends many messages to
 * one rank asks SimGrid for the route once: the time of `bytes` is then
 * *latency_s + (*bandwidth_Bps > 0 ? bytes / *bandwidth_Bps : 0), to the
 * bit what ft_backend_message_time returns. Fatal as it is. */
void ft_backend_route_cost(int world_rank, double *latency_s,
                           double *bandwidth_Bps);

/* Posts a copy of `bytes` of `msg` to courier `c` (not NULL), due at
 * absolute time `due` (ft_backend_now's scale). Messages come out in the
 * order of their due times, ties in the order posted, quiet or not. A
 * `quiet` message rings no bell: a rank blocked in MPI does not wake for
 * it, and takes it with the next message it takes
 * (ft_backend_courier_wait still wakes for it). */
void ft_backend_courier_post(struct ft_courier *c, double due, const void *msg,
                             size_t bytes, int quiet);

/* Sets how many quiet messages of courier `c` (the calling rank's; NULL:
 * nothing) ring a bell once due: with `n` > 0, the helper also rings when
 * the n-th quiet message in order of due times is due (the rank, blocked
 * in MPI, wakes and takes every message due); 0, the default: quiet
 * messages never ring. The rank sets it before it blocks (its core's
 * wake_after, ft_protocol.h): vcl's 2p(p - 1) markers and CUTs a wave are
 * quiet, and a rank is woken for the few that make it act. */
void ft_backend_courier_wake_after(struct ft_courier *c, int n);

/* The calling rank's courier `c` (NULL: returns 0): copies its first
 * message due by now into buf and removes it; returns its length, 0 when
 * none is due. A message longer than `cap` is fatal. */
size_t ft_backend_courier_take(struct ft_courier *c, void *buf, size_t cap);

/* Hands courier `c` (the calling rank's; NULL: nothing) the rank's waiter
 * `w` (a service's, ft_backend_waiter_create): from then on the helper
 * rings no bell; a message posted that comes first of all wakes the rank
 * in ft_backend_wait (FT_WAIT_PADDING, nothing completed), and the rank
 * waits at most until its first message is due
 * (ft_backend_courier_next_due). No SimGrid communication per message,
 * and none late: a bell is rung only once the last one was taken. `w`
 * must outlive the courier (ft_backend_courier_stop first). */
void ft_backend_courier_attach(struct ft_courier *c, struct ft_waiter *w);

/* The absolute time (ft_backend_now's scale) at which the first message
 * of courier `c`, loud or quiet, is due; -1 when it holds none or `c` is
 * NULL (a real MPI). For a rank that can wait with a deadline (a service):
 * it wakes on time for what is already posted without a bell, which
 * arrives late when messages follow one another closely (one bell on its
 * way at a time: the next is rung only once it is taken, up to its own
 * transfer time after the message's due time). */
double ft_backend_courier_next_due(const struct ft_courier *c);

/* The calling rank took a bell of its courier `c` (NULL: nothing), and
 * takes every message due before it blocks again: the helper may ring
 * again (it keeps at most one bell on its way). */
void ft_backend_courier_bell_taken(struct ft_courier *c);

/* Blocks the calling rank, with no MPI call, until the first loud message
 * of its courier `c` (not NULL) is due, or its `wake_after`-th quiet one
 * (in order of due times; 0: the first message of either kind); no bell is
 * rung meanwhile. For a rank that waits for control messages only: every
 * control message to an application rank comes through its courier. With
 * its core's wake_after (ft_protocol_ops), a rank held at K until every
 * marker is in wakes once, when the last one is due, instead of once per
 * marker (a timed wait, a SimGrid activity, each: p(p - 1) a pcl wave). */
void ft_backend_courier_wait(struct ft_courier *c, int wake_after);

/* Stops courier `c` (the calling rank's; NULL: nothing) and its helper,
 * dropping the messages left; returns the bells the helper sent, which
 * the caller must still receive those it did not take. */
uint64_t ft_backend_courier_stop(struct ft_courier *c);

#endif /* FT_BACKEND_H */
