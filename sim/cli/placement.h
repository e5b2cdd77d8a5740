/* Rank placement: which host each MPI rank of a run goes to.
 *
 * Pure: given a platform's host names (in the order to fill them), it
 * computes the hostfile smpirun reads, one host per line in rank order.
 *
 * Hosts whose name contains "-service-" are service hosts; the others are
 * compute hosts. Application ranks 0..np-1 go to compute hosts, one per host
 * while np <= compute hosts, else ceil(np / compute hosts) consecutive ranks
 * per host; or, with a number of ranks per node asked for (the run option
 * ranks_per_node: the papers' nodes are dual-processor), that many
 * consecutive ranks per host. Service ranks (world ranks np..np+S-1) go
 * round-robin on the service hosts. */
#ifndef FT_CLI_PLACEMENT_H
#define FT_CLI_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define FT_SERVICE_MARK "-service-"

struct ft_placement {
  const char **rank_host; /* np + service_ranks entries, into the host list */
  size_t ranks;           /* np + service_ranks */
  int np, service_ranks;
  size_t compute_hosts;     /* compute hosts in the platform */
  size_t service_hosts;     /* service hosts in the platform */
  size_t compute_used;      /* compute hosts that received a rank */
  size_t per_host;          /* application ranks per compute host (at most) */
  bool services_on_compute; /* service ranks placed on compute hosts */
};

/* What to place: np application ranks, service_ranks service ranks,
 * per_host as ft_placement_build_packed's, and whether the service ranks
 * go to the compute hosts (the run option service_placement=shared: a
 * machine whose service processes share the application's cores). */
struct ft_placement_ask {
  int np, service_ranks, per_host;
  bool services_on_compute;
};

/* True when `name` is a service host's name. */
bool ft_placement_is_service(const char *name);

/* Places np >= 1 application ranks and service_ranks >= 0 service ranks on
 * `hosts` (nhosts names, filled in this order; the strings must outlive
 * `p`). On error returns -1 with `err` saying what the platform lacks:
 *   "no compute hosts (every host name contains \"-service-\")"
 *   "2 service ranks need service hosts, but no host name contains
 *    \"-service-\"".
 * Call ft_placement_free afterwards, even on error. */
int ft_placement_build(const char *const *hosts, size_t nhosts, int np,
                       int service_ranks, struct ft_placement *p, char *err,
                       size_t errlen);

/* As ft_placement_build, with per_host consecutive application ranks on each
 * compute host (the last one may get fewer); per_host 0 means "as
 * ft_placement_build". Besides ft_placement_build's errors, returns -1 when
 * the platform has too few compute hosts:
 *   "ranks_per_node=2: 64 ranks need 32 compute hosts, the platform has 16".
 * Call ft_placement_free afterwards, even on error. */
int ft_placement_build_packed(const char *const *hosts, size_t nhosts, int np,
                              int service_ranks, int per_host,
                              struct ft_placement *p, char *err, size_t errlen);

/* As ft_placement_build_packed for `a`. With a->services_on_compute the
 * service ranks go round-robin on the compute hosts that received ranks,
 * from the last one backwards, and the platform needs no service host.
 * Call ft_placement_free afterwards, even on error. */
int ft_placement_build_asked(const char *const *hosts, size_t nhosts,
                             const struct ft_placement_ask *a,
                             struct ft_placement *p, char *err, size_t errlen);

/* Frees what ft_placement_build allocated. */
void ft_placement_free(struct ft_placement *p);

/* Writes the hostfile: one host name per line, in rank order. Returns 0,
 * or -1 if a write failed (errno set). */
int ft_placement_write(const struct ft_placement *p, FILE *out);

/* Describes the placement in a few "# "-prefixed lines, e.g.
 *   # ranks 0-63: 64 compute hosts gdx-1 .. gdx-64, 1 rank per host
 *   #   (216 compute hosts in the platform)
 *   # service ranks 64-65: round-robin on gdx-service-1, gdx-service-2
 */
void ft_placement_describe(const struct ft_placement *p, FILE *out);

#endif /* FT_CLI_PLACEMENT_H */
