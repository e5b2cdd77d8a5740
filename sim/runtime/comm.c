/* The communicator table: what each application communicator maps to.
 *
 * The application's MPI_COMM_WORLD maps to the substitute world of its own
 * ranks. Every communicator also gets a "coll" shadow, a duplicate on which
 * the runtime carries collectives over point-to-point, so that their
 * messages never match the application's. Communicators the runtime did not
 * create (MPI_COMM_SELF, or made by calls it does not intercept) are
 * registered on first use as themselves. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "runtime.h"

/* This module's state: the rank's (struct ft_runtime.comms). The public
 * functions take it here; the static ones are handed it. */

static struct ft_comm *lookup(struct ft_comms *cs, MPI_Comm user) {
  for (int i = cs->used - 1; i >= 0; i--)
    if (cs->table[i].user == user)
      return &cs->table[i];
  return NULL;
}

struct ft_comm *ft_comm_lookup(struct ft_runtime *rt, MPI_Comm user) {
  return lookup((&rt->comms), user);
}

/* Fills c->app_rank from the groups of c->p2p and the application's world
 * (MPI_UNDEFINED for a rank outside it). */
static void translate_ranks(struct ft_comm *c, MPI_Comm app_world) {
  MPI_Group mine, world;
  FT_PMPI(Comm_group, c->p2p, &mine);
  FT_PMPI(Comm_group, app_world, &world);
  int *ranks = malloc((size_t)c->size * sizeof *ranks);
  if (!ranks)
    ft_fatal("out of memory registering a communicator");
  for (int r = 0; r < c->size; r++)
    ranks[r] = r;
  FT_PMPI(Group_translate_ranks, mine, c->size, ranks, world, c->app_rank);
  free(ranks);
  FT_PMPI(Group_free, &mine);
  FT_PMPI(Group_free, &world);
}

/* Registers `inner` (already created with PMPI) as the application's `user`
 * handle; creates its collective shadow. Returns the entry. */
static struct ft_comm *register_comm(struct ft_runtime *rt, MPI_Comm user,
                                     MPI_Comm inner) {
  struct ft_comms *cs = &rt->comms;
  if (cs->used == FT_MAX_COMMS)
    ft_fatal("more than %d communicators alive", FT_MAX_COMMS);
  struct ft_comm *c = &cs->table[cs->used++];
  c->user = user;
  c->p2p = inner;
  c->id = 0;
  c->name = user == MPI_COMM_SELF ? 1 : -1;
  c->gates = 0;
  c->topo = MPI_UNDEFINED;
  c->n_group_gates = 0;
  c->errhandler = MPI_ERRORS_ARE_FATAL;
  FT_PMPI(Comm_dup, inner, &c->coll);
  /* The library returns its errors on the runtime's communicators (SMPI
   * calls their handler from inside a request, e.g. a truncated receive);
   * the application's handler applies to them (errors.c). */
  FT_PMPI(Comm_set_errhandler, inner, MPI_ERRORS_RETURN);
  FT_PMPI(Comm_set_errhandler, c->coll, MPI_ERRORS_RETURN);
  ft_backend_bench_restart();
  FT_PMPI(Comm_rank, inner, &c->rank);
  FT_PMPI(Comm_size, inner, &c->size);
  c->app_rank = malloc((size_t)c->size * sizeof *c->app_rank);
  if (!c->app_rank)
    ft_fatal("out of memory registering a communicator");
  translate_ranks(c, rt->app_world);
  return c;
}

static struct ft_comm *named(struct ft_comms *cs, int name) {
  for (int i = cs->used - 1; i >= 0 && name >= 0; i--)
    if (cs->table[i].name == name)
      return &cs->table[i];
  return NULL;
}

struct ft_comm *ft_comm_named(struct ft_runtime *rt, int name) {
  return named((&rt->comms), name);
}

struct ft_comm *ft_comm_at(struct ft_runtime *rt, int index) {
  struct ft_comms *cs = (&rt->comms);
  return index >= 0 && index < cs->used ? &cs->table[index] : NULL;
}

int ft_comm_app_rank(const struct ft_comm *c, int rank) {
  return rank >= 0 && rank < c->size ? c->app_rank[rank] : rank;
}

int ft_comm_rank_of(const struct ft_comm *c, int app_rank) {
  for (int r = 0; r < c->size; r++)
    if (c->app_rank[r] == app_rank)
      return r;
  ft_fatal("application rank %d is not in communicator %d", app_rank, c->name);
}

MPI_Comm ft_comm_traffic(const struct ft_comm *c, int coll) {
  return coll ? c->coll : c->p2p;
}

