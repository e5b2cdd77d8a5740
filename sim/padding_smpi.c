/* Modelled image bytes under SMPI (see backend.h, "Modelled transfers").
 *
 * A checkpoint image costs its modelled size on the simulated network. A
 * transfer is sent in at most FT_PADDING_PIECES pieces, one after the
 * other, by a pump actor on the sender's host, to a mailbox of its own
 * (sender, receiver, transfer number); a fetch actor on the receiver's host
 * takes pieces until the last, which says whether the transfer arrived
 * whole or was cut short. A sender that rolls back cuts its uploads: a
 * failure kills a process and its connections, and an image of an
 * abandoned wave would otherwise keep its bandwidth for nothing. Before,
 * each transfer was one detached send that nothing could stop: with
 * failures faster than an upload, the abandoned ones piled up on the links
 * (soak seed 604588: pcl, pingpong, myrinet, 16 MB images, a failure
 * every 6.7 ms; 248 rollbacks in 10 s of wall time, 90% of it in
 * SimGrid's bandwidth sharing) and slowed every later transfer.
 *
 * Cutting costs at most the piece in flight (1/16 of the image); pieces
 * add at most 15 latencies to a whole transfer. Pump and fetch actors are
 * daemons: a transfer nobody takes does not keep the simulation alive.
 *
 * Disks (the run's storage setting, README "Checkpoint storage"): the pump
 * may first write the bytes to its host's disk (the local checkpoint file)
 * or read them from it (a server sending an image back), and the fetcher
 * write them to its host's disk once whole (a server storing an image).
 * Each is one whole-image I/O before or after the network transfer, not
 * pipelined with it; the disk's bandwidth is shared by SimGrid with every
 * other I/O of that disk (the ranks of a node, the clients of a server). */
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <simgrid/semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "backend_smpi.h"

enum { FT_PADDING_PIECES = 16 };

/* What a piece carries: which piece it is, a small number. SMPI's copy of
 * a mailbox payload copies the pointer-sized bytes the payload points to
 * (smpi_comm_copy_buffer_callback), so the sender points to the number and
 * the receiver gets the number as its pointer. */
#define MORE_PIECE ((void *)(uintptr_t)1)
#define LAST_PIECE ((void *)(uintptr_t)2)
#define CUT_PIECE ((void *)(uintptr_t)3)

/* Sends one piece of `bytes` modelled bytes saying `kind`; blocks until it
 * arrived (the number lives on this stack until then). */
static void put_piece(sg_mailbox_t mailbox, void *kind, double bytes) {
  void *number = kind;
  sg_mailbox_put(mailbox, &number, (long)bytes);
}

static sg_mailbox_t mailbox_of(int from, int to, uint64_t seq) {
  char name[96];
  snprintf(name, sizeof name, "ftsim-padding-%d-%d-%llu", from, to,
           (unsigned long long)seq);
  return sg_mailbox_by_name(name);
}

static void start_daemon(const char *name, void (*code)(int, char **),
                         void *arg) {
  char ptr[32];
  snprintf(ptr, sizeof ptr, "%p", arg);
  char *argv[] = {(char *)name, ptr, NULL};
  sg_actor_t a = sg_actor_init(name, sg_host_self());
  sg_actor_daemonize(a);
  sg_actor_start(a, code, 2, argv);
}

/* ---- Sending ---- */

struct padding_send {
  sg_mailbox_t mailbox;
  double bytes;
  int disk;        /* FT_PADDING_LOCAL_WRITE, FT_PADDING_DISK_READ */
  double *write_s; /* where the local write's seconds are added, or NULL */
  int cut;         /* the sender rolled back: stop at the next piece */
  int finished;    /* the pump sent its last piece */
  int forgotten;   /* the sender let go of the handle: the pump frees it */
};

static void pump(int argc, char **argv) {
  struct padding_send *h = ft_smpi_pointer_arg(argv);
  (void)argc;
  if ((h->disk & FT_PADDING_LOCAL_WRITE) && !h->cut) {
    double s = ft_smpi_disk_io(h->bytes, 1);
    if (h->write_s)
      *h->write_s += s;
  }
  if ((h->disk & FT_PADDING_DISK_READ) && !h->cut)
    (void)ft_smpi_disk_io(h->bytes, 0);
  int pieces = h->bytes < FT_PADDING_PIECES ? 1 : FT_PADDING_PIECES, sent = 0;
  double piece = h->bytes / pieces;
  for (; sent < pieces - 1 && !h->cut; sent++)
    put_piece(h->mailbox, MORE_PIECE, piece);
  /* The rest, or one byte that says the transfer was cut. */
  if (h->cut)
    put_piece(h->mailbox, CUT_PIECE, 1);
  else
    put_piece(h->mailbox, LAST_PIECE, h->bytes - sent * piece);
  h->finished = 1;
  if (h->forgotten)
    free(h);
}

