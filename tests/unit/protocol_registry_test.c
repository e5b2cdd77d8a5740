/* Unit tests of the protocol registry and the `none` core, driven with no
 * MPI at all. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "ft_protocol.h"

Test(registry, finds_none_by_name) {
  const struct ft_protocol_ops *p = ft_protocol_find("none");
  cr_assert_not_null(p);
  cr_assert_str_eq(p->name, "none");
  struct ft_core_config c = {.rank = 0, .ranks = 2};
  cr_assert_gt(p->state_size(&c), 0);
}

Test(registry, unknown_and_null_names_are_not_found) {
  cr_assert_null(ft_protocol_find("None"));
  cr_assert_null(ft_protocol_find(""));
  cr_assert_null(ft_protocol_find(NULL));
}

Test(registry, enumeration_ends_and_names_are_unique) {
  size_t n = 0;
  while (ft_protocol_at(n))
    n++;
  cr_assert_geq(n, 1);
  for (size_t i = 0; i < n; i++)
    for (size_t j = i + 1; j < n; j++)
      cr_assert_str_neq(ft_protocol_at(i)->name, ft_protocol_at(j)->name);
}

/* Every entry is complete: a name, a summary, a family in range and the
 * three functions a core must have; test variants included when linked. */
Test(registry, every_protocol_is_complete_and_in_a_family) {
  size_t n = 0;
  for (size_t i = 0; ft_protocol_at(i); i++, n++) {
    const struct ft_protocol_ops *p = ft_protocol_at(i);
    cr_assert_not_null(p->name);
    cr_assert_gt(strlen(p->name), 0);
    cr_assert_not_null(p->summary, "%s", p->name);
    cr_assert_not_null(ft_family_name(p->family), "%s", p->name);
    cr_assert(p->state_size && p->init && p->step, "%s", p->name);
  }
  cr_assert_geq(n, 8); /* the five protocols and the three test variants */
}

/* What the runtime and the tools ask of a protocol is answered by its
 * family (ft_protocol_recovers and the others in ft_protocol.h). */
Test(registry, the_family_answers_what_the_runtime_asks) {
  const struct ft_protocol_ops *none = ft_protocol_find("none");
  cr_assert_not(ft_protocol_recovers(none));
  cr_assert_not(ft_protocol_has_scheduler(none));
  cr_assert_not(ft_protocol_restarts_alone(none));
  const struct ft_protocol_ops *pcl = ft_protocol_find("pcl");
  cr_assert(ft_protocol_recovers(pcl));
  cr_assert_not(ft_protocol_has_scheduler(pcl));
  cr_assert_not(ft_protocol_restarts_alone(pcl));
  const struct ft_protocol_ops *vcl = ft_protocol_find("vcl");
  cr_assert(ft_protocol_recovers(vcl));
  cr_assert(ft_protocol_has_scheduler(vcl));
  cr_assert_not(ft_protocol_restarts_alone(vcl));
  const char *drains[] = {"bookmark", "bookmark-bug-nodrain"};
  for (size_t i = 0; i < sizeof drains / sizeof drains[0]; i++) {
    const struct ft_protocol_ops *p = ft_protocol_find(drains[i]);
    cr_assert_not_null(p, "%s", drains[i]);
    cr_assert(ft_protocol_recovers(p), "%s", drains[i]);
    cr_assert_not(ft_protocol_has_scheduler(p), "%s", drains[i]);
    cr_assert_not(ft_protocol_restarts_alone(p), "%s", drains[i]);
  }
  const char *loggers[] = {"pessimist", "v2", "pessimist-bug-nowait"};
  for (size_t i = 0; i < sizeof loggers / sizeof loggers[0]; i++) {
    const struct ft_protocol_ops *p = ft_protocol_find(loggers[i]);
    cr_assert_not_null(p, "%s", loggers[i]);
    cr_assert(ft_protocol_recovers(p), "%s", loggers[i]);
    cr_assert_not(ft_protocol_has_scheduler(p), "%s", loggers[i]);
    cr_assert(ft_protocol_restarts_alone(p), "%s", loggers[i]);
  }
}