struct ft_comm *ft_comm_of_inner(struct ft_runtime *rt, MPI_Comm inner,
                                 int *coll) {
  struct ft_comms *cs = (&rt->comms);
  for (int i = cs->used - 1; i >= 0; i--)
    if (cs->table[i].p2p == inner || cs->table[i].coll == inner) {
      *coll = cs->table[i].coll == inner;
      return &cs->table[i];
    }
  ft_fatal("a runtime channel on an unknown communicator");
}

struct ft_comm *ft_comm_get(struct ft_runtime *rt, MPI_Comm user) {
  if (user == MPI_COMM_NULL)
    ft_fatal("MPI_COMM_NULL passed where a communicator is needed");
  struct ft_comm *c = lookup(&rt->comms, user);
  if (c)
    return c;
  /* Only the runtime's creations get a name the other ranks share. */
  if (user != MPI_COMM_SELF && rt->recovering_protocol)
    ft_fatal("rank %d: a communicator ftsim's runtime did not create (not "
             "MPI_COMM_WORLD, MPI_COMM_SELF or made by a call it "
             "intercepts): it cannot name it to the other ranks",
             rt->world_rank);
  return register_comm(rt, user, user);
}

MPI_Comm ft_comm_inner(struct ft_runtime *rt, MPI_Comm user) {
  return user == MPI_COMM_WORLD ? rt->app_world : user;
}

/* Frees the runtime's handles of entry i and removes it. */
static void drop(struct ft_comms *cs, int i) {
  struct ft_comm *t = cs->table;
  if (t[i].coll != MPI_COMM_NULL)
    FT_PMPI(Comm_free, &t[i].coll);
  free(t[i].app_rank);
  memmove(&t[i], &t[i + 1], (size_t)(cs->used - i - 1) * sizeof t[0]);
  cs->used--;
}

void ft_comm_forget(struct ft_runtime *rt, MPI_Comm user) {
  struct ft_comms *cs = (&rt->comms);
  for (int i = cs->used - 1; i >= 0; i--)
    if (cs->table[i].user == user) {
      drop(cs, i);
      return;
    }
}

/* Communicators of abandoned runs, each with what names it on every member
 * (id, coll) and the rollback that abandoned it: kept until every rank has
 * settled what it left pending on them (settle.c), then freed. */
struct ft_abandoned {
  MPI_Comm comm;
  uint64_t id;
  int coll; /* the collectives' shadow of a registered communicator */
  int inc;  /* the incarnation whose rollback abandoned it */
  int size;
  int *app_rank; /* as in struct ft_comm (NULL for the shadow: the entry
                    before it, the same communicator's p2p, owns it) */
};

static void keep_abandoned(struct ft_comms *cs, const struct ft_abandoned *a) {
  cs->abandoned =
      ft_reserve(cs->abandoned, cs->n_abandoned + 1, &cs->cap_abandoned,
                 sizeof *cs->abandoned, "abandoned communicators");
  cs->abandoned[cs->n_abandoned++] = *a;
}

void ft_comm_abandon_all(struct ft_comms *cs, int inc) {
  for (int i = 0; i < cs->used; i++) {
    struct ft_comm *c = &cs->table[i];
    struct ft_abandoned a = {.comm = c->p2p,
                             .id = c->id,
                             .inc = inc,
                             .size = c->size,
                             .app_rank = c->app_rank};
    keep_abandoned(cs, &a);
    a.comm = c->coll;
    a.coll = 1;
    a.app_rank = NULL;
    keep_abandoned(cs, &a);
  }
  cs->used = 0;
}

/* The entry of `comm` (p2p or shadow) among the abandoned, or NULL. */
static const struct ft_abandoned *abandoned_of(const struct ft_comms *cs,
                                               MPI_Comm comm) {
  for (size_t i = cs->n_abandoned; i-- > 0;)
    if (cs->abandoned[i].comm == comm)
      return &cs->abandoned[i];
  return NULL;
}

int ft_comm_abandoned_peer(struct ft_runtime *rt, MPI_Comm comm, int rank,
                           uint64_t *id, int *coll) {
  const struct ft_abandoned *a = abandoned_of((&rt->comms), comm);
  if (!a || a->id == 0 || rank < 0 || rank >= a->size)
    return -1;
  const struct ft_abandoned *p2p = a->coll ? a - 1 : a;
  *id = a->id;
  *coll = a->coll;
  return p2p->app_rank[rank];
}

