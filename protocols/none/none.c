/* Protocol `none`: interposition with no fault tolerance (the papers'
 * "Vdummy"). The baseline every protocol's overhead is measured against.
 * Pure: no MPI, no clock, no allocation. */
#include "../ft_protocol.h"

struct none_state {
  uint64_t events; /* events seen, so the step does the least real work */
};

static size_t none_state_size(const struct ft_core_config *config) {
  (void)config;
  return sizeof(struct none_state);
}

static int none_init(void *state, const struct ft_core_config *config) {
  (void)state;
  return config->ranks > 0 && config->rank >= 0 && config->rank < config->ranks
             ? 0
             : -1;
}

static int none_step(void *state, const struct ft_event *event,
                     struct ft_update *update) {
  struct none_state *s = state;
  (void)event;
  s->events++;
  update->flags = FT_UPDATE_PASS;
  update->deadline = -1.0;
  update->sends = NULL;
  update->n_sends = 0;
  return 0;
}

const struct ft_protocol_ops ft_protocol_none = {
    .name = "none",
    .family = FT_FAMILY_NONE,
    .summary = "no fault tolerance: every operation passes through (Vdummy)",
    .state_size = none_state_size,
    .init = none_init,
    .step = none_step,
};
