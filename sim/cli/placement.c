/* Rank placement (see placement.h). */
#include "placement.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "strv.h"

bool ft_placement_is_service(const char *name) {
  return strstr(name, FT_SERVICE_MARK) != NULL;
}

/* Splits `hosts` into compute and service hosts, keeping their order.
 * `compute` and `service` have room for nhosts entries each. */
static void split_hosts(const char *const *hosts, size_t nhosts,
                        const char **compute, size_t *nc, const char **service,
                        size_t *ns) {
  *nc = *ns = 0;
  for (size_t i = 0; i < nhosts; i++) {
    if (ft_placement_is_service(hosts[i]))
      service[(*ns)++] = hosts[i];
    else
      compute[(*nc)++] = hosts[i];
  }
}

static int check_hosts(size_t nc, size_t ns, const struct ft_placement_ask *a,
                       char *err, size_t errlen) {
  int np = a->np, service_ranks = a->service_ranks, per_host = a->per_host;
  if (nc == 0 && ns == 0)
    return ft_fail(err, errlen, "no hosts");
  if (nc == 0)
    return ft_fail(err, errlen,
                   "no compute hosts (every host name contains \"%s\")",
                   FT_SERVICE_MARK);
  if (service_ranks > 0 && ns == 0 && !a->services_on_compute)
    return ft_fail(err, errlen,
                   "%d service rank%s need%s service hosts, but no host name "
                   "contains \"%s\"",
                   service_ranks, service_ranks == 1 ? "" : "s",
                   service_ranks == 1 ? "s" : "", FT_SERVICE_MARK);
  size_t need =
      per_host > 0 ? ((size_t)np + (size_t)per_host - 1) / (size_t)per_host : 0;
  if (need > nc)
    return ft_fail(err, errlen,
                   "ranks_per_node=%d: %d ranks need %zu compute hosts, the "
                   "platform has %zu",
                   per_host, np, need, nc);
  return 0;
}

/* Fills p->rank_host from the split host lists: per_host ranks per compute
 * host, or (0) as few as the hosts allow; service ranks round-robin on the
 * service hosts, or (on_compute) on the compute hosts used, from the last
 * one backwards (rank 0, often a protocol's initiator, gets one last). */
static void assign(struct ft_placement *p, const char **compute, size_t nc,
                   const char **service, size_t ns, int per_host,
                   bool on_compute) {
  size_t np = (size_t)p->np;
  if (per_host > 0)
    p->per_host = (size_t)per_host;
  else
    p->per_host = np <= nc ? 1 : (np + nc - 1) / nc;
  for (size_t r = 0; r < np; r++)
    p->rank_host[r] = compute[r / p->per_host];
  p->compute_used = (np + p->per_host - 1) / p->per_host;
  for (size_t s = 0; s < (size_t)p->service_ranks; s++)
    p->rank_host[np + s] =
        on_compute ? compute[p->compute_used - 1 - s % p->compute_used]
                   : service[s % ns];
  p->services_on_compute = on_compute;
}

int ft_placement_build(const char *const *hosts, size_t nhosts, int np,
                       int service_ranks, struct ft_placement *p, char *err,
                       size_t errlen) {
  return ft_placement_build_packed(hosts, nhosts, np, service_ranks, 0, p, err,
                                   errlen);
}

int ft_placement_build_packed(const char *const *hosts, size_t nhosts, int np,
                              int service_ranks, int per_host,
                              struct ft_placement *p, char *err,
                              size_t errlen) {
  struct ft_placement_ask a = {
      .np = np, .service_ranks = service_ranks, .per_host = per_host};
  return ft_placement_build_asked(hosts, nhosts, &a, p, err, errlen);
}

int ft_placement_build_asked(const char *const *hosts, size_t nhosts,
                             const struct ft_placement_ask *a,
                             struct ft_placement *p, char *err, size_t errlen) {
  int np = a->np, service_ranks = a->service_ranks, per_host = a->per_host;
  memset(p, 0, sizeof *p);
  if (np < 1 || service_ranks < 0 || per_host < 0)
    return ft_fail(err, errlen,
                   "need np >= 1, service ranks >= 0 and ranks per node >= 0");
  size_t room = nhosts ? nhosts : 1;
  const char **compute = ft_xrealloc(NULL, room * sizeof *compute);
  const char **service = ft_xrealloc(NULL, room * sizeof *service);
  size_t nc, ns;
  split_hosts(hosts, nhosts, compute, &nc, service, &ns);
  int rc = check_hosts(nc, ns, a, err, errlen);
  if (rc == 0) {
    p->np = np;
    p->service_ranks = service_ranks;
    p->compute_hosts = nc;
    p->service_hosts = ns;
    p->ranks = (size_t)np + (size_t)service_ranks;
    p->rank_host = ft_xrealloc(NULL, p->ranks * sizeof *p->rank_host);
    assign(p, compute, nc, service, ns, per_host, a->services_on_compute);
  }
  free(compute);
  free(service);
  return rc;
}

void ft_placement_free(struct ft_placement *p) {
  free(p->rank_host);
  p->rank_host = NULL;
  p->ranks = 0;
}

int ft_placement_write(const struct ft_placement *p, FILE *out) {
  for (size_t r = 0; r < p->ranks; r++)
    if (fprintf(out, "%s\n", p->rank_host[r]) < 0)
      return -1;
  return 0;
}

/* Writes "rank a" or "ranks a-b". */
static void rank_range(char *buf, size_t len, size_t a, size_t b) {
  if (a == b)
    snprintf(buf, len, "rank %zu", a);
  else
    snprintf(buf, len, "ranks %zu-%zu", a, b);
}

static void describe_compute(const struct ft_placement *p, FILE *out) {
  char range[64];
  size_t np = (size_t)p->np, used = p->compute_used;
  rank_range(range, sizeof range, 0, np - 1);
  fprintf(out, "# %s: %zu compute host%s %s%s%s, %s%zu rank%s per host\n",
          range, used, used == 1 ? "" : "s", p->rank_host[0],
          used > 1 ? " .. " : "", used > 1 ? p->rank_host[np - 1] : "",
          p->per_host > 1 ? "up to " : "", p->per_host,
          p->per_host == 1 ? "" : "s");
  fprintf(out, "#   (%zu compute host%s in the platform)\n", p->compute_hosts,
          p->compute_hosts == 1 ? "" : "s");
}

/* Lists the distinct service hosts used (round-robin: the first ones). */
static void describe_service(const struct ft_placement *p, FILE *out) {
  size_t np = (size_t)p->np, s = (size_t)p->service_ranks;
  size_t used = s < p->service_hosts ? s : p->service_hosts;
  char range[64];
  if (s == 0) {
    fputs("# no service ranks\n", out);
    return;
  }
  rank_range(range, sizeof range, np, np + s - 1);
  if (p->services_on_compute) {
    fprintf(out,
            "# service %s: on the compute hosts, from %s backwards, sharing "
            "their cores (service_placement=shared)\n",
            range, p->rank_host[np]);
    return;
  }
  fprintf(out, "# service %s: round-robin on", range);
  for (size_t i = 0; i < used && i < 8; i++)
    fprintf(out, "%s %s", i ? "," : "", p->rank_host[np + i]);
  fprintf(out, "%s (%zu service host%s in the platform)\n",
          used > 8 ? ", ..." : "", p->service_hosts,
          p->service_hosts == 1 ? "" : "s");
}

void ft_placement_describe(const struct ft_placement *p, FILE *out) {
  if (p->ranks == 0)
    return;
  describe_compute(p, out);
  describe_service(p, out);
}
