/* Unit tests of the FTSIM_OPTIONS parser (sim/options.c). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "options.h"

static struct ft_options o;
static char err[1024];

Test(options, empty_text_gives_the_defaults) {
  cr_assert_eq(ft_options_parse(NULL, &o, err, sizeof err), 0);
  cr_assert_str_eq(o.protocol, "none");
  cr_assert_eq(o.service_ranks, 0);
  cr_assert_eq(ft_options_parse("", &o, err, sizeof err), 0);
  cr_assert_str_eq(o.protocol, "none");
}

Test(options, reads_every_known_key) {
  cr_assert_eq(
      ft_options_parse("protocol=none,service_ranks=3", &o, err, sizeof err), 0,
      "%s", err);
  cr_assert_str_eq(o.protocol, "none");
  cr_assert_eq(o.service_ranks, 3);
}

Test(options, later_entries_override_earlier_ones) {
  cr_assert_eq(
      ft_options_parse("service_ranks=1,service_ranks=2", &o, err, sizeof err),
      0);
  cr_assert_eq(o.service_ranks, 2);
}

Test(options, unknown_protocol_names_the_field_and_the_known_ones) {
  cr_assert_eq(
      ft_options_parse("service_ranks=1,protocol=pcll", &o, err, sizeof err),
      -1);
  cr_assert_str_eq(err, "field 2 'protocol=pcll': unknown protocol 'pcll' "
                        "(known: none, pcl, vcl, pessimist, v2, bookmark, c3)");
}

Test(options, unknown_key_is_an_error) {
  cr_assert_eq(ft_options_parse("periode=30", &o, err, sizeof err), -1);
  cr_assert_str_eq(err,
                   "field 1 'periode=30': unknown key 'periode' (known: "
                   "protocol, service_ranks, period, image_mb, scenario, "
                   "ckpt_dir, server_map, storage, daemon_latency_us, "
                   "daemon_copy_mbps, event_loggers, log_batch, "
                   "copy_mbps, sb_bus_mbps, sb_bus_cache_mbps, "
                   "sb_cache_kb, el_rtt_us, trace, max_time, stall_failures, "
                   "record, record_speed, any_call, control_window, failure, "
                   "relaunch, piggyback, piggyback_switch_bytes, "
                   "piggyback_unit_bytes, "
                   "c3_barrier_checkpoint, max_quiet, control_timer, "
                   "ranks_per_node, service_placement, upload_streams)");
}

Test(options, service_placement_is_own_or_shared) {
  cr_assert_eq(
      ft_options_parse("service_placement=shared", &o, err, sizeof err), 0,
      "%s", err);
  cr_assert_eq(o.services_share_cores, 1);
  cr_assert_eq(ft_options_parse("service_placement=own", &o, err, sizeof err),
               0, "%s", err);
  cr_assert_eq(o.services_share_cores, 0);
  cr_assert_neq(
      ft_options_parse("service_placement=compute", &o, err, sizeof err), 0);
  cr_assert(strstr(err, "service_placement must be own or shared"), "%s", err);
}

Test(options, c3_barrier_checkpoint_is_0_or_1) {
  cr_assert_eq(ft_options_parse("c3_barrier_checkpoint=1", &o, err, sizeof err),
               0, "%s", err);
  cr_assert_eq(o.c3_barrier_checkpoint, 1);
  cr_assert_eq(ft_options_parse("c3_barrier_checkpoint=2", &o, err, sizeof err),
               -1);
  cr_assert_str_eq(err, "field 1 'c3_barrier_checkpoint=2': "
                        "c3_barrier_checkpoint must be 0 or 1");
}

Test(options, reads_the_trace_prefix) {
  cr_assert_eq(ft_options_parse("trace=/tmp/run/t", &o, err, sizeof err), 0,
               "%s", err);
  cr_assert_str_eq(o.trace, "/tmp/run/t");
  cr_assert_eq(ft_options_parse("protocol=pcl", &o, err, sizeof err), 0);
  cr_assert_str_eq(o.trace, "");
}

Test(options, reads_the_checkpoint_keys) {
  cr_assert_eq(ft_options_parse("protocol=pcl,period=2.5,image_mb=64,"
                                "scenario=s.txt,ckpt_dir=/tmp/c,"
                                "server_map=cyclic",
                                &o, err, sizeof err),
               0, "%s", err);
  cr_assert_str_eq(o.protocol, "pcl");
  cr_assert_float_eq(o.period, 2.5, 1e-12);
  cr_assert_float_eq(o.image_mb, 64, 1e-12);
  cr_assert_str_eq(o.scenario, "s.txt");
  cr_assert_str_eq(o.ckpt_dir, "/tmp/c");
  cr_assert_eq(o.server_map, FT_SERVER_MAP_CYCLIC);
}

Test(options, reads_the_daemon_cost_model) {
  cr_assert_eq(ft_options_parse("daemon_latency_us=12.5,daemon_copy_mbps=800",
                                &o, err, sizeof err),
               0, "%s", err);
  cr_assert_float_eq(o.daemon_latency_us, 12.5, 1e-12);
  cr_assert_float_eq(o.daemon_copy_mbps, 800, 1e-12);
  cr_assert_eq(ft_options_parse("daemon_copy_mbps=-1", &o, err, sizeof err),
               -1);
  cr_assert_str_eq(err, "field 1 'daemon_copy_mbps=-1': daemon_copy_mbps must "
                        "be a number of MB/s in [0, 1e9] (out of range)");
}

Test(options, reads_the_memory_bus_model) {
  cr_assert_eq(ft_options_parse(NULL, &o, err, sizeof err), 0);
  cr_assert_float_eq(o.sb_bus_mbps, 0, 1e-12);
  cr_assert_float_eq(o.sb_bus_cache_mbps, 0, 1e-12);
  cr_assert_float_eq(o.sb_cache_kb, 512, 1e-12);
  cr_assert_eq(ft_options_parse("sb_bus_mbps=168.3,sb_bus_cache_mbps=208,"
                                "sb_cache_kb=256",
                                &o, err, sizeof err),
               0, "%s", err);
  cr_assert_float_eq(o.sb_bus_mbps, 168.3, 1e-12);
  cr_assert_float_eq(o.sb_bus_cache_mbps, 208, 1e-12);
  cr_assert_float_eq(o.sb_cache_kb, 256, 1e-12);
  cr_assert_eq(ft_options_parse("sb_bus_mbps=fast", &o, err, sizeof err), -1);
  cr_assert_str_eq(
      err, "field 1 'sb_bus_mbps=fast': sb_bus_mbps must be a "
           "number of MB/s in [0, 1e9] (0: off) (not a decimal number)");
}

Test(options, reads_the_event_loggers_cost) {
  cr_assert_eq(ft_options_parse(NULL, &o, err, sizeof err), 0);
  cr_assert_float_eq(o.el_rtt_us, 0, 1e-12);
  cr_assert_eq(ft_options_parse("el_rtt_us=74.8", &o, err, sizeof err), 0, "%s",
               err);
  cr_assert_float_eq(o.el_rtt_us, 74.8, 1e-12);
  cr_assert_eq(ft_options_parse("el_rtt_us=-1", &o, err, sizeof err), -1);
  cr_assert_str_eq(err, "field 1 'el_rtt_us=-1': el_rtt_us must be a number "
                        "of microseconds in [0, 1e6] (out of range)");
}

Test(options, checkpoint_defaults) {
  cr_assert_eq(ft_options_parse(NULL, &o, err, sizeof err), 0);
  cr_assert_float_eq(o.period, 0, 1e-12);
  cr_assert_float_eq(o.image_mb, 0, 1e-12);
  cr_assert_str_eq(o.scenario, "");
  cr_assert_str_eq(o.ckpt_dir, "ftsim-ckpt");
  cr_assert_eq(o.server_map, FT_SERVER_MAP_BLOCK);
}

/* README, "Checkpoint storage". */
Test(options, reads_the_storage) {
  cr_assert_eq(ft_options_parse(NULL, &o, err, sizeof err), 0);
  cr_assert_eq(o.storage, FT_STORAGE_NETWORK);
  cr_assert_not(ft_storage_uses_disks(o.storage));
  const char *names[] = {"network", "servers", "shared", "local"};
  for (int s = 0; s < 4; s++) {
    char text[64];
    snprintf(text, sizeof text, "storage=%s", names[s]);
    cr_assert_eq(ft_options_parse(text, &o, err, sizeof err), 0, "%s", err);
    cr_assert_eq(o.storage, s);
    cr_assert_str_eq(ft_storage_name(o.storage), names[s]);
    cr_assert_eq(ft_storage_uses_disks(o.storage), s != FT_STORAGE_NETWORK);
  }
  cr_assert_eq(
      ft_options_parse("protocol=pcl,storage=nfs", &o, err, sizeof err), -1);
  cr_assert_str_eq(err, "field 2 'storage=nfs': storage must be network, "
                        "servers, shared or local");
}

