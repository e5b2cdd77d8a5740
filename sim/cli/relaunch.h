/* `ftsim run --real` under failure=kill (README, "Real failures: kill and
 * relaunch"): after a launch that a kill ended, the next launch's options,
 * and whether it was the kill that ended it. Pure POSIX: no MPI. */
#ifndef FT_CLI_RELAUNCH_H
#define FT_CLI_RELAUNCH_H

#include <stdbool.h>
#include <stddef.h>

struct ft_relaunch {
  const char *options; /* the run's FTSIM_OPTIONS text */
  const char *ckpt_dir;
  const char *scenario; /* "" for none */
  const char *trace;    /* the run's trace prefix, "" for none */
  int ranks;            /* application ranks */
};

/* Writes launch `launch`'s FTSIM_OPTIONS into out: the run's, plus
 * relaunch=N and, with a trace, trace=PREFIX.relaunch-N (each launch
 * writes its own trace files; launch 0's are PREFIX's). Returns 0, or -1
 * when it does not fit. */
int ft_relaunch_options(const struct ft_relaunch *k, int launch, char *out,
                        size_t cap);

/* Whether launch `launch`, which ended with no summary, ended by its kill:
 * the scenario's failure number `launch` exists, the run record says this
 * launch ran (run_record.h), and the failure's wall-clock time has come.
 * On true, sets *wave to the committed wave the next launch would load
 * and says so in msg ("launch 0: rank 1 killed (SIGKILL) at run time
 * 0.150000 s, failure 1 of the scenario"); on false, msg says why not when
 * a record problem is the reason (else ""). */
bool ft_relaunch_killed(const struct ft_relaunch *k, int launch, int *wave,
                        char *msg, size_t cap);

/* Before launch 0: deletes CKPT_DIR/run-record, a record of an earlier run
 * in the same directory, which would make a crash of this run's launch 0
 * before its dispatcher wrote its own look like a kill. A missing file is
 * fine; returns -1 with strerror in msg when it cannot be deleted. */
int ft_relaunch_forget(const struct ft_relaunch *k, char *msg, size_t cap);

/* Test hook: when FTSIM_TEST_AFTER_KILL is set, runs it with /bin/sh
 * between a kill and the relaunch, with FTSIM_CKPT_DIR and
 * FTSIM_COMMITTED_WAVE in its environment (tests/integration corrupt or
 * remove an image with it). Returns its exit status (0 when unset). */
int ft_relaunch_test_hook(const struct ft_relaunch *k);

#endif /* FT_CLI_RELAUNCH_H */
