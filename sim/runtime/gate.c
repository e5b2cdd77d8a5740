/* Gates: the collective calls the runtime passes to the MPI library.
 *
 * Every blocking call of the application waits on the control receive too
 * (control.h), so that a rollback order or a peer's request reaches it. A
 * collective call the MPI library makes (the creations of communicators:
 * MPI_Comm_dup, _split, _split_type, _create, _create_group, MPI_Cart_create,
 * _sub) cannot: a
 * rank inside it waits for every member, deaf to control. If a member is taken
 * away by a rollback before it joins, the others wait for ever (issue 13: lu's
 * final MPI_Comm_split, `fail 1 at 0.385`, rank 3 never saw its ROLLBACK; under
 * message logging rank 3 never answered the restarted rank's resend request).
 *
 * So under a recovering protocol a creation first passes a gate: each
 * member tells the parent's rank 0 (the leader) it entered, and waits,
 * handling control, for the leader's decision; the leader decides "make it"
 * once every member entered (MPI_Comm_create_group: every member of the
 * group, its rank 0 leading), and only then does any member call the MPI
 * library, which then completes without help. A rollback can still take a
 * member away between its ENTER and the decision: its recovery first waits
 * for that decision (ft_gate_settle) and makes the call if the others make
 * it; under message logging, where the members that have not entered may
 * need the failed rank's next life, it does not wait: the call is made when
 * the decision comes (settle_lost), or that life waits for it at the call.
 * A leader that rolls back before every member entered answers "do not"
 * to the ENTERs it holds or receives while it recovers (coordinated
 * protocols: every rank rolls back; under message logging the leader keeps
 * them, its next life reaches the same call).
 *
 * The audit of every call an application can make (README, "Which MPI calls
 * a rollback can interrupt"): point-to-point calls and their waits, and the
 * collectives the runtime carries over point-to-point (coll.c), wait on the
 * control receive too; the creations pass this gate; the local calls
 * (Comm_rank, _size, _group, _free, Wtime) never wait for a peer; MPI_Init
 * ends before control is posted; MPI_Finalize's reductions come after the
 * dispatcher's FINISH, after which it injects no failure; MPI_Abort ends
 * the run. The calls the runtime cannot make safe (nonblocking and
 * neighbourhood collectives, buffered sends, matched probes,
 * intercommunicators, graph topologies, windows, files...) stop the run at
 * once (unsupported.c). */
#include <stdlib.h>

#include "runtime.h"

static void send_decision(struct ft_runtime *rt, int to, uint64_t id, int k,
                          int decision) {
  struct ft_wire m = {.kind = FT_WIRE_GATE_DECISION,
                      .inc = rt->incarnation,
                      .wave = k,
                      .value = (int64_t)id,
                      .x = {decision}};
  ft_control_send(rt, to, &m);
}

static void keep_enter(struct ft_runtime *rt, uint64_t id, int k, int from) {
  rt->gate_enters =
      ft_reserve(rt->gate_enters, rt->n_gate_enters + 1, &rt->cap_gate_enters,
                 sizeof *rt->gate_enters, "the gates' ENTER messages");
  rt->gate_enters[rt->n_gate_enters++] =
      (struct ft_gate_enter){.id = id, .k = k, .from = from};
}

/* The ENTERs kept for call k on `id`: counted, and with `decision` != 0
 * answered and dropped. */
static int enters_for(struct ft_runtime *rt, uint64_t id, int k, int decision) {
  size_t kept = 0;
  int n = 0;
  for (size_t i = 0; i < rt->n_gate_enters; i++) {
    struct ft_gate_enter e = rt->gate_enters[i];
    int match = e.id == id && e.k == k;
    n += match;
    if (match && decision)
      send_decision(rt, e.from, id, k, decision);
    else
      rt->gate_enters[kept++] = e;
  }
  rt->n_gate_enters = kept;
  return n;
}

/* Message logging: the decision for a call a failed life entered came. The
 * others, told "make it", are inside the library's call: this rank joins
 * them now, wherever its next life is (its replay may need their messages,
 * which they send only once out of the call), and that life's creation
 * returns the communicator made here (ft_comm_take_replayed). */
static void settle_lost(struct ft_runtime *rt) {
  rt->gate.active = rt->gate.lost = 0;
  if (rt->gate.decision > 0) {
    MPI_Comm made;
    ft_comm_make_ahead(rt, &rt->gate.call, &made);
  }
}

/* An ENTER of an incarnation before this leader's comes from the run it
 * abandoned (coordinated protocols): refused, as is every ENTER once the run
 * is stopped. One of its own incarnation is kept, even while this leader
 * still recovers: after GO a member that has settled (settle.c) runs main()
 * again and may reach a creation first. */