Test(options, negative_period_names_the_field) {
  cr_assert_eq(ft_options_parse("protocol=pcl,period=-1", &o, err, sizeof err),
               -1);
  cr_assert_str_eq(err, "field 2 'period=-1': period must be a number of "
                        "seconds in [0, 1e9] (out of range)");
}

Test(options, bad_checkpoint_values_are_errors) {
  const char *bad[] = {
      "period=abc",   "period=",   "period=nan", "image_mb=-3",
      "image_mb=1e9", "scenario=", "ckpt_dir=",  "server_map=random"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    cr_assert_eq(ft_options_parse(bad[i], &o, err, sizeof err), -1, "%s",
                 bad[i]);
}

Test(options, servers_take_blocks_or_turns) {
  /* 10 ranks on 3 servers: blocks of ceil(10/3) = 4 */
  int block[10] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2};
  for (int r = 0; r < 10; r++) {
    cr_assert_eq(ft_options_server_of(FT_SERVER_MAP_BLOCK, r, 10, 3), block[r]);
    cr_assert_eq(ft_options_server_of(FT_SERVER_MAP_CYCLIC, r, 10, 3), r % 3);
  }
}

Test(options, negative_or_malformed_counts_are_errors) {
  const char *bad[] = {"service_ranks=-1", "service_ranks=2x",
                       "service_ranks=", "service_ranks=99999"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cr_assert_eq(ft_options_parse(bad[i], &o, err, sizeof err), -1, "%s",
                 bad[i]);
    cr_assert(strstr(err, "service_ranks must be an integer in [0, 4096]"),
              "%s -> %s", bad[i], err);
  }
}

