/* Run options: the text of FTSIM_OPTIONS ("key=value,key=value"), parsed.
 *
 * The launcher (`ftsim run`) builds this text from --protocol and --set and
 * checks it before starting anything; the runtime parses the same text from
 * its environment at MPI_Init. Pure C: no MPI, no allocation. */
#ifndef FT_OPTIONS_H
#define FT_OPTIONS_H

#include <stddef.h>

#define FT_OPTIONS_ENV "FTSIM_OPTIONS"

/* The largest time in seconds any input accepts (a period, a scenario's
 * failure, detection or restart time, a sweep's MTBF): 1e9 s, about 32
 * years, far beyond any run; larger values are input errors, not runs
 * that would print 300-digit completion times. */
#define FT_TIME_MAX_S 1e9

struct ft_options {
  char protocol[32];  /* a name from the protocol registry; default "none" */
  int service_ranks;  /* extra MPI ranks split off for services: checkpoint
                         servers, the first also runs the dispatcher;
                         default 0 */
  double period;      /* seconds from a wave's commit to the next wave;
                         default 0: no checkpoint */
  double image_mb;    /* modelled process-image size added to each
                         checkpoint transfer, MB (10^6 bytes); default 0 */
  char scenario[512]; /* failure scenario file; default "": no failure */
  char ckpt_dir[512]; /* reference mode: where servers write images;
                         default "ftsim-ckpt" */
  int server_map;     /* enum ft_server_map; default FT_SERVER_MAP_BLOCK */
  int storage;        /* enum ft_storage: where images are written; default
                         FT_STORAGE_NETWORK */
  /* Implementation cost model, apart from the protocol's own cost: MPICH-V
   * routes every message through a communication daemon (pcl-vs-vcl-sc06,
   * section 4.1), which adds a fixed delay and copies on the sender and on
   * the receiver. Off (0) by default, for every protocol. */
  double daemon_latency_us; /* added per message, on each side; default 0 */
  double daemon_copy_mbps;  /* copy bandwidth, MB/s, on each side; 0: no
                               copy cost */
  /* Message logging (pessimist, v2). */
  int event_loggers; /* service ranks that log events: the last ones;
                        default 1 */
  int log_batch;     /* events shipped at most per message; default 64 */
  double copy_mbps;  /* memory bandwidth of the sender-based copy (and v2's
                        copy at the receiver), MB/s; default 0: free */
  /* The sender-based copy and the NIC's DMA share the sender's memory bus
   * (pessimist-openmpi-v, section 4.4: "Myrinet 2G already exhibits
   * imperfect overlap between memory copies and network transmission"): a
   * logged message leaves its sender at most this fast, MB/s, or at its
   * route's bandwidth if slower (Ethernet: "bandwidth is unchanged");
   * default 0: no contention (perfect overlap). */
  double sb_bus_mbps;       /* messages larger than sb_cache_kb */
  double sb_bus_cache_mbps; /* messages that fit: default 0, sb_bus_mbps */
  double sb_cache_kb;       /* the copy's cache; default 512 */
  /* The implementation's cost of reaching the event logger, beyond the
   * platform's round trip: a send that the protocol holds until the
   * logger's acks leaves no earlier than el_rtt_us after the acks came
   * (MPICH-V2's daemon talks to its event logger over TCP: pessimist-
   * openmpi-v, section 4.2, "40us latency increase to reach 183us"), µs;
   * default 0: the platform's round trip only. */
  double el_rtt_us;
  char trace[512]; /* event trace for `ftsim check`: each rank writes
                      TRACE.<world rank> (sim/runtime/trace.h); default "":
                      no trace */
  /* Control receives each rank of a protocol that recovers keeps posted
   * (at most one per other rank; sim/runtime/control.h,
   * ft_control_start), in [1, FT_OPTIONS_CONTROL_WINDOW_MAX]; default 1. */
  int control_window;
  /* 1: control messages between application ranks are latency-only
   * messages under SMPI (sim/runtime/control.h, ft_control_send: no
   * SimGrid communication, delivered after the route's latency and
   * transfer time); 0: MPI messages. Default 1; no effect under a real
   * MPI. */
  int control_timer;
  /* Incoming images each checkpoint server receives at once, their bytes
   * and their modelled bytes each (sim/runtime/service.c, start_waiting):
   * the others wait at their senders, in the order of their STOREs; 0: no
   * limit. Default FT_UPLOAD_STREAMS_DEFAULT. */
  int upload_streams;
  /* When a run that cannot progress ends (the dispatcher decides, in
   * simulated time; the run ends with "outcome":"no_progress"). */
  double max_time;          /* simulated seconds of run time after which the run
                               is stopped; default 0: no limit */
  char record[512];         /* `ftsim record`: each application rank writes its
                               MPI calls to RECORD/rank.<world rank>
                               (sim/runtime/record.h); default "": no record */
  double record_speed;      /* the recording host's speed in flop/s when the
                               backend cannot tell it (real MPI); default 0 */
  int stall_failures;       /* N: after N failures in a row with no progress,
                               the next failure due stops the run instead
                               (progress: a committed wave, pcl and vcl; a failed
                               rank's restart completed, pessimist and v2);
                               default FT_STALL_FAILURES_DEFAULT, 0: never */
  double max_quiet;         /* simulated seconds in which no application rank's
                               control message reached the dispatcher after
                               which it ends the run as livelocked (an error,
                               not a no_progress stop: every healthy run talks
                               to it, at the latest with its DONE); default 0:
                               never */
  int ranks_per_node;       /* application ranks placed on each compute host by
                               `ftsim run` (consecutive ranks share the host's
                               CPU, NIC and disk, as the papers' dual-processor
                               nodes ran 2 processes); default 0: one per host,
                               more only when np exceeds the compute hosts */
  int services_share_cores; /* service_placement=shared (1): `ftsim run`
                          places the service ranks on the compute hosts,
                          sharing their cores, as a real machine runs the
                          service processes beside the application's;
                          default own (0): on the service hosts */
  int any_call; /* 1: checkpoints at any MPI call, when the protocol's
                   core accepts it (a replay, sim/ft_anycall.h; `ftsim
                   run --replay` sets it); default 0: at safe points */
  /* How the piggyback family (c3) carries its piggyback with each message
   * (c3-collectives, section 6: "either via a separate collective operation
   * that precedes the data operation, or by piggy-backing the control data
   * onto the message data"): enum ft_piggyback_form; default separate. */
  int piggyback;
  int piggyback_switch_bytes; /* auto: messages of fewer payload bytes go
                                 combined, the others separate; default
                                 FT_PIGGYBACK_SWITCH_DEFAULT */
  int piggyback_unit_bytes;   /* auto: a collective unit goes combined
                                 while its copies on the critical path are
                                 fewer bytes than this per round of its
                                 separate exchange (pb_coll.c, form_of),
                                 separate from there on; default
                                 FT_PIGGYBACK_UNIT_DEFAULT */
  int failure;  /* enum ft_failure_mode: what a scenario's failure does;
                   default FT_FAILURE_LOGICAL */
  int relaunch; /* failure=kill: the number of this launch of the run, 0
                   first; `ftsim run --real` sets it when it relaunches a
                   killed job (its ranks load the committed wave from
                   ckpt_dir); default 0 */
  int c3_barrier_checkpoint; /* 1: under c3, every MPI_Barrier is a
                                potential checkpoint location, Figure 8's
                                BarrierPotentialCheckpoint
                                (c3-collectives, section 5.4); default 0 */
};

