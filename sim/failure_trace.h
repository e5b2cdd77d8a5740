/* Failure traces: the failures recorded on a real machine, read from the
 * LANL failure-data format or the Failure Trace Archive (FTA) event-trace
 * format, as a time-ordered list of (time, node) with nodes numbered in the
 * order they first fail, and mapped onto application ranks.
 *
 * Pure C11: no MPI, no SimGrid, no clock, no global mutable state. Parsing
 * allocates the event list (freed by ft_trace_free).
 *
 * Columns used (scenarios/traces/README.md has the full text):
 *   lanl  comma-separated with a header row naming the columns (any order,
 *         any other columns ignored): "System" (integer), "nodenum"
 *         (integer), "Prob Started" (mm/dd/yyyy hh:mm, or mm/dd/yy hh:mm,
 *         taken as UTC). One row is one failure of node (System, nodenum)
 *         at "Prob Started".
 *   fta   the event_trace table, tab-separated (or blank-separated when a
 *         line has no tab), 9 columns: event_id, component_id, node_id,
 *         platform_id, node_name, event_type, event_start_time,
 *         event_end_time, event_end_reason; an optional header row starts
 *         with "event_id". A row with event_type 0 (unavailability) is one
 *         failure of node (platform_id, node_id) at event_start_time (epoch
 *         seconds, fractions allowed); rows of type 1 (availability) are
 *         skipped.
 * Both: blank lines and lines starting with '#' are skipped. */
#ifndef FT_FAILURE_TRACE_H
#define FT_FAILURE_TRACE_H

#include <stddef.h>

#define FT_TRACE_MAX_BYTES (64 << 20) /* size of a trace file */
#define FT_TRACE_MAX_EVENTS (1 << 22) /* failures kept from one trace */

enum ft_trace_format { FT_TRACE_LANL, FT_TRACE_FTA };

/* How trace nodes become application ranks (node k: the k-th node to fail,
 * counting from 0, ties in file order). */
enum ft_trace_map {
  FT_TRACE_MAP_MODULO, /* rank k mod ranks: every failure is kept */
  FT_TRACE_MAP_FIRST,  /* rank k for k < ranks; other nodes' failures are
                          dropped */
};

struct ft_trace_event {
  double time; /* seconds since the trace's first failure (>= 0) */
  int node;    /* node index in first-failure order */
};

struct ft_trace {
  struct ft_trace_event *events; /* sorted by time, ties in file order */
  size_t nevents;
  int nnodes;    /* distinct nodes that fail */
  double origin; /* trace time (epoch seconds) of the first failure */
};

/* Reads a format name: "lanl" or "fta". Returns 0, or -1 for another. */
int ft_trace_format_parse(const char *name, enum ft_trace_format *out);

/* Reads a mapping name: "modulo" or "first". Returns 0, or -1. */
int ft_trace_map_parse(const char *name, enum ft_trace_map *out);

/* Parses the trace text [text, text + len) (NUL bytes are an error) named
 * `name` in messages, keeping only failures of system `system` (LANL's
 * System column, FTA's platform_id; -1 keeps all). Returns 0 with `out`
 * filled (possibly with no event), or -1 with `out` empty and a message in
 * `err` (errlen bytes, always terminated when errlen > 0):
 *   "NAME:LINE: field 'FIELD': what is wrong", e.g.
 *     "t.csv:7: field 'Prob Started': expected mm/dd/yyyy hh:mm, got 'x'"
 *     "t.tab:3: field 'event_type': expected 0 or 1, got '7'"
 *     "t.csv:1: field 'nodenum': no such column in the header"
 *   "NAME:LINE: expected 9 columns (FTA event_trace), got 4"
 *   "NAME:LINE: malformed CSV: unterminated quoted field"
 *   "NAME: more than 4194304 failures". */
int ft_trace_parse(const char *text, size_t len, enum ft_trace_format fmt,
                   const char *name, long system, struct ft_trace *out,
                   char *err, size_t errlen);

/* Reads the file `path` (at most FT_TRACE_MAX_BYTES) and parses it, with
 * `path` as its name in messages. Errors as ft_trace_parse, plus
 *   "PATH: cannot read: No such file or directory"
 *   "PATH: larger than 67108864 bytes". */
int ft_trace_load(const char *path, enum ft_trace_format fmt, long system,
                  struct ft_trace *out, char *err, size_t errlen);

/* The application rank of node `node` among `ranks` (>= 1) ranks, or -1
 * when `map` drops it. */
int ft_trace_rank(int node, int ranks, enum ft_trace_map map);

/* Frees the events and leaves `t` empty; safe on an empty or zeroed trace,
 * and twice. */
void ft_trace_free(struct ft_trace *t);

#endif /* FT_FAILURE_TRACE_H */