/* upload_streams: the default, a limit, 0 (no limit); a negative or
 * malformed one names the field and its range. */
Test(options, upload_streams_default_limit_and_errors) {
  cr_assert_eq(ft_options_parse(NULL, &o, err, sizeof err), 0);
  cr_assert_eq(o.upload_streams, FT_UPLOAD_STREAMS_DEFAULT);
  cr_assert_eq(ft_options_parse("upload_streams=3", &o, err, sizeof err), 0,
               "%s", err);
  cr_assert_eq(o.upload_streams, 3);
  cr_assert_eq(ft_options_parse("upload_streams=0", &o, err, sizeof err), 0,
               "%s", err);
  cr_assert_eq(o.upload_streams, 0);
  const char *bad[] = {"upload_streams=-1", "upload_streams=2x",
                       "upload_streams=", "upload_streams=1048577"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cr_assert_eq(ft_options_parse(bad[i], &o, err, sizeof err), -1, "%s",
                 bad[i]);
    cr_assert(strstr(err, "upload_streams must be an integer in [0, 1048576] "
                          "(0: no limit)"),
              "%s -> %s", bad[i], err);
  }
}

Test(options, entry_without_equals_is_an_error) {
  cr_assert_eq(ft_options_parse("protocol", &o, err, sizeof err), -1);
  cr_assert_str_eq(err, "field 1 'protocol': expected key=value");
  cr_assert_eq(ft_options_parse("=none", &o, err, sizeof err), -1);
}

Test(options, overlong_text_is_an_error_not_a_truncation) {
  char text[2048];
  memset(text, 'a', sizeof text - 1);
  text[sizeof text - 1] = '\0';
  cr_assert_eq(ft_options_parse(text, &o, err, sizeof err), -1);
  cr_assert(strstr(err, "options longer than 1023 bytes"), "%s", err);
}

Test(options, a_failed_parse_leaves_no_partial_state_behind) {
  ft_options_parse("service_ranks=5,bogus=1", &o, err, sizeof err);
  cr_assert_eq(ft_options_parse("", &o, err, sizeof err), 0);
  cr_assert_eq(o.service_ranks, 0);
}

