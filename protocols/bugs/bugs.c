/* Test-only protocol variants, one deliberate bug each, to show that the
 * trace checker (`ftsim check`) catches real protocol bugs. They are not in
 * the default registry: only programs that compile this file (tests/check)
 * know them, through the weak hook ft_protocol_test_variant (registry.c).
 *
 *  pcl-bug-nofreeze   MPICH2-Pcl freezes a channel after its marker until
 *                     the local checkpoint, so that no message sent after
 *                     the sender's checkpoint reaches the receiver before
 *                     its own (pcl-vs-vcl-fgcs08, section 3). ftsim's pcl
 *                     gets the same guarantee by checkpointing every rank
 *                     at the safe point K that rank 0 chose. The variant
 *                     breaks it the faithful way: each rank takes its image
 *                     at its own next safe point once it hears of the wave
 *                     (the one where pcl would stop to report its
 *                     position), not at the agreed K; everything else is
 *                     pcl's (markers, hold, commit). A rank behind the
 *                     others checkpoints one iteration early: orphans.
 *  vcl-bug-nochannel  vcl whose STORE keeps no channel-state record: the
 *                     messages in transit across the cut are lost at a
 *                     rollback.
 *  pessimist-bug-nowait  the pessimist without its pessimistic rule: a
 *                     send leaves at once, even while events shipped to
 *                     the event logger are not acknowledged (a failure
 *                     then may lose an event another rank depends on).
 *  c3-bug-nosuppress  c3 without its suppress list at recovery: a
 *                     re-executed send that a receiver's checkpoint
 *                     already holds (an early message) is sent again
 *                     (c3-collectives, section 2.3: "process Q must
 *                     suppress sending it"); its receiver gets it twice.
 *                     Caught by the seeded cluster
 *                     (tests/unit/c3_cluster.c) and by ftsim check (a
 *                     send where a `suppress` was due) on a written trace
 *                     and on a run's truncated traces (its runs stop on
 *                     the receivers' cores:
 *                     check/bug_c3_nosuppress_is_a_duplicate).
 *  bookmark-bug-nodrain  bookmark that checkpoints as soon as the
 *                     bookmarks are exchanged, without draining: each
 *                     peer's "sent" bookmark is read as the bytes already
 *                     received from it, so the messages still on the wire
 *                     at the cut arrive after the checkpoint, are held in
 *                     the delayed queue as if sent after the peer's, and
 *                     are lost at a rollback (any-call mode; at safe
 *                     points the contract of sim/ft.h leaves nothing to
 *                     drain).
 *
 * Both wrap the real cores (ft_protocol_pcl, ft_protocol_vcl) and change
 * only what their updates say; like every core they own no global mutable
 * state, never allocate and never call MPI. */
#include <stdalign.h>
#include <stddef.h>
#include <string.h>

#include "../bookmark/bookmark.h"
#include "../c3/c3.h"
#include "../ft_protocol.h"
#include "../pcl/pcl.h"
#include "../pessimist/pessimist.h"
#include "../vcl/vcl.h"

/* ---- pcl-bug-nofreeze ---- */

struct nofreeze {
  int rank, ranks;
  int wave;        /* the inner core's wave when last seen */
  int64_t index;   /* safe points passed */
  int64_t own;     /* this wave's image goes here (0: no wave heard of) */
  int taken;       /* the image of this wave was taken at `own` */
  int asked;       /* the inner core asked for its (suppressed) checkpoint */
  int stored;      /* the early image is stored, the core not told yet */
  double deadline; /* the inner core's last deadline */
  size_t n_sends;
  /* then: sends[4 * ranks], then the inner pcl state */
};

static size_t header_size(void) {
  size_t a = alignof(max_align_t);
  return (sizeof(struct nofreeze) + a - 1) / a * a;
}

static struct ft_control *nf_sends(struct nofreeze *s) {
  return (struct ft_control *)((char *)s + header_size());
}

static size_t sends_bytes(int ranks) {
  size_t a = alignof(max_align_t);
  size_t b = 4 * (size_t)(ranks > 0 ? ranks : 0) * sizeof(struct ft_control);
  return (b + a - 1) / a * a;
}

static void *nf_inner(struct nofreeze *s) {
  return (char *)s + header_size() + sends_bytes(s->ranks);
}

static size_t nf_state_size(const struct ft_core_config *config) {
  return header_size() + sends_bytes(config->ranks) +
         ft_protocol_pcl.state_size(config);
}

static int nf_init(void *state, const struct ft_core_config *config) {
  struct nofreeze *s = state;
  s->rank = config->rank;
  s->ranks = config->ranks;
  s->deadline = -1;
  return ft_protocol_pcl.init(nf_inner(s), config);
}

