/* The trace checker's rule on failures ("after-failure"), beside the
 * family's rules: a failed rank acts no more. Pure C11: no MPI, no global
 * state.
 *
 * The dispatcher's file (PREFIX.N, N the number of application ranks)
 * holds a record "TIME N INC fail RANK UNTIL" for every failure it
 * injected, at the failure's time; UNTIL is when the victim's replacement
 * process may start (TIME plus the scenario's detection and restart
 * times). In between no process of that rank exists: its file may hold no
 * record with a time in (TIME, UNTIL) before the record that begins its
 * next life (`rollback`, every rank rolled back; `restart`, message
 * logging) or its `end` (a run stopped meanwhile). What the replacement
 * does from UNTIL on (a recovery) is its own. */
#ifndef FT_FAIL_CHECK_H
#define FT_FAIL_CHECK_H

#include "trace_check.h"

/* Checks every fail record of PREFIX.ranks (none, or no such file: ok)
 * against the victim's file PREFIX.RANK. Returns FT_CHECK_OK, or
 * FT_CHECK_VIOLATION with res->kind "after-failure" and res->message
 * naming the failure (file:line, time), the victim's first record after it
 * (file:line, kind, time, the lag) and the last one before its next life;
 * FT_CHECK_MALFORMED when a fail record names no application rank or a
 * victim's file cannot be read. Only res->status, kind and message are
 * written. */
enum ft_check_status ft_check_failures(const char *prefix, int ranks,
                                       struct ft_check_result *res);

#endif /* FT_FAIL_CHECK_H */
