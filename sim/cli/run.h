/* `ftsim run`: checks everything, places the ranks, launches smpirun (or
 * mpirun with --real) and prints the run's JSON line. */
#ifndef FT_CLI_RUN_H
#define FT_CLI_RUN_H

/* Runs `ftsim run` with the words after "run" (argc may be 0). Returns the
 * process exit status (enum ft_exit). Errors go to stderr as "ftsim: ...";
 * the JSON line and --dry-run's text go to stdout; temporary files are
 * deleted before returning. */
int ft_run_main(int argc, char **argv);

#endif /* FT_CLI_RUN_H */
