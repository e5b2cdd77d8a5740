/* Latency-only messages under SMPI (backend.h, "Latency-only messages"):
 * a rank's courier keeps the messages posted to it, ordered by the time
 * they are due, and a helper actor of the rank rings a bell (one small MPI
 * message from the rank to itself) when the first of them falls due. No
 * message is a SimGrid communication: none is matched by SMPI, none is a
 * flow of the network model, none waits in a list of SimGrid's. */
#include <mpi.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "backend_smpi.h"

/* A message this small is kept in a slot of its courier's slab, larger
 * ones in a block of their own: a control message (struct ft_wire, 64
 * bytes) fits. A malloc and a free per message before: 638,400 markers
 * and CUTs in two vcl waves on 400 ranks. */
enum { COURIER_SLOT = 64 };

/* One message posted, due at `due`; `seq` orders ties. Its bytes are in
 * slot `slot` of the slab when they fit (bytes <= COURIER_SLOT), else in
 * `data`. */
struct courier_entry {
  double due;
  uint64_t seq;
  size_t bytes;
  union {
    size_t slot;
    unsigned char *data;
  } at;
};

/* The slots of a courier's small messages: `cap` of COURIER_SLOT bytes,
 * the first `used` handed out once, the `n_free` indices in `free_slots`
 * handed back since. */
struct courier_slab {
  unsigned char *bytes;
  size_t *free_slots;
  size_t cap, used, n_free;
};

/* A min-heap of messages by (due, seq). */
struct courier_heap {
  struct courier_entry *e;
  size_t n, cap;
};

/* The two queues: messages that ring a bell, and quiet ones, which the
 * rank takes with the others (in one order of due times) and which wake
 * it only in ft_backend_courier_wait. */
enum { LOUD, QUIET };

struct ft_courier {
  struct courier_heap q[2]; /* LOUD, QUIET */
  struct courier_slab slab; /* their small messages' bytes */
  uint64_t seq;             /* messages posted so far */
  sg_sem_t wake;            /* an earlier message was posted, or quit */
  sg_actor_t helper;        /* sleeps until the first due, then rings */
  int quit;
  MPI_Comm comm;
  int self, tag, bell_bytes;
  unsigned char bell[128];
  /* The bell's own time from the host to itself: it is rung that much
   * before the first message is due, and reaches the rank on time. */
  double lead;
  /* At most one bell on its way: the helper rings again only once the
   * rank took the last one (the rank takes every message due when it takes
   * a bell, and before it blocks). */
  uint64_t bells, taken; /* bells rung, and taken by the rank */
  /* The rank itself may wait for its messages with no MPI call
   * (ft_backend_courier_wait): it blocks on `rank_wake`, with a timeout
   * until the first is due, and no bell is rung meanwhile. A poster whose
   * message comes first wakes it (once: `rank_kicked`), and the helper
   * likewise (`kicked`), so that no semaphore counts up releases nobody
   * needs. */
  sg_sem_t rank_wake;
  int rank_waiting, rank_kicked, kicked;
  /* When the rank waiting in ft_backend_courier_wait wakes by itself (the
   * message it waits for is due), -1: only when kicked. */
  double rank_until;
  /* A service's waiter (ft_backend_courier_attach), or NULL: woken, no
   * bell rung, when a message posted comes first. */
  struct ft_waiter *waiter;
  /* Quiet messages that ring a bell once due (ft_backend_courier_wake_after;
   * 0: none), and when the wake_after-th of them is due, once computed
   * (quiet_known; -1: fewer are held), from the `scratch` copy of their due
   * times. */
  int wake_after, quiet_known;
  double quiet_at;
  /* When the helper wakes by itself (its timer), -1: only when kicked. */
  double helper_until;
  double *scratch;
  size_t cap_scratch;
};

static _Noreturn void courier_fatal(const char *what) {
  fprintf(stderr, "ftsim: %s\n", what);
  ft_backend_abort(1);
}

static int before(const struct courier_entry *a,
                  const struct courier_entry *b) {
  return a->due < b->due || (a->due == b->due && a->seq < b->seq);
}

static void swap(struct courier_entry *a, struct courier_entry *b) {
  struct courier_entry t = *a;
  *a = *b;
  *b = t;
}