MPI_Comm ft_comm_abandoned_find(struct ft_runtime *rt, uint64_t id, int coll) {
  const struct ft_comms *cs = (&rt->comms);
  for (size_t i = cs->n_abandoned; i-- > 0;)
    if (cs->abandoned[i].id == id && id != 0 && cs->abandoned[i].coll == coll)
      return cs->abandoned[i].comm;
  return MPI_COMM_NULL;
}

/* Receives and drops every message that has arrived on `c`. */
static void drain(MPI_Comm c) {
  int flag = 1;
  while (flag) {
    MPI_Status st;
    FT_PMPI(Iprobe, MPI_ANY_SOURCE, MPI_ANY_TAG, c, &flag, &st);
    if (!flag)
      break;
    int bytes = 0;
    FT_PMPI(Get_count, &st, MPI_BYTE, &bytes);
    void *buf = malloc(bytes > 0 ? (size_t)bytes : 1);
    if (!buf)
      ft_fatal("out of memory draining an abandoned message");
    FT_PMPI(Recv, buf, bytes, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, c,
            MPI_STATUS_IGNORE);
    free(buf);
  }
}

/* MPI_COMM_SELF and the real world are not drained (the runtime has
 * traffic of its own on them) nor freed; neither is the base of every
 * incarnation's world, which carried the first run's world traffic. */
static int drained(MPI_Comm c) {
  return c != MPI_COMM_SELF && c != MPI_COMM_WORLD && c != MPI_COMM_NULL;
}

static int owned(MPI_Comm c, MPI_Comm app_base) {
  return drained(c) && c != app_base;
}

void ft_comm_drain_abandoned(const struct ft_comms *cs) {
  for (size_t i = 0; i < cs->n_abandoned; i++)
    if (drained(cs->abandoned[i].comm))
      drain(cs->abandoned[i].comm);
}

void ft_comm_free_abandoned(struct ft_runtime *rt, int up_to_inc) {
  struct ft_comms *cs = &rt->comms;
  size_t out = 0;
  for (size_t i = 0; i < cs->n_abandoned; i++) {
    struct ft_abandoned *a = &cs->abandoned[i];
    if (a->inc > up_to_inc) {
      cs->abandoned[out++] = *a;
      continue;
    }
    if (owned(a->comm, rt->app_base))
      FT_PMPI(Comm_free, &a->comm);
    free(a->app_rank);
  }
  cs->n_abandoned = out;
  if (out == 0) {
    free(cs->abandoned);
    cs->abandoned = NULL;
    cs->cap_abandoned = 0;
  }
}

void ft_comm_forget_all(struct ft_comms *cs) {
  while (cs->used > 0)
    drop(cs, cs->used - 1);
}

/* ---- Communicators main() creates ----
 *
 * Under message logging a restarted rank runs main() again alone: its
 * creations of communicators (collective calls) cannot be made again, so
 * they return, in order, the ones its first run made (ftsim's failures are
 * logical: the MPI library's state survives them, as BLCR would restore
 * it). */

static void remember_created(struct ft_comms *cs, MPI_Comm c) {
  cs->created =
      ft_reserve(cs->created, cs->n_created + 1, &cs->cap_created,
                 sizeof *cs->created, "the communicators main() created");
  cs->created[cs->n_created++] = c;
}

void ft_comm_replay_creations(struct ft_runtime *rt) {
  (&rt->comms)->replayed = 0;
}

/* Where main() stands in the list, not its length: a restarted run that
 * checkpoints before it catches up with the creations its lost life made
 * had recorded them all, and its next life, restored from that checkpoint,
 * made them for real, alone (v2, lu, `fail 0 at 0.0293`, `fail 0 at
 * 0.068`: rank 0 led the gate of the last MPI_Comm_split again and waited
 * for ENTERs that never came; e2e/v2_creations_after_restart). */
int64_t ft_comm_creations(const struct ft_comms *cs) {
  return (int64_t)cs->replayed;
}

/* A checkpoint inside a loop of creations: the restarted main() does not
 * make again the ones before it (gate_check under message logging, period
 * 0.005, `fail 1 at 0.042`: replayed from the first, rank 1 sent on iteration
 * 0's communicator while its peers were on iteration 7's, and deadlocked). */
void ft_comm_resume_creations(struct ft_comms *cs, int64_t made) {
  if (made < 0 || (uint64_t)made > cs->n_created)
    ft_fatal("a checkpoint taken after %lld creations of communicators, "
             "this rank made %zu",
             (long long)made, cs->n_created);
  cs->replayed = (size_t)made;
}

int ft_comm_make_ahead(struct ft_runtime *rt, const struct ft_gate_call *call,
                       MPI_Comm *newcomm) {
  struct ft_comms *cs = (&rt->comms);
  size_t at = cs->replayed;
  int rc = ft_comm_make(rt, call, newcomm);
  cs->replayed = at; /* the next life has not reached it: it replays it */
  return rc;
}

