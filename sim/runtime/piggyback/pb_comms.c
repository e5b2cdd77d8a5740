/* The piggyback family's communicators (c3): the creations main() made,
 * kept in the image, and made again at the restore.
 *
 * C3 takes a rank's checkpoint wherever that rank is when asked, so the
 * ranks' checkpoints may stand at different iterations of a loop that
 * creates communicators (a real collective of the MPI library, through the
 * gate): after a rollback a rank whose checkpoint came first creates them
 * again as it re-executes, the others' restored state is past them. MPI's
 * opaque objects are not in an application-level image (c3-collectives,
 * section 2.4: "the MPI library has internal state that may need to be
 * saved with checkpoints. It is not clear how this can be accomplished
 * without access to the MPI library code"); C3 records them instead, and
 * so does this file: every rank records its creations since the start of
 * the run (their kind, parent and arguments), the image holds those made
 * before its checkpoint, and at the restore the rank makes again, in their
 * order, those its restarted main() did not make before its first safe
 * point. Since every member of a parent makes its creations on it in one
 * order, each re-creation meets, in the gate and in the library, the same
 * creation re-executed by the members whose checkpoint came before it; its
 * number on the parent, hence its name, is the one of the first run (the
 * restore checks it). A late message of that communicator, which its
 * receiver logged and hands back, is sent again on it (ft_pb_flush): the
 * application of a sender whose checkpoint came after the creation never
 * makes it again (calls_check under c3, `fail 2 at 0.082`: deadlocked). A
 * communicator made again is the runtime's own; the application never sees
 * it. One the first run had freed before the checkpoint is freed at once
 * when no late message of its was sent again on it (none can come: a
 * message sent to this rank on it was received before its checkpoint, so
 * if its sender re-executes the send, that message was early and is
 * suppressed), else kept until MPI_Finalize. */
#include <stdlib.h>
#include <string.h>

#include "piggyback.h"

_Static_assert(FT_GATE_MAX_DIMS == 8, "struct ft_pb_creation holds 8 dims");

static void push_members(struct ft_pb_creations *l, const int32_t *m,
                         size_t n) {
  l->members = ft_reserve(l->members, l->n_members + n, &l->cap_members,
                          sizeof *l->members, "c3 creations");
  memcpy(l->members + l->n_members, m, n * sizeof *m);
  l->n_members += n;
}

static void push_creation(struct ft_pb_creations *l,
                          const struct ft_pb_creation *r) {
  l->at = ft_reserve(l->at, l->n + 1, &l->cap, sizeof *l->at, "c3 creations");
  l->at[l->n++] = *r;
}

/* The members of `group` as application ranks (ranks of the application's
 * world), appended to l; returns how many. */
static int32_t group_members(struct ft_runtime *rt, MPI_Group group,
                             struct ft_pb_creations *l) {
  MPI_Group world;
  int n = 0;
  FT_PMPI(Group_size, group, &n);
  FT_PMPI(Comm_group, rt->app_world, &world);
  int *in = malloc((size_t)(n ? n : 1) * sizeof *in),
      *out = malloc((size_t)(n ? n : 1) * sizeof *out);
  if (!in || !out)
    ft_fatal("rank %d: out of memory recording a group", rt->world_rank);
  for (int r = 0; r < n; r++)
    in[r] = r;
  FT_PMPI(Group_translate_ranks, group, n, in, world, out);
  FT_PMPI(Group_free, &world);
  for (int r = 0; r < n; r++) {
    int32_t m = out[r];
    push_members(l, &m, 1);
  }
  free(in);
  free(out);
  return n;
}

void ft_pb_comm_made(struct ft_runtime *rt, const struct ft_gate_call *call,
                     MPI_Comm made) {
  struct ft_pb_creations *l = &rt->pb.made;
  const struct ft_comm *parent = ft_comm_get(rt, call->user);
  const struct ft_comm *c =
      made == MPI_COMM_NULL ? NULL : ft_comm_lookup(rt, made);
  struct ft_pb_creation r = {.kind = (int32_t)call->kind,
                             .parent = parent->name,
                             .name = c ? c->name : -1,
                             .color = call->color,
                             .key = call->key,
                             .ndims = call->ndims,
                             .reorder = call->reorder,
                             .first = (int32_t)l->n_members};
  for (int d = 0; d < call->ndims && d < FT_GATE_MAX_DIMS; d++) {
    r.dims[d] = call->dims[d];
    r.periods[d] = call->periods[d];
  }
  if (call->kind == FT_GATE_CREATE || call->kind == FT_GATE_CREATE_GROUP)
    r.n_members = group_members(rt, call->group, l);
  push_creation(l, &r);
  ft_pb_flush(rt);
}