static void sift_up(struct courier_entry *h, size_t i) {
  while (i > 0 && before(&h[i], &h[(i - 1) / 2])) {
    swap(&h[i], &h[(i - 1) / 2]);
    i = (i - 1) / 2;
  }
}

static void sift_down(struct courier_entry *h, size_t n, size_t i) {
  for (;;) {
    size_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < n && before(&h[l], &h[m]))
      m = l;
    if (r < n && before(&h[r], &h[m]))
      m = r;
    if (m == i)
      return;
    swap(&h[i], &h[m]);
    i = m;
  }
}

/* The k-th smallest (0-based) of the n values of v, which it reorders
 * (quickselect, three-way partitions). Precondition: k < n. */
static double select_kth(double *v, size_t n, size_t k) {
  size_t lo = 0, hi = n; /* k is in [lo, hi) */
  while (hi - lo > 1) {
    double pivot = v[lo + (hi - lo) / 2], t;
    size_t lt = lo, i = lo, gt = hi;
    while (i < gt) { /* [lo, lt) < pivot, [lt, i) == pivot, [gt, hi) > */
      if (v[i] < pivot) {
        t = v[lt], v[lt++] = v[i], v[i++] = t;
      } else if (v[i] > pivot) {
        t = v[--gt], v[gt] = v[i], v[i] = t;
      } else {
        i++;
      }
    }
    if (k < lt)
      hi = lt;
    else if (k >= gt)
      lo = gt;
    else
      return pivot;
  }
  return v[lo];
}

/* When the wake_after-th quiet message (in order of due times) is due, or
 * -1: wake_after is 0, or fewer quiet messages are held. */
static double quiet_due(struct ft_courier *c) {
  const struct courier_heap *q = &c->q[QUIET];
  if (c->wake_after <= 0 || q->n < (size_t)c->wake_after)
    return -1;
  if (c->quiet_known)
    return c->quiet_at;
  if (c->wake_after == 1) {
    c->quiet_at = q->e[0].due;
  } else {
    if (c->cap_scratch < q->n) {
      c->cap_scratch = q->cap;
      free(c->scratch);
      c->scratch = malloc(c->cap_scratch * sizeof *c->scratch);
      if (!c->scratch)
        courier_fatal("out of memory for a courier's due times");
    }
    for (size_t i = 0; i < q->n; i++)
      c->scratch[i] = q->e[i].due;
    c->quiet_at = select_kth(c->scratch, q->n, (size_t)c->wake_after - 1);
  }
  c->quiet_known = 1;
  return c->quiet_at;
}

/* Seconds until the next bell must be rung (<= 0: now), for the first loud
 * message or the wake_after-th quiet one, or -1 when no bell is to be rung
 * (neither, or a bell on its way). */
static double bell_in(struct ft_courier *c, double now) {
  const struct courier_heap *loud = &c->q[LOUD];
  if (c->bells != c->taken || c->rank_waiting || c->waiter)
    return -1;
  double due = quiet_due(c);
  if (loud->n > 0 && (due < 0 || loud->e[0].due < due))
    due = loud->e[0].due;
  if (due < 0)
    return -1;
  double in = due - c->lead - now;
  return in > 1e-9 ? in : 0; /* a timer this close would not move the clock */
}

static void ring(struct ft_courier *c) {
  c->bells++;
  ft_smpi_bench_resume();
  int rc =
      PMPI_Send(c->bell, c->bell_bytes, MPI_BYTE, c->self, c->tag, c->comm);
  ft_smpi_bench_pause();
  if (rc != MPI_SUCCESS)
    courier_fatal("a courier's bell could not be sent");
}

/* The helper: an actor of the rank's host that SMPI lets call MPI as the
 * rank (SMPI_thread_create), as the service's waiter does (backend_smpi.c).
 * A standard send of a small message returns at once (SMPI detaches it):
 * the helper never blocks in MPI. */
static void courier_helper(int argc, char **argv) {
  struct ft_courier *c = ft_smpi_pointer_arg(argv);
  (void)argc;
  SMPI_thread_create();
  while (!c->quit) {
    double in = bell_in(c, simgrid_get_clock());
    if (in == 0) {
      ring(c);
      continue;
    }
    c->helper_until = in > 0 ? simgrid_get_clock() + in : -1;
    if (in > 0)
      (void)sg_sem_acquire_timeout(c->wake, in);
    else
      sg_sem_acquire(c->wake);
    c->kicked = 0;
  }
}

