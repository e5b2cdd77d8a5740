/* The piggyback family's non-deterministic calls (c3-collectives, section
 * 3.1, Phase #2: a process logs "the result of every non-deterministic
 * decision it makes"): MPI_Iprobe, a wildcard MPI_Probe, MPI_Waitany,
 * MPI_Waitsome, MPI_Testany, MPI_Testsome, MPI_Test and MPI_Testall. The
 * core numbers each call
 * since the checkpoint (APP_PROBE, APP_COMPLETION) and logs what it found
 * while logging (PROBED, COMPLETION: the completed requests by their index
 * in the call's array, which the re-execution builds the same); after a
 * rollback it forces a logged outcome (REPLAY), as message logging's
 * driver does (message_logging/ml_ops.c) with its request ids. The wildcard
 * receives' matches are logged on the default path (p2p.c's app_recv).
 *
 * In main()'s prologue after a rollback (ft_prologue_hidden) the core sees
 * none of them, as none of the prologue's messages. The live paths make the
 * same MPI calls as the default paths of p2p.c, so that simulated times do
 * not change. */
#include <stdlib.h>

#include "piggyback.h"

/* The core's FT_C3_MAX_COMPLETIONS (protocols/c3/c3.h; the runtime names
 * no protocol): the completions of one call it logs. */
enum { PB_MAX_COMPLETIONS = 64 };

/* As p2p.c's poll_sometimes: a look at the clock, and at the control
 * receive every 16 calls of a polling loop. */
static void poll_sometimes(struct ft_runtime *rt) {
  ft_control_fate(rt);
  if (++rt->test_polls % 16 == 0)
    ft_poll_control(rt);
}

/* APP_PROBE or APP_COMPLETION: 1 with the core's outcome in *u when the
 * call is replayed, 0 live. */
static int replayed(struct ft_runtime *rt, enum ft_event_type type,
                    struct ft_update *u) {
  struct ft_event e = {.type = type, .peer = -1, .tag = -1};
  ft_core_decide(rt, &e, u);
  ft_apply_update(rt, u);
  return (u->flags & FT_UPDATE_REPLAY) != 0;
}

static void tell(struct ft_runtime *rt, struct ft_event *e) {
  ft_control_fate(rt); /* a rank that failed in the call records nothing */
  ft_core_step(rt, e);
}

/* ---- Probes ---- */

static void tell_probe(struct ft_runtime *rt, const struct ft_comm *c,
                       int found, const MPI_Status *st) {
  struct ft_event e = {.type = FT_EVENT_PROBED, .index = found};
  if (found) {
    int bytes = 0;
    FT_PMPI(Get_count, st, MPI_BYTE, &bytes);
    e.peer = ft_comm_app_rank(c, st->MPI_SOURCE);
    e.tag = st->MPI_TAG;
    e.bytes = (uint64_t)(bytes > 0 ? bytes : 0);
  }
  tell(rt, &e);
}

/* The library's MPI_Iprobe on c, *st the application's view of what it
 * found: under the combined piggyback the payload's count, and nothing
 * found while a lone lead's payload is not there yet (ft_pb_probed). */
static int iprobe_app(struct ft_runtime *rt, int source, int tag,
                      struct ft_comm *c, MPI_Status *st) {
  int flag = 0;
  FT_PMPI(Iprobe, source, tag, c->p2p, &flag, st);
  ft_pb_probed(rt, c, &flag, st);
  return flag;
}

/* Probes until a message of source/tag (ranks of c) is there. */
static void probe_until_found(struct ft_runtime *rt, int source, int tag,
                              struct ft_comm *c, MPI_Status *st) {
  while (!iprobe_app(rt, source, tag, c, st))
    poll_sometimes(rt);
}

/* A replayed probe: 1 when it found the logged message (status in *st), 0
 * when it found nothing; -1 live. */
static int replay_probe(struct ft_runtime *rt, struct ft_comm *c,
                        MPI_Status *st) {
  struct ft_update u;
  if (!replayed(rt, FT_EVENT_APP_PROBE, &u))
    return -1;
  int found = u.replay.found != 0;
  if (found)
    probe_until_found(rt, ft_comm_rank_of(c, u.replay.peer), u.replay.tag, c,
                      st);
  return found;
}

