/* The launcher command line: smpirun (simulated) or mpirun (--real), and
 * its shell-quoted form for --dry-run. Pure. */
#ifndef FT_CLI_COMMAND_H
#define FT_CLI_COMMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "strv.h"

/* SimGrid settings of every simulated run: computation is modelled (only
 * ft_compute costs time, DESIGN.md) unless the run measures it (then
 * FT_SMPI_CFG_MEASURED and smpi/host-speed replace FT_SMPI_CFG_COMPUTATION);
 * MPI_Test and MPI_Iprobe cost a fixed simulated
 * time (SMPI's default grows it with every unsuccessful call, in a counter
 * all ranks share: a service rank that polls would slow an application's
 * test loop down); the dlopen privatization interposition needs; only
 * warnings and errors from SimGrid, except the engine's INFO lines, which
 * list the blocked actors after "Deadlock detected". */
#define FT_SMPI_CFG_COMPUTATION "--cfg=smpi/simulate-computation:no"
#define FT_SMPI_CFG_MEASURED "--cfg=smpi/simulate-computation:yes"
#define FT_SMPI_CFG_INJECTED "--cfg=smpi/grow-injected-times:no"
#define FT_SMPI_CFG_PRIVATIZATION "--cfg=smpi/privatization:dlopen"
#define FT_SMPI_LOG_QUIET "--log=root.thres:warning"
#define FT_SMPI_LOG_DEADLOCK "--log=ker_engine.thres:info"

struct ft_command_spec {
  bool real;           /* mpirun instead of smpirun */
  const char *smpirun; /* launcher programs */
  const char *mpirun;
  const char *platform_file; /* simulated only */
  const char *hostfile;      /* simulated only */
  bool measured;             /* simulated only: SMPI measures computation */
  double host_speed;         /* measured only: this machine's flop/s */
  const char *const *cfgs;   /* simulated only: --cfg KEY:VALUE, in order */
  size_t ncfgs;
  size_t ranks; /* application + service ranks */
  const char *app_path;
  char *const *app_args;
  size_t napp_args;
  bool as_root;         /* real only: add --allow-run-as-root */
  const char *env_name; /* real only: exported with -x */
};

/* Appends to `argv` (empty) the launcher's command line:
 *   smpirun -np R -platform P -hostfile H <FT_SMPI_*> [--cfg=KEY:VALUE...]
 *           APP ARGS...
 * where FT_SMPI_* begins with FT_SMPI_CFG_COMPUTATION, or with
 * FT_SMPI_CFG_MEASURED and --cfg=smpi/host-speed:<host_speed>f when
 * `measured`; the user's --cfg come last, so that they win (SimGrid keeps
 * the last value of an option);
 *   mpirun --oversubscribe -np R [--allow-run-as-root] -x ENV APP ARGS... */
void ft_command_build(const struct ft_command_spec *spec, struct ft_strv *argv);

/* Writes `word` for a POSIX shell: as is when it holds only
 * [A-Za-z0-9_@%+=:,./-] (and is not empty), else in single quotes. */
void ft_command_quote(FILE *out, const char *word);

/* Writes "NAME=VALUE argv..." on one line, every word quoted, so that the
 * line can be pasted into a shell. */
void ft_command_print(FILE *out, const char *env_name, const char *env_value,
                      const struct ft_strv *argv);

#endif /* FT_CLI_COMMAND_H */