struct ft_courier *ft_backend_courier_start(MPI_Comm comm, int self, int tag,
                                            const void *bell, int bell_bytes) {
  struct ft_courier *c = calloc(1, sizeof *c);
  if (!c || bell_bytes < 0 || (size_t)bell_bytes > sizeof c->bell)
    courier_fatal("cannot start a courier");
  c->comm = comm;
  c->self = self;
  c->tag = tag;
  c->bell_bytes = bell_bytes;
  memcpy(c->bell, bell, (size_t)bell_bytes);
  sg_host_t h = sg_host_self();
  double bw = sg_host_get_route_bandwidth(h, h);
  c->lead = sg_host_get_route_latency(h, h) + (bw > 0 ? bell_bytes / bw : 0);
  c->wake = sg_sem_init(0);
  c->rank_wake = sg_sem_init(0);
  c->helper_until = -1;
  c->rank_until = -1;
  char ptr[32];
  snprintf(ptr, sizeof ptr, "%p", (void *)c);
  char *argv[] = {"ftsim-courier", ptr, NULL};
  ft_smpi_bench_pause(); /* a SimGrid call lets the other actors run */
  sg_actor_set_data(sg_actor_self(), c);
  c->helper = sg_actor_init("ftsim-courier", sg_host_self());
  sg_actor_start(c->helper, courier_helper, 2, argv);
  sg_actor_daemonize(c->helper); /* a rank that ends without stopping it
                                    (ft_backend_exit_rank) leaves no actor
                                    blocked behind */
  ft_smpi_bench_resume();
  return c;
}

/* smpirun starts world rank r as actor r + 1, named "r" (as
 * ft_backend_route_mbps). */
static sg_actor_t rank_actor(int world_rank) {
  sg_actor_t a = sg_actor_by_pid(world_rank + 1);
  char name[32];
  snprintf(name, sizeof name, "%d", world_rank);
  return a && strcmp(sg_actor_get_name(a), name) == 0 ? a : NULL;
}

struct ft_courier *ft_backend_courier_of(int world_rank) {
  sg_actor_t a = rank_actor(world_rank);
  return a ? sg_actor_get_data(a) : NULL;
}

void ft_backend_route_cost(int world_rank, double *latency_s,
                           double *bandwidth_Bps) {
  sg_actor_t a = rank_actor(world_rank);
  if (!a)
    courier_fatal("a latency-only message to a rank SMPI cannot place");
  sg_host_t from = sg_host_self(), to = sg_actor_get_host(a);
  *bandwidth_Bps = sg_host_get_route_bandwidth(from, to);
  *latency_s = sg_host_get_route_latency(from, to);
}

double ft_backend_message_time(int world_rank, size_t bytes) {
  double latency, bw;
  ft_backend_route_cost(world_rank, &latency, &bw);
  return latency + (bw > 0 ? (double)bytes / bw : 0);
}

/* Whether a bell for a message due at `due` (-1: none) must be rung
 * before the helper wakes by itself. */
static int helper_sleeps_past(const struct ft_courier *c, double due) {
  return due >= 0 && (c->helper_until < 0 || due - c->lead < c->helper_until);
}

/* Wakes whoever waits for the first message: the rank in
 * ft_backend_courier_wait, else the helper. */
static void kick(struct ft_courier *c) {
  int *flag = c->rank_waiting ? &c->rank_kicked : &c->kicked;
  if (*flag)
    return;
  *flag = 1;
  sg_sem_release(c->rank_waiting ? c->rank_wake : c->wake);
}

/* The first message of both queues, or NULL when there is none. */
static const struct courier_entry *first(const struct ft_courier *c) {
  const struct courier_heap *l = &c->q[LOUD], *q = &c->q[QUIET];
  if (l->n == 0)
    return q->n ? &q->e[0] : NULL;
  return q->n == 0 || before(&l->e[0], &q->e[0]) ? &l->e[0] : &q->e[0];
}

static void push(struct courier_heap *h, struct courier_entry e) {
  if (h->n == h->cap) {
    h->cap = h->cap ? 2 * h->cap : 64;
    h->e = realloc(h->e, h->cap * sizeof *h->e);
    if (!h->e)
      courier_fatal("out of memory for a courier's messages");
  }
  h->e[h->n] = e;
  sift_up(h->e, h->n++);
}

