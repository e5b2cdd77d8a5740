/* The one place that maps a protocol family to its driver (driver.h): the
 * generic runtime calls the table it returns and names no family. */
#include "channel_state/channel_state.h"
#include "coordinated/coordinated.h"
#include "drain/drain.h"
#include "message_logging/msglog.h"
#include "piggyback/piggyback.h"
#include "runtime.h"

/* No recovery: nothing family-specific, every operation takes the default
 * path. */
static const struct ft_driver none_driver = {.name = "none"};

/* A table that posts its own requests sets every operation on them. */
static int driver_complete(const struct ft_driver *d) {
  if (!d->isend && !d->irecv)
    return 1;
  return d->isend && d->irecv && d->wait && d->waitall && d->waitany &&
         d->waitsome && d->test && d->testall && d->testany && d->testsome &&
         d->request_free && d->cancel;
}

/* The table of `family`, or NULL when it has none. */
static const struct ft_driver *driver_table(enum ft_family family) {
  switch (family) {
  case FT_FAMILY_NONE:
    return &none_driver;
  case FT_FAMILY_COORDINATED:
    return &ft_coordinated_driver;
  case FT_FAMILY_CHANNEL_STATE:
    return &ft_cs_driver;
  case FT_FAMILY_MESSAGE_LOGGING:
    return &ft_ml_driver;
  case FT_FAMILY_DRAIN:
    return &ft_drain_driver;
  case FT_FAMILY_PIGGYBACK:
    return &ft_pb_driver;
  default:
    return NULL;
  }
}

/* A family that recovers and has no table would run with none's default
 * path and lose every checkpoint and message it should keep: refused. */
const struct ft_driver *ft_driver_of(enum ft_family family) {
  const struct ft_driver *d = driver_table(family);
  if (!d) {
    const char *name = ft_family_name(family);
    ft_fatal("protocol family '%s' (%d) has no runtime driver: a protocol "
             "that recovers needs its family's table in ft_driver_of "
             "(sim/runtime/drivers.c, docs/adding-a-protocol.md)",
             name ? name : "?", (int)family);
  }
  if (!driver_complete(d))
    ft_fatal("the %s driver posts its own requests but leaves some of "
             "their completions to the default path (driver.h)",
             d->name);
  return d;
}
