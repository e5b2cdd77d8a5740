/* The trace checker's rules for the message-logging protocols (pessimist,
 * v2), over the records their runtime writes (README.md, "Traces"):
 *   send/resend/deliver COMM CH PEER TAG SEQ BYTES  SEQ: the message's
 *                       number on its channel in the sender's logical
 *                       count (a restarted rank's re-executed sends that
 *                       the wire already had are not written)
 *   nd  ID KIND PEER TAG VALUE  a non-deterministic outcome (KIND: enum
 *                       ft_logged_kind; VALUE: a completion's request)
 *   log ID KIND PEER TAG VALUE  an event shipped to the event logger
 *   logged N            the logger holds N events of this rank
 *   chk WAVE COMM CH PEER TAG DELIVERED  checkpoint WAVE's count of a
 *                       channel (PEER: the sender)
 *   restart LIFE HELD HORIZON  this rank failed and runs main() again; its
 *                       logger holds HELD events, the last with id HORIZON
 *   restore WAVE INDEX  it restored its checkpoint WAVE
 * What it proves, naming the first violation:
 *  - "duplicate", "lost": on every channel, the receiver's deliveries, as
 *    its final history has them (a restart starts over from the first
 *    message, a restore continues after the checkpoint's count), are
 *    exactly the messages 1, 2, ... in order, and at the end every message
 *    its sender put on the wire has been delivered;
 *  - "replay": a restarted rank's outcome of every logged operation (ids up
 *    to HORIZON) is the logged one;
 *  - "unlogged": no rank sends before every non-deterministic outcome it
 *    had is shipped and acknowledged (the pessimistic rule: no other rank
 *    ever depends on an event a failure could lose). */
#ifndef FT_ML_CHECK_H
#define FT_ML_CHECK_H

#include "trace_check.h"

/* Checks PREFIX.0 .. PREFIX.(ranks-1); fills res (status, kind, message,
 * counts) and returns res->status. */
enum ft_check_status ft_ml_check_files(const char *prefix, int ranks,
                                       struct ft_check_result *res);

/* ft_trace_read for this family: reads PREFIX.0 .. PREFIX.(ranks-1) and
 * PREFIX.ranks (the dispatcher's, when it exists) with this file's
 * reader, handing each header and record to `v`; a rule broken is not
 * reported (only malformed input, and a truncated file as a note in
 * res->message). Returns res->status. */
enum ft_check_status ft_ml_trace_read(const char *prefix, int ranks,
                                      const struct ft_trace_visitor *v,
                                      struct ft_check_result *res);

#endif /* FT_ML_CHECK_H */
