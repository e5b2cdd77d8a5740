/* The hosts of a SimGrid platform file, as SimGrid itself loads them.
 *
 * SimGrid 3.32 lists hosts sorted by name as strings (its engine keeps them
 * in a std::map), not in file order, so gdx-10 would come before gdx-2.
 * ft_platform_hosts_load sorts them again with ft_host_name_cmp, which
 * compares runs of digits as numbers: gdx-1, gdx-2, ..., gdx-10, ...,
 * gdx-service-1. On a multi-site platform the sites come in name order. */
#ifndef FT_CLI_PLATFORM_HOSTS_H
#define FT_CLI_PLATFORM_HOSTS_H

#include <stddef.h>

#include "strv.h"

/* Fills the empty `hosts` with the host names of the platform file `path`,
 * sorted with ft_host_name_cmp. SimGrid parses the file in a forked child
 * process (its parser aborts the process on a bad file, and its engine can be
 * set up only once per process); its own messages go to stderr. Returns 0, or
 * -1 with `err` set: "cannot read platform file 'x.xml': No such file or
 * directory" "SimGrid could not load platform file 'x.xml' (its messages are
 * above)" */
int ft_platform_hosts_load(const char *path, struct ft_strv *hosts, char *err,
                           size_t errlen);

/* ft_platform_hosts_load, and also fills the empty `diskless` (not NULL)
 * with the hosts that declare no <disk> (in SimGrid's order), for the
 * storage settings that write images to disks. Same errors. */
int ft_platform_hosts_load_disks(const char *path, struct ft_strv *hosts,
                                 struct ft_strv *diskless, char *err,
                                 size_t errlen);

/* strcmp, except that runs of digits compare as numbers ("a-2" < "a-10");
 * names that differ only by leading zeros fall back to strcmp. */
int ft_host_name_cmp(const char *a, const char *b);

#endif /* FT_CLI_PLATFORM_HOSTS_H */