int ft_pb_iprobe(struct ft_runtime *rt, int source, int tag, struct ft_comm *c,
                 int *flag, MPI_Status *status) {
  MPI_Status st;
  if (ft_prologue_hidden(rt)) {
    *flag = iprobe_app(rt, source, tag, c, &st);
    if (*flag && status != MPI_STATUS_IGNORE)
      *status = st;
    return MPI_SUCCESS;
  }
  int found = replay_probe(rt, c, &st);
  if (found < 0)
    found = iprobe_app(rt, source, tag, c, &st);
  tell_probe(rt, c, found, &st);
  *flag = found;
  if (found && status != MPI_STATUS_IGNORE)
    *status = st;
  return MPI_SUCCESS;
}

/* A probe naming its source and tag is deterministic: no event. */
int ft_pb_probe(struct ft_runtime *rt, int source, int tag, struct ft_comm *c,
                MPI_Status *status) {
  MPI_Status st;
  int wildcard = source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG;
  if (!wildcard || ft_prologue_hidden(rt)) {
    probe_until_found(rt, source, tag, c, &st);
  } else if (replay_probe(rt, c, &st) < 0) {
    probe_until_found(rt, source, tag, c, &st);
    tell_probe(rt, c, 1, &st);
  } else {
    tell_probe(rt, c, 1, &st);
  }
  if (status != MPI_STATUS_IGNORE)
    *status = st;
  return MPI_SUCCESS;
}

/* ---- Completion calls ---- */

static void tell_completion(struct ft_runtime *rt, const int idx[], int n) {
  int64_t ids[PB_MAX_COMPLETIONS];
  if (n > PB_MAX_COMPLETIONS)
    ft_fatal("rank %d: a completion call completed %d requests while c3 "
             "logs at most %d per call",
             rt->world_rank, n, (int)PB_MAX_COMPLETIONS);
  for (int i = 0; i < n; i++)
    ids[i] = idx[i];
  struct ft_event e = {.type = FT_EVENT_COMPLETION,
                       .ids = ids,
                       .n_ids = (size_t)(n > 0 ? n : 0)};
  tell(rt, &e);
}

/* Waits for request i of a replayed call (the logged one), a delivery as
 * p2p.c's wait_call reports it, st->MPI_ERROR the error the first
 * execution saw for it (the library's, a truncated receive, or the
 * family's, a lone lead's payload truncated): MPI_ERR_TRUNCATE goes back
 * to the application as it did then. Before, the replay stopped the run
 * on it (e2e/c3_wait_errors_failures: `MPI_Wait returned error 9`). 0
 * when it is not active: a send the re-execution suppressed, which the
 * runtime reported complete at once (held_completion), maybe in an earlier
 * call than the logged one. */
static int wait_logged(struct ft_runtime *rt, int n, MPI_Request reqs[],
                       int64_t i, MPI_Status *st) {
  if (i < 0 || i >= n)
    ft_fatal("rank %d: c3's re-execution diverged: a logged completion names "
             "request %lld of a call on %d",
             rt->world_rank, (long long)i, n);
  if (reqs[i] == MPI_REQUEST_NULL)
    return 0;
  MPI_Request before = reqs[i];
  st->MPI_ERROR = MPI_SUCCESS;
  int rc = ft_wait_internal(rt, &reqs[i], st);
  int payload = ft_delivery_completed(rt, before, st);
  st->MPI_ERROR = rc != MPI_SUCCESS ? rc : payload;
  return 1;
}

/* A replayed completion call: the requests it completed (their indices in
 * idx[], statuses in st[] unless NULL, each with its error), or -1 live.
 * *err: the first of their errors (MPI_SUCCESS: none). */