void ft_gate_on_control(struct ft_runtime *rt, const struct ft_wire *m) {
  uint64_t id = (uint64_t)m->value;
  if (m->kind == FT_WIRE_GATE_ENTER &&
      (rt->stopping ||
       (!ft_driver_restarts_alone(rt->driver) && m->inc < rt->incarnation)))
    send_decision(rt, m->from, id, m->wave, -1); /* this leader rolled back */
  else if (m->kind == FT_WIRE_GATE_ENTER)
    keep_enter(rt, id, m->wave, m->from);
  else if (rt->gate.active && rt->gate.id == id && rt->gate.k == m->wave &&
           rt->gate.decision == 0) {
    rt->gate.decision = m->x[0] > 0 ? 1 : -1;
    if (rt->gate.lost)
      settle_lost(rt);
  }
}

/* The leader: waits until every other member entered, then tells them. */
static void lead(struct ft_runtime *rt, uint64_t id, int k, int members) {
  while (enters_for(rt, id, k, 0) < members - 1)
    ft_wait_control(rt); /* a rollback meanwhile does not return */
  enters_for(rt, id, k, 1);
  rt->gate.decision = 1;
}

/* A member: waits for the leader's decision. "Do not" means the leader
 * rolled back: the rollback order is on its way here too. */
static void follow(struct ft_runtime *rt) {
  while (rt->gate.decision <= 0)
    ft_wait_control(rt); /* a rollback meanwhile does not return */
}

int ft_gate_create(struct ft_runtime *rt, const struct ft_gate_call *call,
                   MPI_Comm *newcomm) {
  struct ft_comm *c = ft_comm_get(rt, call->user);
  if (!rt->recovering_protocol || c->size == 1 || c->id == 0)
    return ft_comm_make(rt, call, newcomm);
  uint64_t id = c->id;
  int k = c->gates + 1, members = c->size, leader = ft_comm_app_rank(c, 0);
  if (call->kind == FT_GATE_CREATE_GROUP) { /* the group's members only */
    int key = ft_comm_group_key(c, call->group, call->color, &leader, &members);
    id ^= (uint64_t)(uint32_t)key << 16 | 0x8000000000000000u;
    k = ft_comm_group_made(c, key) + 1;
    if (members <= 1 || leader < 0)
      return ft_comm_make(rt, call, newcomm);
  }
  /* Message logging: a restarted rank whose last life entered this very
   * call and whose ENTER still counts (ft_gate_settle kept it). */
  int again = rt->gate.active && rt->gate.id == id && rt->gate.k == k;
  if (!again)
    rt->gate = (struct ft_gate){
        .active = 1, .id = id, .k = k, .leader = leader, .call = *call};
  rt->gate.lost = 0; /* this life reached the call: it waits here */
  if (!again && leader != rt->world_rank) {
    struct ft_wire enter = {.kind = FT_WIRE_GATE_ENTER,
                            .inc = rt->incarnation,
                            .wave = k,
                            .value = (int64_t)id};
    ft_control_send(rt, leader, &enter);
  }
  if (leader == rt->world_rank)
    lead(rt, id, k, members);
  else
    follow(rt);
  rt->gate.active = 0;
  return ft_comm_make(rt, call, newcomm);
}

/* Coordinated protocols: every ENTER this rank holds as a leader is for a
 * call of the run being abandoned, which it will never reach. */
static void abort_held(struct ft_runtime *rt) {
  for (size_t i = 0; i < rt->n_gate_enters; i++)
    send_decision(rt, rt->gate_enters[i].from, rt->gate_enters[i].id,
                  rt->gate_enters[i].k, -1);
  rt->n_gate_enters = 0;
}

void ft_gate_settle(struct ft_runtime *rt) {
  int again = ft_driver_restarts_alone(rt->driver) &&
              !rt->stopping; /* a next life reaches the call */
  if (!again)
    abort_held(rt);
  if (!rt->gate.active)
    return;
  if (rt->gate.leader == rt->world_rank) {
    /* It had not decided (a decision makes the call at once). Coordinated:
     * the ENTERs were just refused. Message logging: the next life decides
     * when it reaches the call, with the ENTERs kept. */
    rt->gate.active = again;
    return;
  }
  if (again && rt->gate.decision == 0) {
    /* Message logging: waiting here for the decision could wait for ever:
     * a member that has not entered yet may be a restarted rank whose
     * replay needs this rank's next life (soak seed 602383: v2, lu's last
     * MPI_Comm_split; ranks 1 and 2 failed inside the gate and waited for
     * the decision, rank 3 replayed and waited for their messages). The
     * decision is taken when it comes (settle_lost). */
    rt->gate.lost = 1;
    return;
  }
  while (rt->gate.decision == 0)
    ft_wait_control(rt);       /* another rollback meanwhile lands here again */
  if (rt->gate.decision > 0) { /* the others are inside it: join them */
    MPI_Comm made;
    ft_comm_make(rt, &rt->gate.call, &made); /* coordinated: abandoned at
                                            resume; logging: the next life's */
  }
  rt->gate.active = 0;
}