int ft_comm_take_replayed(struct ft_runtime *rt, MPI_Comm *newcomm) {
  struct ft_comms *cs = &rt->comms;
  if (!ft_driver_restarts_alone(rt->driver) || cs->replayed >= cs->n_created)
    return 0;
  *newcomm = cs->created[cs->replayed++];
  return 1;
}

/* A value that tells apart the communicators derived from `parent` (a
 * splitmix64 step): the same on every member, since every member counts
 * the same calls on the parent and has the same members (`tag`). */
static uint64_t derive_id(uint64_t parent, int k, int tag) {
  uint64_t z = parent + 0x9e3779b97f4a7c15u * ((uint64_t)(uint32_t)k + 1) +
               ((uint64_t)(uint32_t)tag << 32);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  z ^= z >> 31;
  return z ? z : 1;
}

/* A value of c's members (their application ranks, in order): the same on
 * every member, different for the disjoint communicators one call makes
 * (split's colors, cart_sub's slices, split_type's nodes). FNV-1a. */
static int members_tag(const struct ft_comm *c) {
  uint32_t h = 2166136261u;
  for (int r = 0; r < c->size; r++) {
    h ^= (uint32_t)c->app_rank[r];
    h *= 16777619u;
  }
  return (int)(h & 0x7fffffff);
}

void ft_comm_register_world(struct ft_runtime *rt, MPI_Comm inner) {
  struct ft_comm *c = register_comm(rt, MPI_COMM_WORLD, inner);
  c->id = derive_id(0x77, rt->incarnation, 0);
  c->name = 0;
}

/* The name of a communicator created on `parent` by its k-th creation:
 * derived like the id, but from the parent's name, which no incarnation
 * changes (a rollback re-creates what main() creates before its first safe
 * point with the same k's). Issue 13: the channel state named the ring of
 * `ahead_check 60 3000 uneven` by its index in each rank's table, which
 * MPI_Comm_create had made differ, and the sender replayed on another
 * communicator. Two alive communicators with one name stop the run. */
static int derive_name(struct ft_comms *cs, const struct ft_comm *parent, int k,
                       const struct ft_comm *c) {
  uint64_t z =
      derive_id(0x6e616d65u + (uint64_t)parent->name, k, members_tag(c));
  int name = (int)(z & 0x7fffffff);
  name = name < 2 ? name + 2 : name; /* 0, 1: world and self */
  const struct ft_comm *other = named(cs, name);
  if (other && other != c)
    ft_fatal("two communicators named %d (a clash of 31-bit hashes): "
             "ftsim's runtime cannot tell them apart",
             name);
  return name;
}

int ft_comm_group_key(const struct ft_comm *c, MPI_Group group, int tag,
                      int *leader, int *members) {
  MPI_Group parent;
  int n = 0;
  FT_PMPI(Group_size, group, &n);
  FT_PMPI(Comm_group, c->p2p, &parent);
  uint32_t h = 2166136261u ^ (uint32_t)tag;
  *leader = -1;
  for (int r = 0; r < n; r++) {
    int in_parent = MPI_UNDEFINED;
    FT_PMPI(Group_translate_ranks, group, 1, &r, parent, &in_parent);
    int app = in_parent == MPI_UNDEFINED ? -1 : ft_comm_app_rank(c, in_parent);
    if (r == 0)
      *leader = app;
    h = (h ^ (uint32_t)app) * 16777619u;
  }
  FT_PMPI(Group_free, &parent);
  *members = n;
  return (int)(h & 0x7fffffff);
}

int ft_comm_group_made(const struct ft_comm *c, int key) {
  for (int i = 0; i < c->n_group_gates; i++)
    if (c->group_gates[i].key == key)
      return c->group_gates[i].made;
  return 0;
}

/* Counts a call of MPI_Comm_create_group on c; returns its number among
 * those with that key. */
static int count_group_call(struct ft_comm *c, int key) {
  for (int i = 0; i < c->n_group_gates; i++)
    if (c->group_gates[i].key == key)
      return ++c->group_gates[i].made;
  if (c->n_group_gates == FT_MAX_GROUP_KEYS)
    ft_fatal("MPI_Comm_create_group with more than %d groups or tags on one "
             "communicator: ftsim's runtime counts at most %d",
             FT_MAX_GROUP_KEYS, FT_MAX_GROUP_KEYS);
  c->group_gates[c->n_group_gates++] = (struct ft_group_gates){key, 1};
  return 1;
}

