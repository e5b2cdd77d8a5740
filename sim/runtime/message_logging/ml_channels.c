/* Message logging: the channel table and the sender-based log (see
 * msglog.h). */
#include <stdlib.h>
#include <string.h>

#include "msglog.h"
#include "runtime/trace.h"

static size_t hash(int comm, int coll, int peer, int tag) {
  uint64_t h = (uint64_t)(uint32_t)comm * 0x9E3779B97F4A7C15u;
  h ^= (uint64_t)(uint32_t)peer * 0xC2B2AE3D27D4EB4Fu + (uint64_t)coll;
  h ^= (uint64_t)(uint32_t)tag * 0x165667B19E3779F9u;
  return (size_t)(h ^ (h >> 29));
}

static void rehash(struct ft_ml_channels *mc) {
  free(mc->slots);
  mc->n_slots = mc->n_slots ? 2 * mc->n_slots : 256;
  mc->slots = calloc(mc->n_slots, sizeof *mc->slots);
  if (!mc->slots)
    ft_fatal("message logging: out of memory");
  for (size_t i = 0; i < mc->n; i++) {
    const struct ft_ml_channel *c = &mc->at[i];
    size_t s = hash(c->comm, c->coll, c->peer, c->tag) % mc->n_slots;
    while (mc->slots[s])
      s = (s + 1) % mc->n_slots;
    mc->slots[s] = (int)i + 1;
  }
}

void ft_ml_init(struct ft_ml *ml, int world_rank) {
  ml->channels.rank = world_rank;
}

struct ft_ml_channel *ft_ml_channel(struct ft_ml_channels *mc, int comm,
                                    int coll, int peer, int tag) {
  if (2 * (mc->n + 1) > mc->n_slots)
    rehash(mc);
  size_t s = hash(comm, coll, peer, tag) % mc->n_slots;
  for (; mc->slots[s]; s = (s + 1) % mc->n_slots) {
    struct ft_ml_channel *c = &mc->at[mc->slots[s] - 1];
    if (c->comm == comm && c->coll == coll && c->peer == peer && c->tag == tag)
      return c;
  }
  mc->at = ft_reserve(mc->at, mc->n + 1, &mc->cap, sizeof *mc->at,
                      "message logging's channels");
  struct ft_ml_channel *c = &mc->at[mc->n++];
  memset(c, 0, sizeof *c);
  c->comm = comm;
  c->coll = coll;
  c->peer = peer;
  c->tag = tag;
  mc->slots[s] = (int)mc->n;
  return c;
}

struct ft_ml_channel *ft_ml_channel_at(struct ft_ml_channels *mc, size_t i) {
  return i < mc->n ? &mc->at[i] : NULL;
}

/* ---- The log ---- */

static struct ft_ml_entry *find_entry(struct ft_ml_channel *ch, int64_t seq) {
  size_t lo = 0, hi = ch->n_log;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (ch->log[mid].seq < seq)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < ch->n_log && ch->log[lo].seq == seq ? &ch->log[lo] : NULL;
}

struct ft_ml_entry *ft_ml_log_add(struct ft_runtime *rt,
                                  struct ft_ml_channels *mc,
                                  struct ft_ml_channel *ch, int64_t seq,
                                  void *data, size_t bytes) {
  struct ft_ml_entry *e = find_entry(ch, seq);
  if (e) { /* rebuilt by a re-execution, or restored twice */
    free(data);
    return e;
  }
  ch->log = ft_reserve(ch->log, ch->n_log + 1, &ch->cap_log, sizeof *ch->log,
                       "a sender-based log");
  size_t at = ch->n_log;
  while (at > 0 && ch->log[at - 1].seq > seq)
    at--;
  memmove(&ch->log[at + 1], &ch->log[at], (ch->n_log - at) * sizeof ch->log[0]);
  ch->log[at] = (struct ft_ml_entry){.seq = seq, .bytes = bytes, .data = data};
  ch->n_log++;
  ft_ml_serve(rt, mc, ch);
  return find_entry(ch, seq);
}

void ft_ml_send_done(struct ft_ml_channels *mc, int comm, int coll, int peer,
                     int tag, int64_t seq) {
  struct ft_ml_entry *e =
      find_entry(ft_ml_channel(mc, comm, coll, peer, tag), seq);
  if (e && e->in_flight > 0)
    e->in_flight--;
}

/* A send from `data` completed: one less reads it. Its entry is in the log
 * or, its life lost, in limbo, freed there once nothing reads it. */
static void sent_from(struct ft_ml_channels *mc, void *data) {
  for (size_t i = 0; i < mc->n; i++)
    for (size_t k = 0; k < mc->at[i].n_log; k++)
      if (mc->at[i].log[k].data == data) {
        mc->at[i].log[k].in_flight--;
        return;
      }
  for (size_t i = 0; i < mc->n_limbo; i++)
    if (mc->limbo[i].data == data && --mc->limbo[i].in_flight == 0) {
      free(data);
      mc->limbo[i] = mc->limbo[--mc->n_limbo];
      return;
    }
}