/* A replay at any call goes through the any-call transport under the
 * coordinated, channel-state and drain families only; message logging and
 * c3 keep the replay's MPI calls (issue 17), so the transport's tag limit
 * does not apply to them. */
Test(registry, only_coordinated_channel_state_and_drain_use_the_transport) {
  const char *with[] = {"pcl", "vcl", "bookmark"};
  const char *without[] = {"pessimist", "v2", "c3"};
  for (size_t i = 0; i < 3; i++) {
    cr_assert(ft_protocol_any_call_transport(ft_protocol_find(with[i])), "%s",
              with[i]);
    cr_assert_not(ft_protocol_any_call_transport(ft_protocol_find(without[i])),
                  "%s", without[i]);
  }
}

Test(registry, protocols_name_their_families) {
  cr_assert_eq(ft_protocol_find("none")->family, FT_FAMILY_NONE);
  cr_assert_eq(ft_protocol_find("pcl")->family, FT_FAMILY_COORDINATED);
  cr_assert_eq(ft_protocol_find("vcl")->family, FT_FAMILY_CHANNEL_STATE);
  cr_assert_eq(ft_protocol_find("pessimist")->family,
               FT_FAMILY_MESSAGE_LOGGING);
  cr_assert_eq(ft_protocol_find("v2")->family, FT_FAMILY_MESSAGE_LOGGING);
  cr_assert_eq(ft_protocol_find("bookmark")->family, FT_FAMILY_DRAIN);
  cr_assert_str_eq(ft_family_name(FT_FAMILY_DRAIN), "drain");
}

Test(registry, family_names_round_trip_and_unknown_ones_fail) {
  for (int f = 0; f < FT_FAMILY_COUNT; f++) {
    enum ft_family back = FT_FAMILY_COUNT;
    cr_assert_eq(ft_family_parse(ft_family_name((enum ft_family)f), &back), 0);
    cr_assert_eq(back, f);
  }
  enum ft_family x;
  cr_assert_eq(ft_family_parse("Coordinated", &x), -1);
  cr_assert_eq(ft_family_parse("", &x), -1);
  cr_assert_eq(ft_family_parse(NULL, &x), -1);
  cr_assert_null(ft_family_name(FT_FAMILY_COUNT));
}

Test(none_core, rejects_a_rank_outside_the_world) {
  const struct ft_protocol_ops *p = ft_protocol_find("none");
  void *state =
      calloc(1, p->state_size(&(struct ft_core_config){.rank = 0, .ranks = 4}));
  struct ft_core_config bad = {.rank = 4, .ranks = 4};
  cr_assert_eq(p->init(state, &bad), -1);
  struct ft_core_config empty = {.rank = 0, .ranks = 0};
  cr_assert_eq(p->init(state, &empty), -1);
  free(state);
}

Test(none_core, passes_every_event_through_with_no_deadline) {
  const struct ft_protocol_ops *p = ft_protocol_find("none");
  void *state =
      calloc(1, p->state_size(&(struct ft_core_config){.rank = 0, .ranks = 4}));
  struct ft_core_config config = {.rank = 1, .ranks = 4};
  cr_assert_eq(p->init(state, &config), 0);
  enum ft_event_type types[] = {FT_EVENT_APP_SEND, FT_EVENT_APP_RECV,
                                FT_EVENT_DELIVERED, FT_EVENT_TIMER};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    struct ft_event e = {
        .type = types[i], .time = 1.5, .peer = 2, .tag = 7, .bytes = 64};
    struct ft_update u = {.flags = 0xdead, .deadline = 3.0};
    cr_assert_eq(p->step(state, &e, &u), 0);
    cr_assert_eq(u.flags, FT_UPDATE_PASS);
    cr_assert_lt(u.deadline, 0.0);
  }
  free(state);
}

/* Each family owns its control kinds (ft_protocol.h): every protocol names
 * them, 1-based and below FT_CONTROL_KIND_LIMIT, once each, and the
 * protocols of one family (test variants included) share one table. */