/* The number that tells apart the creations on a parent: its k-th
 * collective creation, or for MPI_Comm_create_group, whose calls only the
 * group's members count, a value of the key and the count, above every k
 * (bit 30 set). */
static int creation_number(struct ft_comm *parent,
                           const struct ft_gate_call *call) {
  if (call->kind != FT_GATE_CREATE_GROUP)
    return ++parent->gates;
  int leader, members;
  int key =
      ft_comm_group_key(parent, call->group, call->color, &leader, &members);
  int made = count_group_call(parent, key);
  return (int)((derive_id((uint64_t)(uint32_t)key, made, 0) & 0x3fffffff) |
               0x40000000);
}

/* MPI_COMM_TYPE_SHARED: the ranks of `in` on the calling rank's host.
 * SMPI 3.32 counts every actor of the host that calls MPI as the rank
 * (SMPI_thread_create): with latency-only control messages each rank has
 * such a helper (backend.h, couriers), and its node would count twice as
 * many ranks. So then the node is made by MPI_Comm_split, its color the
 * lowest rank of `in` on the same host (host names gathered). */
static int split_type(struct ft_runtime *rt, MPI_Comm in,
                      const struct ft_gate_call *call, MPI_Comm *newcomm) {
  if (call->color != MPI_COMM_TYPE_SHARED ||
      !ft_backend_courier_of(rt->world_rank))
    return PMPI_Comm_split_type(in, call->color, call->key, call->info,
                                newcomm);
  enum { LEN = MPI_MAX_PROCESSOR_NAME };
  char name[LEN] = {0};
  int n = 0, color = 0;
  snprintf(name, sizeof name, "%s", ft_backend_host_name());
  FT_PMPI(Comm_size, in, &n);
  char *all = malloc((size_t)n * LEN);
  if (!all)
    ft_fatal("out of memory for MPI_Comm_split_type's host names");
  FT_PMPI(Allgather, name, LEN, MPI_CHAR, all, LEN, MPI_CHAR, in);
  while (color < n && strcmp(all + (size_t)color * LEN, name) != 0)
    color++;
  free(all);
  return PMPI_Comm_split(in, color, call->key, newcomm);
}

/* A creation call made for real: registered, and remembered. */
static int created_now(struct ft_runtime *rt, int rc,
                       const struct ft_gate_call *call, MPI_Comm *newcomm) {
  if (rc != MPI_SUCCESS)
    return rc;
  struct ft_comms *cs = &rt->comms;
  struct ft_comm *parent = ft_comm_get(rt, call->user);
  int k = creation_number(parent, call);
  if (*newcomm != MPI_COMM_NULL) {
    struct ft_comm *c = register_comm(rt, *newcomm, *newcomm);
    c->id = parent->id ? derive_id(parent->id, k, members_tag(c)) : 0;
    c->name = parent->name >= 0 ? derive_name(cs, parent, k, c) : -1;
    c->errhandler = parent->errhandler; /* MPI-3.1, 8.3 */
    c->topo = call->kind == FT_GATE_CART || call->kind == FT_GATE_CART_SUB
                  ? MPI_CART
                  : MPI_UNDEFINED;
  }
  if (ft_driver_restarts_alone(rt->driver)) {
    remember_created(cs, *newcomm);
    cs->replayed = cs->n_created;
  }
  return rc;
}

int ft_comm_make(struct ft_runtime *rt, const struct ft_gate_call *call,
                 MPI_Comm *newcomm) {
  MPI_Comm in = ft_comm_inner(rt, call->user);
  int rc = MPI_ERR_ARG;
  switch (call->kind) {
  case FT_GATE_DUP:
    rc = PMPI_Comm_dup(in, newcomm);
    break;
  case FT_GATE_SPLIT:
    rc = PMPI_Comm_split(in, call->color, call->key, newcomm);
    break;
  case FT_GATE_CREATE:
    rc = PMPI_Comm_create(in, call->group, newcomm);
    break;
  case FT_GATE_CART:
    rc = PMPI_Cart_create(in, call->ndims, call->dims, call->periods,
                          call->reorder, newcomm);
    break;
  case FT_GATE_SPLIT_TYPE:
    rc = split_type(rt, in, call, newcomm);
    break;
  case FT_GATE_CART_SUB:
    rc = PMPI_Cart_sub(in, call->dims, newcomm);
    break;
  case FT_GATE_CREATE_GROUP:
    rc = PMPI_Comm_create_group(in, call->group, call->color, newcomm);
    break;
  }
  ft_backend_bench_restart();
  return created_now(rt, rc, call, newcomm);
}