/* Forgets the resends that completed: their entries may be freed. */
static void progress_resends(struct ft_ml_channels *mc, int wait) {
  size_t kept = 0;
  for (size_t i = 0; i < mc->n_resends; i++) {
    struct ft_ml_resend *r = &mc->resends[i];
    int flag = 1;
    if (wait)
      FT_PMPI(Wait, &r->req, MPI_STATUS_IGNORE);
    else
      FT_PMPI(Test, &r->req, &flag, MPI_STATUS_IGNORE);
    if (flag)
      sent_from(mc, r->data);
    else
      mc->resends[kept++] = *r;
  }
  mc->n_resends = kept;
}

void ft_ml_finish_resends(struct ft_ml_channels *mc) {
  progress_resends(mc, 1);
}

static void free_entry(struct ft_ml_channels *mc, struct ft_ml_entry *e) {
  if (!e->in_flight) {
    free(e->data);
    return;
  }
  mc->limbo =
      ft_reserve(mc->limbo, mc->n_limbo + 1, &mc->cap_limbo, sizeof *mc->limbo,
                 "sender-based log entries still sending");
  mc->limbo[mc->n_limbo++] = *e; /* its send still reads it */
}

void ft_ml_log_lose(struct ft_ml_channels *mc) {
  progress_resends(mc, 0);
  for (size_t i = 0; i < mc->n; i++) {
    struct ft_ml_channel *ch = &mc->at[i];
    for (size_t k = 0; k < ch->n_log; k++)
      free_entry(mc, &ch->log[k]);
    ch->n_log = 0;
  }
}

/* Garbage collection: the receiver's checkpoint holds messages (pre,
 * upto]. */
void ft_ml_collect(struct ft_ml_channels *mc, struct ft_ml_channel *ch,
                   int64_t pre, int64_t upto) {
  progress_resends(mc, 0);
  size_t kept = 0;
  for (size_t k = 0; k < ch->n_log; k++) {
    struct ft_ml_entry *e = &ch->log[k];
    if (e->seq > pre && e->seq <= upto)
      free_entry(mc, e);
    else
      ch->log[kept++] = *e;
  }
  ch->n_log = kept;
}

/* ---- Resends to a restarted peer ---- */

MPI_Comm ft_ml_wire(struct ft_runtime *rt, const struct ft_ml_channels *mc,
                    const struct ft_ml_channel *ch, int *peer_rank) {
  struct ft_comm *c = ft_comm_named(rt, ch->comm);
  if (!c)
    ft_fatal("rank %d: a message-logging channel on unknown communicator %d",
             mc->rank, ch->comm);
  *peer_rank = ft_comm_rank_of(c, ch->peer);
  return ft_comm_traffic(c, ch->coll);
}

void ft_ml_serve(struct ft_runtime *rt, struct ft_ml_channels *mc,
                 struct ft_ml_channel *ch) {
  while (ch->resend_next > 0 && ch->resend_next <= ch->resend_to) {
    if (ch->resend_next > ch->resend_pre && ch->resend_next <= ch->resend_from)
      ch->resend_next = ch->resend_from + 1; /* its checkpoint has those */
    if (ch->resend_next > ch->resend_to)
      break;
    /* This rank failed meanwhile: it resends no more in this life, but the
     * peer still waits for the rest. resend_next stays where it is, like
     * the wire counts, so that the re-execution rebuilding those messages
     * (ft_ml_log_add) sends them (soak seed 17: pessimist, fring, rank 1
     * died between its answer to rank 0's restart and the resend, and
     * rank 0 waited for ever). */
    ft_control_fate(rt);
    struct ft_ml_entry *e = find_entry(ch, ch->resend_next);
    if (!e)
      return; /* a re-execution of mine will rebuild it */
    int dest;
    MPI_Comm comm = ft_ml_wire(rt, mc, ch, &dest);
    mc->resends = ft_reserve(mc->resends, mc->n_resends + 1, &mc->cap_resends,
                             sizeof *mc->resends, "resends on their way");
    struct ft_ml_resend *r = &mc->resends[mc->n_resends++];
    r->data = e->data;
    e->in_flight++; /* one more send reads it (a count: a peer restarted
                       twice may have it on its way twice) */
    FT_PMPI(Isend, e->data, (int)e->bytes, MPI_PACKED, dest, ch->tag, comm,
            &r->req);
    ch->wire_sent++;
    mc->resent++;
    if (ft_trace_on(rt))
      ft_trace_line_(rt, 0, "resend", "%d %c %d %d %lld %zu", ch->comm,
                     ch->coll ? 'c' : 'p', ch->peer, ch->tag, (long long)e->seq,
                     e->bytes);
    ch->resend_next++;
  }
  ch->resend_next = 0;
}