/* A free slot of slab `s`, which grows (twice as large) when every slot
 * is taken; its bytes may move then, so no pointer into them is kept. */
static size_t slot_take(struct courier_slab *s) {
  if (s->n_free > 0)
    return s->free_slots[--s->n_free];
  if (s->used == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 64;
    unsigned char *bytes = realloc(s->bytes, cap * COURIER_SLOT);
    size_t *free_slots = realloc(s->free_slots, cap * sizeof *free_slots);
    if (!bytes || !free_slots)
      courier_fatal("out of memory for a courier's messages");
    s->bytes = bytes;
    s->free_slots = free_slots;
    s->cap = cap;
  }
  return s->used++;
}

/* Keeps `bytes` of `msg` for entry `e`: in a slot when they fit. */
static void entry_keep(struct ft_courier *c, struct courier_entry *e,
                       const void *msg, size_t bytes) {
  e->bytes = bytes;
  if (bytes <= COURIER_SLOT) {
    e->at.slot = slot_take(&c->slab);
    memcpy(c->slab.bytes + e->at.slot * COURIER_SLOT, msg, bytes);
    return;
  }
  e->at.data = malloc(bytes);
  if (!e->at.data)
    courier_fatal("out of memory for a courier's message");
  memcpy(e->at.data, msg, bytes);
}

/* The bytes of entry `e`. */
static const unsigned char *entry_bytes(const struct ft_courier *c,
                                        const struct courier_entry *e) {
  return e->bytes <= COURIER_SLOT ? c->slab.bytes + e->at.slot * COURIER_SLOT
                                  : e->at.data;
}

/* Forgets entry `e`'s bytes: its slot is free again, or its block freed. */
static void entry_drop(struct ft_courier *c, const struct courier_entry *e) {
  if (e->bytes <= COURIER_SLOT)
    c->slab.free_slots[c->slab.n_free++] = e->at.slot;
  else
    free(e->at.data);
}

/* When the rank waiting in ft_backend_courier_wait must take its messages:
 * when the first loud one is due, or the wake_after-th quiet one (the
 * first quiet one when wake_after is 0); -1: never, with what is held. */
static double wait_target(struct ft_courier *c) {
  const struct courier_heap *loud = &c->q[LOUD], *q = &c->q[QUIET];
  double t = loud->n ? loud->e[0].due : -1;
  double quiet = c->wake_after > 0 ? quiet_due(c) : q->n ? q->e[0].due : -1;
  return quiet >= 0 && (t < 0 || quiet < t) ? quiet : t;
}

/* Whether the rank waiting in ft_backend_courier_wait must wake before it
 * would by itself. */
static int rank_sleeps_past(struct ft_courier *c) {
  double t = wait_target(c);
  return t >= 0 && (c->rank_until < 0 || t < c->rank_until);
}

void ft_backend_courier_post(struct ft_courier *c, double due, const void *msg,
                             size_t bytes, int quiet) {
  struct courier_entry e = {.due = due, .seq = c->seq++};
  entry_keep(c, &e, msg, bytes);
  uint64_t seq = e.seq;
  /* A quiet message due before the wake_after-th one (or the one that
   * makes wake_after) brings the bell forward. */
  double quiet_before = quiet ? quiet_due(c) : -1;
  push(&c->q[quiet ? QUIET : LOUD], e);
  int rings_earlier = 0;
  if (quiet && c->wake_after > 0 && c->q[QUIET].n >= (size_t)c->wake_after &&
      (quiet_before < 0 || due < quiet_before)) { /* else the same */
    c->quiet_known = 0;
    rings_earlier = helper_sleeps_past(c, quiet_due(c));
  }
  /* The new first of those who wait for it: the rank in
   * ft_backend_courier_wait or in its waiter waits for every message, the
   * helper for the loud ones. */
  if (!c->rank_waiting && c->waiter) {
    if (first(c)->seq == seq)
      ft_smpi_waiter_wake(c->waiter);
  } else if (c->rank_waiting
                 ? rank_sleeps_past(c)
                 : (!quiet && c->q[LOUD].e[0].seq == seq) || rings_earlier) {
    kick(c);
  }
}