static void nf_append(struct nofreeze *s, const struct ft_update *u) {
  for (size_t i = 0; i < u->n_sends; i++)
    nf_sends(s)[s->n_sends++] = u->sends[i];
}

static int sends_kind(const struct ft_update *u, enum ft_pcl_control kind) {
  for (size_t i = 0; i < u->n_sends; i++)
    if (u->sends[i].kind == (int)kind)
      return 1;
  return 0;
}

static int nf_step(void *state, const struct ft_event *e, struct ft_update *u) {
  struct nofreeze *s = state;
  void *inner = nf_inner(s);
  if (e->type == FT_EVENT_IMAGE_STORED && s->taken && !s->asked &&
      e->wave == s->wave) {
    s->stored = 1; /* told to the core once it asks for its checkpoint */
    *u = (struct ft_update){.deadline = s->deadline};
    return 0;
  }
  if (e->type == FT_EVENT_SAFE_POINT)
    s->index = e->index;
  if (ft_protocol_pcl.step(inner, e, u) != 0)
    return -1;
  if (e->type == FT_EVENT_ROLLBACK || ft_pcl_wave(inner) != s->wave) {
    s->wave = ft_pcl_wave(inner);
    s->own = 0;
    s->taken = s->asked = s->stored = 0;
    if (e->type == FT_EVENT_ROLLBACK)
      s->index = e->index;
  }
  /* The wave is heard of: rank 0 starts it, the others get its request. */
  if (s->own == 0 && (sends_kind(u, FT_PCL_CONTROL_WAVE_REQUEST) ||
                      (e->type == FT_EVENT_CONTROL &&
                       e->control.kind == FT_PCL_CONTROL_WAVE_REQUEST)))
    s->own = s->index + 1;
  int checkpoint_now = (u->flags & FT_UPDATE_CHECKPOINT) != 0;
  if (e->type == FT_EVENT_SAFE_POINT && s->own && !s->taken &&
      s->index >= s->own) {
    /* The bug: the image of this wave is this safe point's. */
    u->flags |= FT_UPDATE_CHECKPOINT;
    u->wave = s->wave;
    s->taken = 1;
    s->asked = checkpoint_now;
  } else if (checkpoint_now && s->taken) {
    u->flags &= ~(unsigned)FT_UPDATE_CHECKPOINT; /* taken already */
    s->asked = 1;
    if (s->stored) { /* tell the core now: it sends DONE or commits */
      s->n_sends = 0;
      nf_append(s, u);
      struct ft_update first = *u, second;
      struct ft_event stored = {.type = FT_EVENT_IMAGE_STORED,
                                .time = e->time,
                                .peer = -1,
                                .tag = -1,
                                .wave = s->wave};
      if (ft_protocol_pcl.step(inner, &stored, &second) != 0)
        return -1;
      nf_append(s, &second);
      *u = second;
      u->flags |= first.flags;
      if (!(second.flags & FT_UPDATE_COMMIT))
        u->wave = first.wave;
      u->sends = nf_sends(s);
      u->n_sends = s->n_sends;
      s->stored = 0;
    }
  } else if (checkpoint_now) {
    s->taken = s->asked = 1; /* no wave heard of: pcl's own checkpoint */
  }
  s->deadline = u->deadline;
  return 0;
}

static const struct ft_protocol_ops pcl_bug_nofreeze = {
    .name = "pcl-bug-nofreeze",
    .family = FT_FAMILY_COORDINATED,
    .summary = "TEST ONLY: pcl whose ranks checkpoint at their own next "
               "safe point, not the agreed one (orphan messages)",
    .state_size = nf_state_size,
    .init = nf_init,
    .step = nf_step,
    .controls = ft_pcl_controls,
    .n_controls = FT_PCL_CONTROL_COUNT,
};

/* ---- vcl-bug-nochannel ---- */

static int nc_step(void *state, const struct ft_event *e, struct ft_update *u) {
  if (ft_protocol_vcl.step(state, e, u) != 0)
    return -1;
  if (u->flags & FT_UPDATE_STORE) { /* the bug: keep no channel state */
    u->keep = NULL;
    u->n_keep = 0;
  }
  return 0;
}

static size_t nc_state_size(const struct ft_core_config *config) {
  return ft_protocol_vcl.state_size(config);
}

static int nc_init(void *state, const struct ft_core_config *config) {
  return ft_protocol_vcl.init(state, config);
}

static int nc_wake_after(const void *state) {
  return ft_protocol_vcl.wake_after(state);
}

