/* measure: runs a command and prints its wall time and peak memory.
 *
 * Usage: measure COMMAND [ARGS...]
 * Prints "wall_s=<seconds> peak_mb=<MiB>" on stderr after the command ends
 * (peak resident set of the largest descendant that was waited for, as
 * getrusage(RUSAGE_CHILDREN) reports it: smpirun's simulation process),
 * then "cpu_s=<seconds>" (user + system time of the command and its
 * descendants: on a loaded machine, steadier than the wall time), and
 * exits with the command's status. The command's own output passes through. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: measure COMMAND [ARGS...]\n");
    return 2;
  }
  double start = now();
  pid_t pid = fork();
  if (pid < 0) {
    perror("measure: fork");
    return 2;
  }
  if (pid == 0) {
    execvp(argv[1], argv + 1);
    perror("measure: exec");
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) {
    perror("measure: waitpid");
    return 2;
  }
  struct rusage usage;
  getrusage(RUSAGE_CHILDREN, &usage);
  fprintf(stderr, "wall_s=%.3f peak_mb=%.1f\n", now() - start,
          (double)usage.ru_maxrss / 1024.0);
  fprintf(stderr, "cpu_s=%.3f\n",
          (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
              (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
