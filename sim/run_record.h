/* Reference mode's run record, POSIX C (no MPI, no SimGrid): what a
 * relaunch needs to know of the launches before it, kept next to the
 * images (README, "Real failures: kill and relaunch").
 *
 * With failure=kill a failure is a SIGKILL of the victim, mpirun ends the
 * job and `ftsim run --real` relaunches it; every rank then loads its image
 * of the last committed wave from disk. The dispatcher (the first service
 * rank, the one process that decides commits) keeps DIR/run-record up to
 * date, written like an image (image_file.h: a .tmp file, fsync, rename,
 * fsync of the directory), so after a kill it holds either the previous
 * record or the new one, whole: one line of text,
 *
 *   ftsim-run-record 1 launch L wave W origin_wall T0 origin_t O
 *     commit_t C lost_s X restart_s Y crc 0x........
 *
 * (on one line), its CRC-32 (zlib's) covering every byte before " crc".
 * It is written when launch L starts running (launch 0: at its start line;
 * a relaunch: when every rank has its image back) and at every commit,
 * before any server deletes the images of the previous wave, so that the
 * wave it names is whole on disk. */
#ifndef FT_RUN_RECORD_H
#define FT_RUN_RECORD_H

#include <stddef.h>

#define FT_RUN_RECORD_NAME "run-record"

struct ft_run_record {
  int launch;         /* the launch that wrote it, 0 first */
  int wave;           /* the last committed wave, 0: none (a relaunch
                         restarts from the beginning) */
  double origin_wall; /* wall clock (ft_run_record_now) when this launch
                         started running */
  double origin_t;    /* the run time at that moment: the time of the
                         failure that killed the launch before (0 for
                         launch 0); a run's time excludes its restarts */
  double commit_t;    /* the run time of the last commit (0: none) */
  double lost_s;      /* the launches before: run time lost, summed */
  double restart_s;   /* the launches before: seconds from each kill to
                         the relaunch's run, summed */
};

/* Seconds since the Epoch (CLOCK_REALTIME): the record's wall clock, the
 * same on every process of a host. */
double ft_run_record_now(void);

/* Writes r as DIR/run-record, atomically. Returns 0, or -1 with the path,
 * the failed call and strerror in err. */
int ft_run_record_write(const char *dir, const struct ft_run_record *r,
                        char *err, size_t errlen);

/* Reads DIR/run-record into *r and verifies its checksum and form.
 * Returns 0; 1 when there is no such file (*r zeroed: nothing committed);
 * -1 with a message naming the file otherwise, e.g.
 *   "ftsim-ckpt/run-record: checksum mismatch (corrupt record): ...". */
int ft_run_record_read(const char *dir, struct ft_run_record *r, char *err,
                       size_t errlen);

#endif /* FT_RUN_RECORD_H */