static const struct ft_protocol_ops vcl_bug_nochannel = {
    .name = "vcl-bug-nochannel",
    .family = FT_FAMILY_CHANNEL_STATE,
    .summary = "TEST ONLY: vcl whose checkpoints keep no channel state "
               "(in-transit messages lost at a rollback)",
    .state_size = nc_state_size,
    .init = nc_init,
    .step = nc_step,
    .controls = ft_vcl_controls,
    .n_controls = FT_VCL_CONTROL_COUNT,
    .wake_after = nc_wake_after,
};

/* The hook registry.c looks for (weak there). */
/* ---- pessimist-bug-nowait ---- */

static size_t nowait_size(const struct ft_core_config *config) {
  return ft_protocol_pessimist.state_size(config);
}

static int nowait_init(void *state, const struct ft_core_config *config) {
  return ft_protocol_pessimist.init(state, config);
}

static int nowait_step(void *state, const struct ft_event *e,
                       struct ft_update *u) {
  int rc = ft_protocol_pessimist.step(state, e, u);
  u->flags &= ~(unsigned)FT_UPDATE_WAIT_LOGGED; /* the bug */
  return rc;
}

static const struct ft_protocol_ops pessimist_bug_nowait = {
    .name = "pessimist-bug-nowait",
    .family = FT_FAMILY_MESSAGE_LOGGING,
    .summary = "test only: the pessimist sending before the event logger's "
               "acknowledgement",
    .state_size = nowait_size,
    .init = nowait_init,
    .step = nowait_step,
    .controls = ft_ml_controls,
    .n_controls = FT_ML_CONTROL_COUNT,
};

/* ---- c3-bug-nosuppress ---- */

static size_t nosuppress_size(const struct ft_core_config *config) {
  return ft_protocol_c3.state_size(config);
}

static int nosuppress_init(void *state, const struct ft_core_config *config) {
  return ft_protocol_c3.init(state, config);
}

static int nosuppress_step(void *state, const struct ft_event *event,
                           struct ft_update *update) {
  int rc = ft_protocol_c3.step(state, event, update);
  if (rc == 0 && (update->flags & FT_UPDATE_SUPPRESS)) /* the bug */
    update->flags = FT_UPDATE_PASS | FT_UPDATE_PIGGYBACK;
  return rc;
}

static const struct ft_protocol_ops c3_bug_nosuppress = {
    .name = "c3-bug-nosuppress",
    .family = FT_FAMILY_PIGGYBACK,
    .summary = "c3, broken on purpose: early messages are sent again at "
               "recovery",
    .state_size = nosuppress_size,
    .init = nosuppress_init,
    .step = nosuppress_step,
    .controls = ft_c3_controls,
    .n_controls = FT_C3_CONTROL_COUNT,
};

/* ---- bookmark-bug-nodrain ---- */

static size_t nodrain_size(const struct ft_core_config *config) {
  return ft_protocol_bookmark.state_size(config);
}

static int nodrain_init(void *state, const struct ft_core_config *config) {
  return ft_protocol_bookmark.init(state, config);
}

/* The bug: a peer's bookmark says what already arrived, not what it sent. */
static int nodrain_step(void *state, const struct ft_event *e,
                        struct ft_update *u) {
  struct ft_event lie = *e;
  if (e->type == FT_EVENT_CONTROL &&
      e->control.kind == FT_BOOKMARK_CONTROL_BOOKMARK && e->control.value >= 0)
    lie.control.value = (int64_t)ft_bookmark_received(state, e->control.from);
  return ft_protocol_bookmark.step(state, &lie, u);
}

static const struct ft_protocol_ops bookmark_bug_nodrain = {
    .name = "bookmark-bug-nodrain",
    .family = FT_FAMILY_DRAIN,
    .summary = "test only: bookmark checkpointing before the drain completes "
               "(in-flight messages lost at a rollback)",
    .state_size = nodrain_size,
    .init = nodrain_init,
    .step = nodrain_step,
    .controls = ft_bookmark_controls,
    .n_controls = FT_BOOKMARK_CONTROL_COUNT,
};

const struct ft_protocol_ops *ft_protocol_test_variant(size_t i);

const struct ft_protocol_ops *ft_protocol_test_variant(size_t i) {
  static const struct ft_protocol_ops *const variants[] = {
      &c3_bug_nosuppress, &pcl_bug_nofreeze, &vcl_bug_nochannel,
      &pessimist_bug_nowait, &bookmark_bug_nodrain};
  return i < sizeof variants / sizeof variants[0] ? variants[i] : NULL;
}