Test(options, message_logging_keys) {
  cr_assert_eq(ft_options_parse("event_loggers=2,log_batch=8,copy_mbps=1500",
                                &o, err, sizeof err),
               0, "%s", err);
  cr_assert_eq(o.event_loggers, 2);
  cr_assert_eq(o.log_batch, 8);
  cr_assert_float_eq(o.copy_mbps, 1500, 1e-12);
  cr_assert_eq(ft_options_parse("event_loggers=0", &o, err, sizeof err), -1);
  cr_assert_str_eq(err, "field 1 'event_loggers=0': event_loggers must be an "
                        "integer in [1, 4096]");
}

/* Issue 13, defect 3: when a run that cannot progress is stopped. */
Test(options, no_progress_keys) {
  cr_assert_eq(ft_options_parse(NULL, &o, err, sizeof err), 0);
  cr_assert_eq(o.max_time, 0);
  cr_assert_eq(o.stall_failures, FT_STALL_FAILURES_DEFAULT);
  cr_assert_eq(FT_STALL_FAILURES_DEFAULT, 1000);
  cr_assert_eq(ft_options_parse("protocol=pcl,max_time=2.5,stall_failures=0",
                                &o, err, sizeof err),
               0, "%s", err);
  cr_assert_eq(o.max_time, 2.5);
  cr_assert_eq(o.stall_failures, 0);
  cr_assert_eq(ft_options_parse("max_time=-1", &o, err, sizeof err), -1);
  cr_assert_str_eq(err, "field 1 'max_time=-1': max_time must be a number of "
                        "seconds in [0, 1e9] (0: no limit) (out of range)");
  cr_assert_eq(ft_options_parse("stall_failures=x", &o, err, sizeof err), -1);
  cr_assert_str_eq(err, "field 1 'stall_failures=x': stall_failures must be "
                        "an integer in [0, 1000000] (0: never)");
}

Test(options, c3_barrier_checkpoint_needs_c3) {
  cr_assert_eq(ft_options_parse("protocol=pcl,service_ranks=1,"
                                "c3_barrier_checkpoint=1",
                                &o, err, sizeof err),
               0);
  cr_assert_eq(ft_options_check(&o, err, sizeof err), -1);
  cr_assert_str_eq(err, "c3_barrier_checkpoint=1: protocol pcl has no barrier "
                        "checkpoint (c3's Figure 8: --protocol c3)");
  cr_assert_eq(ft_options_parse("protocol=c3,service_ranks=1,"
                                "c3_barrier_checkpoint=1",
                                &o, err, sizeof err),
               0);
  cr_assert_eq(ft_options_check(&o, err, sizeof err), 0, "%s", err);
}

Test(options, max_time_needs_a_dispatcher) {
  cr_assert_eq(ft_options_parse("max_time=5", &o, err, sizeof err), 0);
  cr_assert_eq(ft_options_check(&o, err, sizeof err), -1);
  cr_assert_str_eq(err, "max_time=5: protocol none has no dispatcher to stop "
                        "the run (pcl, vcl, pessimist, v2, bookmark and c3 "
                        "do)");
  cr_assert_eq(ft_options_parse("protocol=pcl,service_ranks=1,max_time=5", &o,
                                err, sizeof err),
               0);
  cr_assert_eq(ft_options_check(&o, err, sizeof err), 0, "%s", err);
}

/* Reference mode's kill failures (README, "Real failures: kill and
 * relaunch"). */
Test(options, reads_failure_and_relaunch) {
  cr_assert_eq(ft_options_parse("", &o, err, sizeof err), 0);
  cr_assert_eq(o.failure, FT_FAILURE_LOGICAL);
  cr_assert_eq(o.relaunch, 0);
  cr_assert_eq(ft_options_parse("protocol=vcl,service_ranks=1,failure=kill,"
                                "relaunch=3",
                                &o, err, sizeof err),
               0, "%s", err);
  cr_assert_eq(o.failure, FT_FAILURE_KILL);
  cr_assert_eq(o.relaunch, 3);
  cr_assert_eq(ft_options_check(&o, err, sizeof err), 0, "%s", err);
  cr_assert_eq(ft_options_parse("failure=crash", &o, err, sizeof err), -1);
  cr_assert_str_eq(err, "field 1 'failure=crash': failure must be logical or "
                        "kill");
  cr_assert_eq(ft_options_parse("relaunch=-1", &o, err, sizeof err), -1);
  cr_assert_str_eq(err, "field 1 'relaunch=-1': relaunch must be an integer "
                        "in [0, 1000000]");
}