static int replay_completion(struct ft_runtime *rt, int n, MPI_Request reqs[],
                             int idx[], MPI_Status st[], int *err) {
  struct ft_update u;
  *err = MPI_SUCCESS;
  if (!replayed(rt, FT_EVENT_APP_COMPLETION, &u))
    return -1;
  int64_t ids[PB_MAX_COMPLETIONS];
  int n_ids = (int)u.replay.n_ids, k = 0;
  for (int i = 0; i < n_ids; i++) /* the core's array lives until its next
                                     step */
    ids[i] = u.replay.ids[i];
  for (int i = 0; i < n_ids; i++) {
    MPI_Status s;
    if (!wait_logged(rt, n, reqs, ids[i], &s))
      continue;
    *err = *err != MPI_SUCCESS ? *err : s.MPI_ERROR;
    idx[k] = (int)ids[i];
    if (st)
      st[k] = s;
    k++;
  }
  if (k == 0 && n_ids > 0)
    return -1; /* reported already: the call goes live */
  tell_completion(rt, idx, k);
  return k;
}

/* driver.h's held_completion: the call counts (a suppressed send's
 * completion in the re-execution takes the number the send's completion
 * took in the first run, when both come at the same call). */
void ft_pb_held_completion(struct ft_runtime *rt, int index) {
  if (ft_prologue_hidden(rt))
    return;
  struct ft_update u;
  replayed(rt, FT_EVENT_APP_COMPLETION, &u);
  tell_completion(rt, &index, 1);
}

static int all_null(int n, const MPI_Request reqs[]) {
  for (int i = 0; i < n; i++)
    if (reqs[i] != MPI_REQUEST_NULL)
      return 0;
  return 1;
}

/* p2p.c's wait_any: interruptible, the completed request a delivery. */
static int wait_any_live(struct ft_runtime *rt, int n, MPI_Request reqs[],
                         MPI_Status *st) {
  MPI_Request small[16];
  MPI_Request *before = ft_handles_copy(n, reqs, small);
  int index = ft_wait_any(rt, n, reqs, st);
  if (index != MPI_UNDEFINED)
    ft_delivery_completed(rt, before[index], st);
  ft_handles_free(before, small);
  return index;
}

int ft_pb_waitany(struct ft_runtime *rt, int n, MPI_Request reqs[], int *index,
                  MPI_Status *status) {
  MPI_Status st;
  int idx[PB_MAX_COMPLETIONS], rc = MPI_SUCCESS;
  int k = ft_prologue_hidden(rt)
              ? -1
              : replay_completion(rt, n, reqs, idx, &st, &rc);
  if (k > 1)
    ft_fatal("rank %d: c3's re-execution diverged: MPI_Waitany completes "
             "%d logged requests",
             rt->world_rank, k);
  if (k > 0 || (k == 0 && all_null(n, reqs))) {
    *index = k ? idx[0] : MPI_UNDEFINED;
  } else { /* live, or a call that returned after logging stopped */
    st.MPI_ERROR = MPI_SUCCESS;
    *index = wait_any_live(rt, n, reqs, &st);
    if (!ft_prologue_hidden(rt))
      tell_completion(rt, index, *index == MPI_UNDEFINED ? 0 : 1);
    rc = st.MPI_ERROR; /* the library's error (control.c, ft_wait_any) */
  }
  if (status != MPI_STATUS_IGNORE && *index != MPI_UNDEFINED)
    *status = st;
  return rc;
}

/* One completion per call, as p2p.c's default under a recovering
 * protocol (interruptible). */
int ft_pb_waitsome(struct ft_runtime *rt, int n, MPI_Request reqs[],
                   int *outcount, int indices[], MPI_Status statuses[]) {
  return ft_waitsome_one(rt, ft_pb_waitany, n, reqs, outcount, indices,
                         statuses);
}

/* p2p.c's testany_call: the library's MPI_Testany, the completed request a
 * delivery. */