Test(registry, every_family_names_its_own_control_kinds) {
  for (size_t i = 0; ft_protocol_at(i); i++) {
    const struct ft_protocol_ops *p = ft_protocol_at(i);
    cr_assert_eq(p->controls == NULL, p->family == FT_FAMILY_NONE, "%s",
                 p->name);
    cr_assert_leq(p->n_controls, FT_CONTROL_KIND_LIMIT, "%s", p->name);
    for (size_t k = 1; k < p->n_controls; k++) {
      cr_assert_not_null(p->controls[k], "%s kind %zu", p->name, k);
      cr_assert_str_eq(ft_control_name(p->family, (int)k), p->controls[k]);
      int back = 0;
      cr_assert_eq(ft_control_parse(p->family, p->controls[k], &back), 0);
      cr_assert_eq(back, (int)k, "%s: %s", p->name, p->controls[k]);
    }
    for (size_t j = 0; ft_protocol_at(j); j++)
      if (ft_protocol_at(j)->family == p->family)
        cr_assert_eq(ft_protocol_at(j)->controls, p->controls, "%s and %s",
                     p->name, ft_protocol_at(j)->name);
  }
}

Test(registry, control_kinds_do_not_cross_families) {
  int k = -1;
  cr_assert_str_eq(ft_control_name(FT_FAMILY_COORDINATED, 3), "wave-at");
  cr_assert_str_eq(ft_control_name(FT_FAMILY_CHANNEL_STATE, 2), "cut");
  cr_assert_str_eq(ft_control_name(FT_FAMILY_MESSAGE_LOGGING, 1), "logged");
  cr_assert_null(ft_control_name(FT_FAMILY_NONE, 1));
  cr_assert_null(ft_control_name(FT_FAMILY_COORDINATED, 0));
  cr_assert_null(ft_control_name(FT_FAMILY_CHANNEL_STATE, 4));
  cr_assert_null(ft_control_name(FT_FAMILY_COUNT, 1));
  cr_assert_eq(ft_control_parse(FT_FAMILY_COORDINATED, "cut", &k), -1);
  cr_assert_eq(ft_control_parse(FT_FAMILY_CHANNEL_STATE, "wave-at", &k), -1);
  cr_assert_eq(ft_control_parse(FT_FAMILY_MESSAGE_LOGGING, "marker", &k), -1);
  cr_assert_str_eq(ft_control_name(FT_FAMILY_DRAIN, 4), "bookmark");
  cr_assert_eq(ft_control_parse(FT_FAMILY_DRAIN, "marker", &k), -1);
  cr_assert_eq(ft_control_parse(FT_FAMILY_COORDINATED, "bookmark", &k), -1);
  cr_assert_eq(ft_control_parse(FT_FAMILY_COORDINATED, NULL, &k), -1);
  cr_assert_eq(k, -1);
  cr_assert_eq(ft_control_parse(FT_FAMILY_CHANNEL_STATE, "marker", &k), 0);
  cr_assert_eq(k, 1);
}

/* The list messages and defaults print (ft_protocol_recovering_names):
 * every protocol that recovers, in registry order, none of the others; the
 * test variants linked here follow the registry's own. */
Test(registry, recovering_names_list_every_protocol_that_recovers) {
  char buf[512];
  size_t n = ft_protocol_recovering_names(buf, sizeof buf, ", ", " and ");
  cr_assert_eq(n, strlen(buf));
  cr_assert_eq(strncmp(buf, "pcl, vcl, pessimist, v2, bookmark, c3, ", 39), 0,
               "%s", buf);
  cr_assert_null(strstr(buf, "none"), "%s", buf);
  cr_assert_not_null(
      strstr(buf, ", pessimist-bug-nowait and bookmark-bug-nodrain"), "%s",
      buf);
  char whole[512], small[8];
  size_t m = ft_protocol_recovering_names(whole, sizeof whole, ",", ",");
  cr_assert_eq(m, strlen(whole));
  cr_assert_eq(ft_protocol_recovering_names(small, sizeof small, ",", ","), m);
  cr_assert_str_eq(small, "pcl,vcl"); /* cut short, terminated */
  cr_assert_eq(ft_protocol_recovering_names(NULL, 0, ",", ","), m);
}
