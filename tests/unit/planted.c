/* Deliberately broken protocol cores (see planted.h). */
#include "planted.h"

#include <string.h>

#include "pcl/pcl.h"
#include "vcl/vcl.h"

/* ---- vcl-bug-nokeep: STORE drops its keep ranges ------------------------ */

static size_t nokeep_state_size(const struct ft_core_config *config) {
  return ft_protocol_vcl.state_size(config);
}

static int nokeep_init(void *state, const struct ft_core_config *config) {
  return ft_protocol_vcl.init(state, config);
}

static int nokeep_step(void *state, const struct ft_event *event,
                       struct ft_update *update) {
  int rc = ft_protocol_vcl.step(state, event, update);
  if (rc == 0 && (update->flags & FT_UPDATE_STORE)) {
    update->keep = NULL; /* the bug */
    update->n_keep = 0;
  }
  return rc;
}

static const struct ft_protocol_ops vcl_nokeep = {
    .name = "vcl-bug-nokeep",
    .family = FT_FAMILY_CHANNEL_STATE,
    .summary = "vcl, broken on purpose: STORE keeps no channel state",
    .state_size = nokeep_state_size,
    .init = nokeep_init,
    .step = nokeep_step,
    .controls = ft_vcl_controls,
    .n_controls = FT_VCL_CONTROL_COUNT,
};

/* ---- pcl-bug-late: rank 1 checkpoints one safe point late --------------- */

/* The wrapper's state: a header, then pcl's (aligned as calloc aligns). */
struct late {
  int rank;
  int late_wave; /* a CHECKPOINT held back until the next safe point */
};
#define LATE_HEADER 16

static void *inner(void *state) { return (char *)state + LATE_HEADER; }

static size_t late_state_size(const struct ft_core_config *config) {
  return LATE_HEADER + ft_protocol_pcl.state_size(config);
}

static int late_init(void *state, const struct ft_core_config *config) {
  struct late *l = state;
  l->rank = config->rank;
  l->late_wave = 0;
  return ft_protocol_pcl.init(inner(state), config);
}

static int late_step(void *state, const struct ft_event *event,
                     struct ft_update *update) {
  struct late *l = state;
  int rc = ft_protocol_pcl.step(inner(state), event, update);
  if (rc != 0 || l->rank != 1)
    return rc;
  if (event->type == FT_EVENT_ROLLBACK)
    l->late_wave = 0;
  if (l->late_wave && event->type == FT_EVENT_SAFE_POINT &&
      !(update->flags & FT_UPDATE_CHECKPOINT)) {
    update->flags |= FT_UPDATE_CHECKPOINT; /* the bug: one safe point late */
    update->wave = l->late_wave;
    l->late_wave = 0;
  } else if (update->flags & FT_UPDATE_CHECKPOINT) {
    update->flags &= ~(unsigned)FT_UPDATE_CHECKPOINT;
    l->late_wave = update->wave;
  }
  return rc;
}

static const struct ft_protocol_ops pcl_late = {
    .name = "pcl-bug-late",
    .family = FT_FAMILY_COORDINATED,
    .summary = "pcl, broken on purpose: rank 1 checkpoints one safe point late",
    .state_size = late_state_size,
    .init = late_init,
    .step = late_step,
    .controls = ft_pcl_controls,
    .n_controls = FT_PCL_CONTROL_COUNT,
};

/* ---- pcl-bug-nodelay: any-call mode without the delayed receive queue -- */

static size_t nodelay_state_size(const struct ft_core_config *config) {
  return ft_protocol_pcl.state_size(config);
}

static int nodelay_init(void *state, const struct ft_core_config *config) {
  return ft_protocol_pcl.init(state, config);
}

static int nodelay_step(void *state, const struct ft_event *event,
                        struct ft_update *update) {
  int rc = ft_protocol_pcl.step(state, event, update);
  if (rc == 0 && (update->flags & FT_UPDATE_QUEUE)) {
    update->flags &= ~(unsigned)FT_UPDATE_QUEUE; /* the bug: delivered */
    update->flags |= FT_UPDATE_PASS;
  }
  return rc;
}

static const struct ft_protocol_ops pcl_nodelay = {
    .name = "pcl-bug-nodelay",
    .family = FT_FAMILY_COORDINATED,
    .summary = "pcl, broken on purpose: in any-call mode a message of a "
               "channel whose marker is in is delivered, not queued",
    .state_size = nodelay_state_size,
    .init = nodelay_init,
    .step = nodelay_step,
    .controls = ft_pcl_controls,
    .n_controls = FT_PCL_CONTROL_COUNT,
};

static const struct ft_protocol_ops *const planted[] = {&vcl_nokeep, &pcl_late,
                                                        &pcl_nodelay};

const struct ft_protocol_ops *planted_at(size_t i) {
  return i < sizeof planted / sizeof planted[0] ? planted[i] : NULL;
}

const struct ft_protocol_ops *planted_find(const char *name) {
  for (size_t i = 0; planted_at(i); i++)
    if (strcmp(planted_at(i)->name, name) == 0)
      return planted_at(i);
  return NULL;
}