void *ft_backend_padding_send(int from, int to, uint64_t seq, double bytes) {
  return ft_backend_padding_send_disk(from, to, seq, bytes, 0, NULL);
}

void *ft_backend_padding_send_disk(int from, int to, uint64_t seq, double bytes,
                                   int disk, double *write_s) {
  if (bytes < 1)
    return NULL;
  struct padding_send *h = calloc(1, sizeof *h);
  if (!h) {
    fprintf(stderr, "ftsim: out of memory for a modelled transfer\n");
    ft_backend_abort(1);
  }
  h->bytes = bytes;
  h->disk = disk;
  h->write_s = write_s;
  ft_smpi_bench_pause();
  h->mailbox = mailbox_of(from, to, seq);
  start_daemon("ftsim-pump", pump, h);
  ft_smpi_bench_resume();
  return h;
}

static void let_go(struct padding_send *h, int cut) {
  if (!h)
    return;
  if (h->finished) {
    free(h);
    return;
  }
  h->cut |= cut;
  h->forgotten = 1;
}

void ft_backend_padding_cut(void *handle) { let_go(handle, 1); }

void ft_backend_padding_forget(void *handle) { let_go(handle, 0); }

/* ---- Receiving ---- */

struct padding_receive {
  sg_mailbox_t mailbox;
  double bytes;             /* written to the host's disk when whole, if disk */
  int disk;                 /* FT_PADDING_DISK_WRITE or 0 */
  double *write_s;          /* the write's seconds go there, or NULL */
  sg_sem_t ended;           /* released once, at the last piece */
  int outcome;              /* 0 in flight, FT_PADDING_WHOLE or _CUT */
  int fetched;              /* the fetcher touches the handle no more */
  struct ft_waiter *waiter; /* woken at the end, when watched */
};

static void fetch(int argc, char **argv) {
  struct padding_receive *h = ft_smpi_pointer_arg(argv);
  (void)argc;
  const void *piece = MORE_PIECE;
  while (piece == MORE_PIECE)
    piece = sg_mailbox_get(h->mailbox);
  h->outcome = piece == CUT_PIECE ? FT_PADDING_CUT : FT_PADDING_WHOLE;
  if (h->outcome == FT_PADDING_WHOLE && (h->disk & FT_PADDING_DISK_WRITE)) {
    double s = ft_smpi_disk_io(h->bytes, 1);
    if (h->write_s)
      *h->write_s = s;
  }
  sg_sem_release(h->ended); /* a simcall: other actors may run */
  struct ft_waiter *w = h->waiter;
  h->fetched = 1; /* no simcall from here to the end: h may be freed */
  if (w)
    ft_smpi_waiter_transfer_ended(w);
}

void *ft_backend_padding_receive(int from, int to, uint64_t seq) {
  return ft_backend_padding_receive_disk(from, to, seq, 0, 0, NULL);
}

void *ft_backend_padding_receive_disk(int from, int to, uint64_t seq,
                                      double bytes, int disk, double *write_s) {
  struct padding_receive *h = calloc(1, sizeof *h);
  if (!h)
    return NULL;
  h->bytes = bytes;
  h->disk = disk;
  h->write_s = write_s;
  ft_smpi_bench_pause();
  h->mailbox = mailbox_of(from, to, seq);
  h->ended = sg_sem_init(0);
  start_daemon("ftsim-fetch", fetch, h);
  ft_smpi_bench_resume();
  return h;
}

int ft_backend_padding_done(void *handle, int block) {
  struct padding_receive *h = handle;
  if (!h)
    return FT_PADDING_WHOLE;
  if (block && !h->fetched) {
    ft_smpi_bench_pause();
    sg_sem_acquire(h->ended);
    while (!h->fetched) /* it was released, the fetcher ends its turn */
      sg_actor_yield();
    ft_smpi_bench_resume();
  }
  if (!h->fetched)
    return 0;
  int outcome = h->outcome;
  sg_sem_destroy(h->ended);
  free(h);
  return outcome;
}

void ft_backend_padding_notify(void *handle, struct ft_waiter *w) {
  struct padding_receive *h = handle;
  h->waiter = w;
  if (h->fetched)
    ft_smpi_waiter_transfer_ended(w);
}