/* ---- Checkpoints ---- */

void ft_ml_mark_checkpoint(struct ft_runtime *rt, struct ft_ml_channels *mc,
                           int wave) {
  for (size_t i = 0; i < mc->n; i++) {
    struct ft_ml_channel *ch = &mc->at[i];
    ch->checkpointed = ch->delivered;
    if (ft_trace_on(rt) && ch->delivered > 0)
      ft_trace_line_(rt, 0, "chk", "%d %d %c %d %d %lld", wave, ch->comm,
                     ch->coll ? 'c' : 'p', ch->peer, ch->tag,
                     (long long)ch->delivered);
  }
}

void ft_ml_mark_pre(struct ft_ml_channels *mc) {
  for (size_t i = 0; i < mc->n; i++)
    mc->at[i].pre = mc->at[i].delivered;
}

void ft_ml_reset_logical(struct ft_ml_channels *mc) {
  for (size_t i = 0; i < mc->n; i++)
    mc->at[i].sent = mc->at[i].delivered = 0;
}

/* Region layout: int64 clock, int64 n, double time; per channel: int32 comm,
 * coll, peer, tag; int64 sent, delivered, n_log; per entry: int64 seq, bytes,
 * then the bytes padded to 8. */
struct region_channel {
  int32_t comm, coll, peer, tag;
  int64_t sent, delivered, n_log;
};

static size_t pad8(size_t n) { return (n + 7) & ~(size_t)7; }

size_t ft_ml_region_size(const struct ft_ml_channels *mc) {
  size_t size = 24;
  for (size_t i = 0; i < mc->n; i++) {
    size += sizeof(struct region_channel);
    for (size_t k = 0; k < mc->at[i].n_log; k++)
      size += 16 + pad8(mc->at[i].log[k].bytes);
  }
  return size;
}

void ft_ml_region_write(const struct ft_ml_channels *mc, void *dst,
                        int64_t clock, double time) {
  char *p = dst;
  int64_t head[2] = {clock, (int64_t)mc->n};
  memcpy(p, head, 16);
  memcpy(p + 16, &time, 8);
  p += 24;
  for (size_t i = 0; i < mc->n; i++) {
    const struct ft_ml_channel *ch = &mc->at[i];
    struct region_channel rc = {ch->comm,          ch->coll, ch->peer,
                                ch->tag,           ch->sent, ch->delivered,
                                (int64_t)ch->n_log};
    memcpy(p, &rc, sizeof rc);
    p += sizeof rc;
    for (size_t k = 0; k < ch->n_log; k++) {
      int64_t e[2] = {ch->log[k].seq, (int64_t)ch->log[k].bytes};
      memcpy(p, e, 16);
      memcpy(p + 16, ch->log[k].data, ch->log[k].bytes);
      memset(p + 16 + ch->log[k].bytes, 0,
             pad8(ch->log[k].bytes) - ch->log[k].bytes);
      p += 16 + pad8(ch->log[k].bytes);
    }
  }
}

int64_t ft_ml_region_restore(struct ft_runtime *rt, struct ft_ml_channels *mc,
                             const void *src, size_t size, double *time) {
  const char *p = src, *end = p + size;
  int64_t head[2];
  if (size < 24)
    ft_fatal("message-logging region of %zu bytes is truncated", size);
  memcpy(head, p, 16);
  memcpy(time, p + 16, 8);
  p += 24;
  ft_ml_reset_logical(mc);
  for (int64_t i = 0; i < head[1]; i++) {
    struct region_channel rc;
    if ((size_t)(end - p) < sizeof rc)
      ft_fatal("message-logging region is truncated at channel %lld",
               (long long)i);
    memcpy(&rc, p, sizeof rc);
    p += sizeof rc;
    struct ft_ml_channel *ch =
        ft_ml_channel(mc, rc.comm, rc.coll, rc.peer, rc.tag);
    ch->sent = rc.sent;
    ch->delivered = rc.delivered;
    for (int64_t k = 0; k < rc.n_log; k++) {
      int64_t e[2];
      if (end - p < 16)
        ft_fatal("message-logging region is truncated in a log");
      memcpy(e, p, 16);
      size_t bytes = (size_t)e[1];
      if ((size_t)(end - p - 16) < pad8(bytes))
        ft_fatal("message-logging region is truncated in a log entry");
      void *data = malloc(bytes ? bytes : 1);
      if (!data)
        ft_fatal("message logging: out of memory");
      memcpy(data, p + 16, bytes);
      p += 16 + pad8(bytes);
      ft_ml_log_add(rt, mc, ch, e[0], data, bytes);
    }
  }
  return head[0];
}