Test(options, kill_failures_need_a_protocol_that_rolls_every_rank_back) {
  cr_assert_eq(ft_options_parse("protocol=pessimist,service_ranks=1,"
                                "failure=kill",
                                &o, err, sizeof err),
               0);
  cr_assert_eq(ft_options_check(&o, err, sizeof err), -1);
  cr_assert_str_eq(err,
                   "failure=kill: protocol pessimist restarts the failed rank "
                   "alone while the others keep their state, which a "
                   "relaunched job cannot do: its failures stay logical (kill "
                   "failures relaunch the whole job from its committed wave: "
                   "pcl, vcl, bookmark and c3)");
  cr_assert_eq(ft_options_parse("failure=kill", &o, err, sizeof err), 0);
  cr_assert_eq(ft_options_check(&o, err, sizeof err), -1);
  cr_assert_str_eq(err, "failure=kill: protocol none does not recover from "
                        "failures (kill failures relaunch the whole job from "
                        "its committed wave: pcl, vcl, bookmark and c3)");
  cr_assert_eq(ft_options_parse("protocol=pcl,service_ranks=1,relaunch=1", &o,
                                err, sizeof err),
               0);
  cr_assert_eq(ft_options_check(&o, err, sizeof err), -1);
  cr_assert_str_eq(err,
                   "relaunch=1: only a run with failure=kill is relaunched");
}

/* c3's piggyback forms (sim/runtime/piggyback/pb_combined.c). */
Test(options, piggyback_forms_and_switch) {
  cr_assert_eq(ft_options_parse(NULL, &o, err, sizeof err), 0);
  cr_assert_eq(o.piggyback, FT_PIGGYBACK_SEPARATE);
  cr_assert_eq(o.piggyback_switch_bytes, FT_PIGGYBACK_SWITCH_DEFAULT);
  cr_assert_eq(o.piggyback_unit_bytes, FT_PIGGYBACK_UNIT_DEFAULT);
  cr_assert_eq(ft_options_parse("protocol=c3,service_ranks=1,piggyback=auto,"
                                "piggyback_switch_bytes=64,"
                                "piggyback_unit_bytes=32",
                                &o, err, sizeof err),
               0, "%s", err);
  cr_assert_eq(o.piggyback, FT_PIGGYBACK_AUTO);
  cr_assert_eq(o.piggyback_switch_bytes, 64);
  cr_assert_eq(o.piggyback_unit_bytes, 32);
  cr_assert_eq(ft_options_check(&o, err, sizeof err), 0, "%s", err);
  cr_assert_eq(ft_options_parse("piggyback=combined", &o, err, sizeof err), 0);
  cr_assert_eq(o.piggyback, FT_PIGGYBACK_COMBINED);
  cr_assert_str_eq(ft_piggyback_form_name(FT_PIGGYBACK_COMBINED), "combined");
}

Test(options, bad_piggyback_values_name_the_field) {
  cr_assert_eq(
      ft_options_parse("protocol=c3,piggyback=inline", &o, err, sizeof err),
      -1);
  cr_assert_str_eq(err, "field 2 'piggyback=inline': piggyback must be "
                        "separate, combined or auto");
  cr_assert_eq(
      ft_options_parse("piggyback_switch_bytes=-1", &o, err, sizeof err), -1);
  cr_assert_str_eq(err, "field 1 'piggyback_switch_bytes=-1': "
                        "piggyback_switch_bytes must be an integer in [0, "
                        "1073741824]");
  cr_assert_eq(ft_options_parse("piggyback_unit_bytes=x", &o, err, sizeof err),
               -1);
  cr_assert_str_eq(err, "field 1 'piggyback_unit_bytes=x': "
                        "piggyback_unit_bytes must be an integer in [0, "
                        "1073741824]");
}

Test(options, piggyback_forms_are_c3s_only) {
  cr_assert_eq(ft_options_parse("protocol=pcl,service_ranks=1,piggyback="
                                "combined",
                                &o, err, sizeof err),
               0);
  cr_assert_eq(ft_options_check(&o, err, sizeof err), -1);
  cr_assert_str_eq(err, "piggyback=combined: protocol pcl carries no "
                        "piggyback (c3 does)");
}
