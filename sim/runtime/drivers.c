/* The one place that maps a protocol family to its driver (driver.h): the
 * generic runtime calls the table it returns and names no family. */
#include "channel_state/channel_state.h"
#include "coordinated/coordinated.h"
#include "drain/drain.h"
#include "message_logging/msglog.h"
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

const struct ft_driver *ft_driver_of(enum ft_family family) {
  const struct ft_driver *d = &none_driver;
  switch (family) {
  case FT_FAMILY_COORDINATED:
    d = &ft_coordinated_driver;
    break;
  case FT_FAMILY_CHANNEL_STATE:
    d = &ft_cs_driver;
    break;
  case FT_FAMILY_MESSAGE_LOGGING:
    d = &ft_ml_driver;
    break;
  case FT_FAMILY_DRAIN:
    d = &ft_drain_driver;
    break;
  default:
    break;
  }
  if (!driver_complete(d))
    ft_fatal("the %s driver posts its own requests but leaves some of "
             "their completions to the default path (driver.h)",
             d->name);
  return d;
}