static int testany_live(struct ft_runtime *rt, int n, MPI_Request reqs[],
                        int *index, int *flag, MPI_Status *st) {
  MPI_Request small[16];
  MPI_Request *before = ft_handles_copy(n, reqs, small);
  int rc = PMPI_Testany(n, reqs, index, flag, st);
  if (*flag && *index != MPI_UNDEFINED) {
    ft_pending_done(rt, before[*index]);
    int payload = ft_delivery_completed(rt, before[*index], st);
    rc = rc != MPI_SUCCESS ? rc : payload; /* a lone lead's, truncated */
  }
  ft_handles_free(before, small);
  return rc;
}

int ft_pb_testany(struct ft_runtime *rt, int n, MPI_Request reqs[], int *index,
                  int *flag, MPI_Status *status) {
  MPI_Status st;
  int idx[PB_MAX_COMPLETIONS], rc = MPI_SUCCESS;
  int k = ft_prologue_hidden(rt)
              ? -1
              : replay_completion(rt, n, reqs, idx, &st, &rc);
  if (k > 1)
    ft_fatal("rank %d: c3's re-execution diverged: MPI_Testany completes "
             "%d logged requests",
             rt->world_rank, k);
  if (k >= 0) {
    *index = k ? idx[0] : MPI_UNDEFINED;
    *flag = k > 0 || all_null(n, reqs);
  } else {
    rc = testany_live(rt, n, reqs, index, flag, &st);
    int found = *flag && *index != MPI_UNDEFINED;
    if (!ft_prologue_hidden(rt))
      tell_completion(rt, index, found);
  }
  if (status != MPI_STATUS_IGNORE && *flag && *index != MPI_UNDEFINED)
    *status = st;
  return rc;
}

/* p2p.c's some_tracked with MPI_Testsome: every completion forgotten first,
 * then each a delivery. */
static int testsome_live(struct ft_runtime *rt, int n, MPI_Request reqs[],
                         int *outcount, int indices[], MPI_Status st[]) {
  MPI_Request small[16];
  MPI_Request *before = ft_handles_copy(n, reqs, small);
  int rc = PMPI_Testsome(n, reqs, outcount, indices, st);
  for (int k = 0; *outcount != MPI_UNDEFINED && k < *outcount; k++)
    ft_pending_done(rt, before[indices[k]]);
  for (int k = 0; *outcount != MPI_UNDEFINED && k < *outcount; k++)
    if (ft_delivery_completed(rt, before[indices[k]], &st[k]) != MPI_SUCCESS &&
        rc == MPI_SUCCESS)
      rc = MPI_ERR_IN_STATUS; /* a lone lead's payload, truncated */
  ft_handles_free(before, small);
  return rc;
}

int ft_pb_testsome(struct ft_runtime *rt, int n, MPI_Request reqs[],
                   int *outcount, int indices[], MPI_Status statuses[]) {
  MPI_Status small[16];
  MPI_Status *st = ft_statuses_for(n, statuses, small);
  int rc = MPI_SUCCESS;
  int k = ft_prologue_hidden(rt)
              ? -1
              : replay_completion(rt, n, reqs, indices, st, &rc);
  if (k >= 0) {
    *outcount = k > 0 || !all_null(n, reqs) ? k : MPI_UNDEFINED;
    rc = rc != MPI_SUCCESS ? MPI_ERR_IN_STATUS : rc; /* in the status */
  } else {
    rc = testsome_live(rt, n, reqs, outcount, indices, st);
    if (!ft_prologue_hidden(rt))
      tell_completion(rt, indices, *outcount == MPI_UNDEFINED ? 0 : *outcount);
  }
  ft_statuses_free(st, statuses, small);
  return rc;
}

/* p2p.c's test_call: the library's MPI_Test, the completed request a
 * delivery. */
static int test_live(struct ft_runtime *rt, MPI_Request *req, int *flag,
                     MPI_Status *st) {
  MPI_Request before = *req;
  st->MPI_ERROR = MPI_SUCCESS;
  int rc = PMPI_Test(req, flag, st);
  if (*flag) {
    ft_pending_done(rt, before);
    int payload = ft_delivery_completed(rt, before, st);
    rc = rc != MPI_SUCCESS ? rc : payload; /* a lone lead's, truncated */
  }
  return rc;
}

