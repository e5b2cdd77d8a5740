/* Relaunches after kills (see relaunch.h). */
#define _POSIX_C_SOURCE 200809L
#include "relaunch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run_record.h"
#include "scenario.h"

int ft_relaunch_options(const struct ft_relaunch *k, int launch, char *out,
                        size_t cap) {
  int n = launch == 0 ? snprintf(out, cap, "%s", k->options)
          : *k->trace
              ? snprintf(out, cap, "%s,relaunch=%d,trace=%s.relaunch-%d",
                         k->options, launch, k->trace, launch)
              : snprintf(out, cap, "%s,relaunch=%d", k->options, launch);
  return n >= 0 && (size_t)n < cap ? 0 : -1;
}

int ft_relaunch_forget(const struct ft_relaunch *k, char *msg, size_t cap) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", k->ckpt_dir, FT_RUN_RECORD_NAME);
  if (unlink(path) == 0 || errno == ENOENT)
    return 0;
  snprintf(msg, cap, "%s: unlink: %s", path, strerror(errno));
  return -1;
}

bool ft_relaunch_killed(const struct ft_relaunch *k, int launch, int *wave,
                        char *msg, size_t cap) {
  struct ft_run_record r;
  struct ft_failure ends;
  double origin;
  char err[1024] = "";
  msg[0] = '\0';
  if (ft_failures_span(k->scenario, k->ranks, launch, &origin, &ends, err,
                       sizeof err) <= 0)
    return false;
  int rc = ft_run_record_read(k->ckpt_dir, &r, err, sizeof err);
  if (rc != 0 || r.launch != launch) {
    if (rc < 0)
      snprintf(msg, cap, "%s", err);
    return false;
  }
  if (ft_run_record_now() < r.origin_wall + (ends.time - origin) - 1e-3)
    return false; /* ended before its kill was due: something else */
  *wave = r.wave;
  snprintf(msg, cap,
           "launch %d: rank %d killed (SIGKILL) at run time %.6f s, failure "
           "%d of the scenario",
           launch, ends.rank, ends.time, launch + 1);
  return true;
}

int ft_relaunch_test_hook(const struct ft_relaunch *k) {
  const char *cmd = getenv("FTSIM_TEST_AFTER_KILL");
  struct ft_run_record r;
  char err[1024], wave[32];
  if (!cmd || !*cmd)
    return 0;
  if (ft_run_record_read(k->ckpt_dir, &r, err, sizeof err) != 0)
    r.wave = 0;
  snprintf(wave, sizeof wave, "%d", r.wave);
  setenv("FTSIM_CKPT_DIR", k->ckpt_dir, 1);
  setenv("FTSIM_COMMITTED_WAVE", wave, 1);
  fflush(NULL);
  int st = system(cmd);
  return st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}