size_t ft_backend_courier_take(struct ft_courier *c, void *buf, size_t cap) {
  /* A nanosecond's slack: the bell rung `lead` early arrives at the due
   * time give or take a rounding error. */
  const struct courier_entry *f = c ? first(c) : NULL;
  if (!f || f->due > simgrid_get_clock() + 1e-9)
    return 0;
  struct courier_heap *h = &c->q[f == c->q[LOUD].e ? LOUD : QUIET];
  if (h == &c->q[QUIET])
    c->quiet_known = 0;
  struct courier_entry e = h->e[0];
  h->e[0] = h->e[--h->n];
  sift_down(h->e, h->n, 0);
  if (e.bytes > cap)
    courier_fatal("a courier's message is larger than its receiver's buffer");
  memcpy(buf, entry_bytes(c, &e), e.bytes);
  entry_drop(c, &e);
  return e.bytes;
}

void ft_backend_courier_attach(struct ft_courier *c, struct ft_waiter *w) {
  if (c)
    c->waiter = w;
}

double ft_backend_courier_next_due(const struct ft_courier *c) {
  const struct courier_entry *f = c ? first(c) : NULL;
  return f ? f->due : -1;
}

/* Sets the count of quiet messages quiet_due looks for. */
static void set_wake_after(struct ft_courier *c, int n) {
  if (n < 0)
    n = 0;
  if (n != c->wake_after) {
    c->wake_after = n;
    c->quiet_known = 0;
  }
}

void ft_backend_courier_wake_after(struct ft_courier *c, int n) {
  if (!c)
    return;
  set_wake_after(c, n);
  /* Also when n is the same: the quiet messages came while the rank did
   * not block in MPI (no bell meanwhile), and only now is one needed. */
  if (!c->rank_waiting && !c->waiter && c->bells == c->taken &&
      helper_sleeps_past(c, quiet_due(c)))
    kick(c);
}

void ft_backend_courier_bell_taken(struct ft_courier *c) {
  if (!c)
    return;
  c->taken++;
  kick(c);
}

void ft_backend_courier_wait(struct ft_courier *c, int wake_after) {
  ft_smpi_bench_pause(); /* other actors run meanwhile */
  /* The helper rings no bell while the rank waits here (bell_in): the
   * count is the rank's own meanwhile, the helper's again after. */
  int helper_count = c->wake_after;
  set_wake_after(c, wake_after);
  c->rank_waiting = 1;
  for (;;) {
    double due = wait_target(c);
    double in = due >= 0 ? due - simgrid_get_clock() : -1;
    if (due >= 0 && in <= 1e-9)
      break;
    c->rank_until = due;
    if (in > 0)
      (void)sg_sem_acquire_timeout(c->rank_wake, in);
    else
      sg_sem_acquire(c->rank_wake);
    c->rank_kicked = 0;
  }
  c->rank_waiting = 0;
  set_wake_after(c, helper_count);
  /* The helper rings for what comes behind the message due, which the
   * rank takes now: kicked for that one too, it ran before the rank took
   * it (the release is a simcall) and rang a bell at once for a message
   * already taken, one a message a rank waits for (v2, bt on 64 ranks:
   * 26,001 bells for 28,736 acknowledgements, each a flow on the host's
   * links that SimGrid's bandwidth sharing solves for). */
  const struct courier_entry *f = first(c);
  if (c->q[LOUD].n > (size_t)(f == c->q[LOUD].e))
    kick(c); /* the quiet ones: when the rank blocks in MPI next
                (ft_backend_courier_wake_after) */
  ft_smpi_bench_resume();
}

uint64_t ft_backend_courier_stop(struct ft_courier *c) {
  if (!c)
    return 0;
  c->quit = 1;
  ft_smpi_bench_pause();
  sg_sem_release(c->wake);
  sg_actor_join(c->helper, -1);
  sg_sem_destroy(c->wake);
  sg_sem_destroy(c->rank_wake);
  sg_actor_set_data(sg_actor_self(), NULL);
  ft_smpi_bench_resume();
  uint64_t bells = c->bells;
  for (int k = LOUD; k <= QUIET; k++) {
    for (size_t i = 0; i < c->q[k].n; i++)
      entry_drop(c, &c->q[k].e[i]);
    free(c->q[k].e);
  }
  free(c->slab.bytes);
  free(c->slab.free_slots);
  free(c->scratch);
  free(c);
  return bells;
}