/* The calls MPI_Test and MPI_Testall are not numbered in: main()'s
 * prologue after a rollback, and a replay (any-call mode), whose test
 * calls are its own emulation of the recording's on the requests the
 * recording found not complete (sim/replay/replay.c, test_not_done: their
 * arrays differ between a run and its re-execution; the replay forces the
 * recording's completions itself). Numbered there, a re-execution diverged
 * (cli/anycall_resend_c3: "a logged completion names request 1 of a call
 * on 1"). */
static int test_unnumbered(const struct ft_runtime *rt) {
  return ft_prologue_hidden(rt) || rt->ac.core_mode;
}

/* MPI_Test's outcome depends on timing as MPI_Testany's does (the
 * request complete or not yet): numbered, logged while logging, forced
 * after a rollback (c3-collectives, section 3.1, Phase #2). Before, a
 * re-execution could take the other branch of a program that branches on
 * the flag (e2e/c3_separate_test_failures). */
int ft_pb_test(struct ft_runtime *rt, MPI_Request *req, int *flag,
               MPI_Status *status) {
  MPI_Status st;
  int idx[PB_MAX_COMPLETIONS], rc = MPI_SUCCESS;
  int k =
      test_unnumbered(rt) ? -1 : replay_completion(rt, 1, req, idx, &st, &rc);
  if (k >= 0) {
    *flag = k > 0;
  } else {
    rc = test_live(rt, req, flag, &st);
    if (!test_unnumbered(rt)) {
      int zero = 0;
      tell_completion(rt, &zero, *flag);
    }
  }
  if (status != MPI_STATUS_IGNORE && *flag)
    *status = st;
  return rc;
}

/* MPI_Testall as p2p.c's testall_call makes it (SMPI completes the
 * requests that are done even when not all are): MPI_Testsome, each
 * completion a delivery, the completed requests' indices in idx[] (their
 * number in *out) and statuses in st[] by index. */
static int testall_live(struct ft_runtime *rt, int n, MPI_Request reqs[],
                        int idx[], int *out, MPI_Status st[]) {
  MPI_Status small[16];
  MPI_Status *some = ft_statuses_for(n, MPI_STATUSES_IGNORE, small);
  int rc = testsome_live(rt, n, reqs, out, idx, some);
  if (*out == MPI_UNDEFINED)
    *out = 0;
  for (int k = 0; k < *out; k++)
    st[idx[k]] = some[k];
  ft_statuses_free(some, MPI_STATUSES_IGNORE, small);
  return rc;
}

/* MPI_Testall: which requests it completed depends on timing; numbered,
 * the completed ones logged while logging (as MPI_Testsome's) and forced
 * after a rollback, the flag then whether none is left. */
int ft_pb_testall(struct ft_runtime *rt, int n, MPI_Request reqs[], int *flag,
                  MPI_Status statuses[]) {
  MPI_Status small[16], small_k[16];
  MPI_Status *st = ft_statuses_for(n, statuses, small);
  MPI_Status *by_k = ft_statuses_for(n, MPI_STATUSES_IGNORE, small_k);
  int idx_small[16],
      *idx = n <= 16 ? idx_small : malloc((size_t)n * sizeof *idx);
  if (!idx)
    ft_fatal("out of memory in MPI_Testall on %d requests", n);
  int rc = MPI_SUCCESS,
      k = test_unnumbered(rt) ? -1
                              : replay_completion(rt, n, reqs, idx, by_k, &rc);
  if (k >= 0) {
    for (int j = 0; j < k; j++)
      st[idx[j]] = by_k[j];
    rc = rc != MPI_SUCCESS ? MPI_ERR_IN_STATUS : rc;
  } else {
    rc = testall_live(rt, n, reqs, idx, &k, st);
    if (!test_unnumbered(rt))
      tell_completion(rt, idx, k);
  }
  *flag = all_null(n, reqs);
  if (idx != idx_small)
    free(idx);
  ft_statuses_free(by_k, MPI_STATUSES_IGNORE, small_k);
  ft_statuses_free(st, statuses, small);
  return rc;
}