void ft_pb_comm_freed(struct ft_runtime *rt, const struct ft_comm *c) {
  struct ft_pb_creations *l = &rt->pb.made;
  for (size_t i = l->n; c && c->name >= 0 && i-- > 0;)
    if (l->at[i].name == c->name && !l->at[i].freed) {
      l->at[i].freed = (int32_t)(1 + rt->safe_points);
      return;
    }
}

void ft_pb_capture_creations(struct ft_pb *pb) {
  pb->captured_creations = pb->made.n;
  pb->captured_members = pb->made.n_members;
}

void ft_pb_forget_creations(struct ft_pb *pb) {
  pb->made.n = pb->made.n_members = 0;
  pb->captured_creations = pb->captured_members = 0;
}

/* ---- In the image ---- */

size_t ft_pb_creations_size(const struct ft_pb *pb) {
  return 8 + pb->captured_creations * sizeof(struct ft_pb_creation) +
         pb->captured_members * sizeof(int32_t);
}

unsigned char *ft_pb_creations_write(const struct ft_pb *pb, int64_t index,
                                     unsigned char *p) {
  uint32_t n = (uint32_t)pb->captured_creations,
           m = (uint32_t)pb->captured_members;
  memcpy(p, &n, 4);
  memcpy(p + 4, &m, 4);
  p += 8;
  for (size_t i = 0; i < n; i++) {
    struct ft_pb_creation r = pb->made.at[i];
    r.freed = r.freed > 0 && r.freed - 1 < index; /* before the checkpoint */
    memcpy(p, &r, sizeof r);
    p += sizeof r;
  }
  memcpy(p, pb->made.members, m * sizeof(int32_t));
  return p + m * sizeof(int32_t);
}

const unsigned char *ft_pb_creations_read(struct ft_runtime *rt,
                                          const unsigned char *p,
                                          const unsigned char *end,
                                          struct ft_pb_creations *out) {
  uint32_t n = 0, m = 0;
  if (end - p < 8)
    ft_fatal("rank %d: its image's c3 creations are truncated", rt->world_rank);
  memcpy(&n, p, 4);
  memcpy(&m, p + 4, 4);
  p += 8;
  size_t bytes = n * sizeof(struct ft_pb_creation) + m * sizeof(int32_t);
  if ((size_t)(end - p) < bytes)
    ft_fatal("rank %d: its image's c3 creations are truncated", rt->world_rank);
  out->n = out->n_members = 0;
  for (uint32_t i = 0; i < n; i++) {
    struct ft_pb_creation r;
    memcpy(&r, p + i * sizeof r, sizeof r);
    if (r.n_members < 0 || (uint32_t)r.first + (uint32_t)r.n_members > m)
      ft_fatal("rank %d: its image's c3 creation %u names members %d..%d "
               "of %u",
               rt->world_rank, i, r.first, r.first + r.n_members, m);
    push_creation(out, &r);
  }
  p += n * sizeof(struct ft_pb_creation);
  out->members = ft_reserve(out->members, m, &out->cap_members,
                            sizeof *out->members, "c3 creations");
  memcpy(out->members, p, m * sizeof(int32_t));
  out->n_members = m;
  return p + m * sizeof(int32_t);
}

/* ---- Made again at the restore ---- */

/* The group of creation r's members, from the application's world. */
static MPI_Group make_group(struct ft_runtime *rt,
                            const struct ft_pb_creations *img,
                            const struct ft_pb_creation *r) {
  MPI_Group world, group;
  FT_PMPI(Comm_group, rt->app_world, &world);
  int *ranks =
      malloc((size_t)(r->n_members ? r->n_members : 1) * sizeof *ranks);
  if (!ranks)
    ft_fatal("rank %d: out of memory making a group", rt->world_rank);
  for (int32_t i = 0; i < r->n_members; i++)
    ranks[i] = img->members[r->first + i];
  FT_PMPI(Group_incl, world, r->n_members, ranks, &group);
  FT_PMPI(Group_free, &world);
  free(ranks);
  return group;
}