/* What a failure of the scenario does (README, "Real failures: kill and
 * relaunch"). */
enum ft_failure_mode {
  FT_FAILURE_LOGICAL, /* the victim drops its state and recovers in place
                         (simulation, and reference mode by default) */
  FT_FAILURE_KILL,    /* reference mode: the victim is SIGKILLed at its
                         wall-clock time, mpirun ends the job, and `ftsim
                         run --real` relaunches it from the images on disk
                         (pcl, vcl, bookmark, c3) */
};

/* The forms of piggyback=. */
enum ft_piggyback_form {
  FT_PIGGYBACK_SEPARATE, /* a message of its own before the payload */
  FT_PIGGYBACK_COMBINED, /* copied with the payload into one message */
  FT_PIGGYBACK_AUTO      /* combined below piggyback_switch_bytes */
};

/* The default of piggyback_switch_bytes, measured (analysis/
 * c3_collectives.sh, velocity, 32 ranks, copies at 300 MB/s): with 2048 or
 * 4096 auto stays within 10% of the cheaper form for MPI_Gather and
 * MPI_Allgather at every size from 4 B to 4 MiB; with 1024 (gather, 64 B:
 * the tree's upper messages go separate) or 8192 (gather, 4 KiB) it does
 * not. */
#define FT_PIGGYBACK_SWITCH_DEFAULT 4096

/* The default of piggyback_unit_bytes: the bytes a 300 MB/s copy moves in
 * one latency of velocity's links (14.2 us: 4260), rounded; measured
 * (analysis/c3_collectives.sh --quick, velocity, 32 ranks, copies at 300
 * MB/s): auto then stays within 10% of the cheaper form for MPI_Bcast,
 * MPI_Gather and MPI_Allgather at every size (README, "C3's collectives
 * measured"). */
#define FT_PIGGYBACK_UNIT_DEFAULT 4096