/* Makes creation i of the image again, through the parent's gate, as the
 * first run made it; records it as made by this run. Returns it. */
static MPI_Comm make_again(struct ft_runtime *rt,
                           const struct ft_pb_creations *img, size_t i) {
  const struct ft_pb_creation *r = &img->at[i];
  struct ft_comm *parent = ft_comm_named(rt, r->parent);
  if (!parent)
    ft_fatal("rank %d: c3 cannot make again its creation %zu: its parent "
             "communicator %d does not exist",
             rt->world_rank, i, r->parent);
  struct ft_gate_call call = {.kind = (enum ft_gate_kind)r->kind,
                              .user = parent->user,
                              .color = r->color,
                              .key = r->key,
                              .info = MPI_INFO_NULL,
                              .group = MPI_GROUP_NULL,
                              .ndims = r->ndims,
                              .reorder = r->reorder};
  for (int d = 0; d < r->ndims && d < FT_GATE_MAX_DIMS; d++) {
    call.dims[d] = r->dims[d];
    call.periods[d] = r->periods[d];
  }
  if (r->kind == FT_GATE_CREATE || r->kind == FT_GATE_CREATE_GROUP)
    call.group = make_group(rt, img, r);
  MPI_Comm made = MPI_COMM_NULL;
  if (ft_gate_create(rt, &call, &made) != MPI_SUCCESS)
    ft_fatal("rank %d: c3 could not make again its creation %zu",
             rt->world_rank, i);
  if (call.group != MPI_GROUP_NULL)
    FT_PMPI(Group_free, &call.group);
  const struct ft_comm *c =
      made == MPI_COMM_NULL ? NULL : ft_comm_lookup(rt, made);
  if ((c ? c->name : -1) != r->name)
    ft_fatal("rank %d: c3 made again its creation %zu as communicator %d, "
             "the first run made %d",
             rt->world_rank, i, c ? c->name : -1, r->name);
  struct ft_pb_creations *l = &rt->pb.made;
  struct ft_pb_creation again = *r;
  again.first = (int32_t)l->n_members;
  push_members(l, img->members + r->first, (size_t)r->n_members);
  push_creation(l, &again);
  return made;
}

void ft_pb_make_again(struct ft_runtime *rt,
                      const struct ft_pb_creations *img) {
  struct ft_pb_creations *l = &rt->pb.made;
  if (l->n > img->n)
    ft_fatal("rank %d: main() made %zu communicators before its first safe "
             "point, its c3 image holds %zu",
             rt->world_rank, l->n, img->n);
  for (size_t i = 0; i < l->n; i++)
    if (l->at[i].kind != img->at[i].kind ||
        l->at[i].parent != img->at[i].parent ||
        l->at[i].name != img->at[i].name)
      ft_fatal("rank %d: main()'s creation %zu before its first safe point "
               "is not the one its c3 image holds (communicator %d, the "
               "image: %d)",
               rt->world_rank, i, l->at[i].name, img->at[i].name);
  ft_pb_flush(rt);
  if (rt->ac.core_mode) /* a replay makes them again itself (driver.h,
                           ac_repost; sim/replay/replay.c, at_cut) */
    return;
  size_t first = l->n, n = img->n - first;
  MPI_Comm *made = malloc((n ? n : 1) * sizeof *made);
  if (!made)
    ft_fatal("rank %d: out of memory making communicators again",
             rt->world_rank);
  for (size_t i = 0; i < n; i++) {
    made[i] = make_again(rt, img, first + i);
    ft_pb_flush(rt); /* its late messages, before the next creation */
  }
  /* Once every one is made (a freed one may be the parent of a later). */
  for (size_t i = 0; i < n; i++)
    if (made[i] != MPI_COMM_NULL && img->at[first + i].freed &&
        !ft_pb_resending(&rt->pb, img->at[first + i].name)) {
      ft_comm_forget(rt, made[i]);
      FT_PMPI(Comm_free, &made[i]);
    }
  free(made);
}