/* The default of stall_failures. */
#define FT_STALL_FAILURES_DEFAULT 1000

/* The default of upload_streams. */
#define FT_UPLOAD_STREAMS_DEFAULT 16

/* The largest control_window. */
#define FT_OPTIONS_CONTROL_WINDOW_MAX 32

/* How application ranks are spread over the checkpoint servers. */
enum ft_server_map {
  FT_SERVER_MAP_BLOCK,  /* ranks [0, n/s) to server 0, the next block... */
  FT_SERVER_MAP_CYCLIC, /* rank r to server r mod s */
};

/* Where checkpoint images go (README, "Checkpoint storage"). Only the
 * SMPI backend models disks (`ftsim run --real` refuses any value but
 * network: the servers write real files). */
enum ft_storage {
  FT_STORAGE_NETWORK, /* to the rank's checkpoint server over the network,
                         no disk (the behaviour before disks were modelled) */
  FT_STORAGE_SERVERS, /* local disk (a forked clone writes it: the rank goes
                         on), then the server and its disk (sc06 4.1) */
  FT_STORAGE_SHARED,  /* one file server (NFS-like): every rank's image goes
                         over the network to the first service rank's host
                         and its disk; no local copy */
  FT_STORAGE_LOCAL,   /* the node's disk only, the rank blocked meanwhile
                         (BLCR under LAM/MPI, lam-mpi-blcr 4.2) */
};

/* The form's name ("separate", "combined", "auto"; "?" for another
 * value). */
const char *ft_piggyback_form_name(int form);

/* The setting's name ("network", "servers", "shared", "local"). */
const char *ft_storage_name(int storage);

/* Whether `storage` needs a <disk> on the hosts of the run. */
int ft_storage_uses_disks(int storage);

/* The server (0-based) that stores `rank`'s images, among `servers`
 * servers for `ranks` application ranks. Precondition: servers >= 1. */
int ft_options_server_of(int map, int rank, int ranks, int servers);

/* Sets every option to its default. */
void ft_options_defaults(struct ft_options *options);

/* Parses `text` (may be NULL or empty: defaults) into `options`, which it
 * first resets to the defaults. Entries are separated by commas; each is
 * key=value with no spaces. On error returns -1 and writes into `err`
 * (errlen bytes) a message naming the field, e.g.
 *   "field 3 'service_ranks=-1': service_ranks must be an integer >= 0".
 * Unknown keys, unknown protocols and malformed values are errors. */
int ft_options_parse(const char *text, struct ft_options *options, char *err,
                     size_t errlen);

/* Parses the whole of `s` as a decimal integer in [min, max] into *out.
 * Returns 0, or -1 (leaving *out alone) for anything else: empty text,
 * blanks, trailing characters, overflow, a value out of range. */
int ft_parse_int(const char *s, long min, long max, int *out);

/* Checks that parsed options go together, as the runtime requires at
 * MPI_Init: a scenario needs a protocol that recovers, such a protocol at
 * least one service rank, message logging (pessimist, v2) at least
 * event_loggers service ranks, max_time > 0 a protocol that recovers (its
 * dispatcher stops the run), record only with protocol none (a recording
 * is of the program, not of a protocol), failure=kill a protocol that
 * rolls every rank back (pcl, vcl, bookmark, c3: message logging restarts
 * one rank, which a relaunched job cannot), relaunch > 0 failure=kill.
 * Returns 0, or -1 with a message naming
 * the keys, e.g. "event_loggers=3 but service_ranks=1: the event loggers are
 * service ranks (service_ranks=3 or more)". */
int ft_options_check(const struct ft_options *options, char *err,
                     size_t errlen);

/* What ft_parse_double returns. */
enum ft_num_status { FT_NUM_OK = 0, FT_NUM_SYNTAX = -1, FT_NUM_RANGE = -2 };

/* Parses the whole of `s` as a decimal number ([+-]digits[.digits][e[+-]N];
 * no blanks, hex, inf or nan) in [min, max] into *out. Returns FT_NUM_OK,
 * FT_NUM_SYNTAX (not such a number) or FT_NUM_RANGE (outside [min, max],
 * overflow, or underflow: 1e-400 is out of range, not negative); *out is
 * left alone on error. */
int ft_parse_double(const char *s, double min, double max, double *out);

/* Says why ft_parse_double(s, ...) returned `rc` (an error), for messages:
 * "not a decimal number", "out of range", or "out of range: too small to
 * represent, write 0" for an underflow. */
const char *ft_num_problem(int rc, const char *s);

/* Names the keys ft_options_parse accepts, comma-separated, for messages. */
const char *ft_options_known_keys(void);

#endif /* FT_OPTIONS_H */
