/* The any-call transport's pure parts (sim/runtime/anycall.c, issue 16,
 * item 3): the wire's MPI tag, the channel-order rule, MPI matching over
 * arrived messages, and the serialisation of message lists in images.
 * Pure C11: no MPI, no global state; tests/unit/anycall_wire_test.c. */
#ifndef FT_ANYCALL_WIRE_H
#define FT_ANYCALL_WIRE_H

#include <stddef.h>
#include <stdint.h>

/* Bits of the wire tag that carry the control count. */
enum { FT_AC_CC_BITS = 8 };

/* A message that arrived (its envelope; no payload moves). */
struct ft_ac_msg {
  int32_t peer, space, tag; /* sender, 2 x communicator + collective, tag */
  uint32_t cc; /* the sender's control messages to this rank before it
                  (mod 2^FT_AC_CC_BITS, from the wire tag) */
  uint64_t bytes;
  int64_t number; /* RECORD: its arrival number on its channel */
  int64_t seq;    /* its sequence number in the event trace (0: none) */
  int32_t data;   /* 1: its data is still at its sender (the transport's
                     data channel); never in an image: a message restored
                     from one has none */
};

/* A growing array of messages, in arrival order. */
struct ft_ac_msgs {
  struct ft_ac_msg *v;
  size_t n, cap;
};

/* 1 when tags 0..max_tag on `comms` communicators (two envelope spaces
 * each) fit in an MPI tag bounded by tag_ub with the control count, else
 * 0 (also for comms 0 or a negative max_tag). */
int ft_ac_wire_fits(int64_t max_tag, uint32_t comms, int64_t tag_ub);

/* The largest tag that fits with `comms` communicators under tag_ub (-1:
 * none). */
int64_t ft_ac_wire_max_tag(uint32_t comms, int64_t tag_ub);

/* The MPI tag of a message in envelope `space` (0 <= space < nspace) with
 * `tag` (>= 0) and control count cc: ((tag x nspace + space) <<
 * FT_AC_CC_BITS) | (cc mod 2^FT_AC_CC_BITS). Precondition: it fits
 * (ft_ac_wire_fits). */
int ft_ac_wire_encode(int32_t nspace, int32_t space, int32_t tag, uint32_t cc);

/* The inverse: space, tag and cc of MPI tag `wire` (>= 0). */
void ft_ac_wire_decode(int32_t nspace, int wire, int32_t *space, int32_t *tag,
                       uint32_t *cc);

/* 1 when a message carrying cc comes after control messages its sender
 * sent and this rank has not received yet (`got` received so far): the
 * difference mod 2^FT_AC_CC_BITS is in (0, 2^(FT_AC_CC_BITS-1)). Fewer
 * than 128 control messages from one sender are ever in flight. */
int ft_ac_cc_ahead(uint32_t cc, uint32_t got);

/* Appends *m: 0, or -1 when out of memory (l unchanged). */
int ft_ac_msgs_push(struct ft_ac_msgs *l, const struct ft_ac_msg *m);
/* Removes message i (< l->n), keeping the order of the others. */
void ft_ac_msgs_take(struct ft_ac_msgs *l, size_t i);
/* Frees the array and empties l. */
void ft_ac_msgs_free(struct ft_ac_msgs *l);

/* MPI matching of a receive for (peer, space, tag), with no wildcard:
 * the index of the first such message in arrival order, or -1. */
ptrdiff_t ft_ac_msgs_find(const struct ft_ac_msgs *l, int32_t peer,
                          int32_t space, int32_t tag);

/* The same with wildcards (the on-line drain's buffer, drain.c): a
 * negative peer matches any sender, a negative tag any tag (MPI-3.1, 3.5:
 * the first such message in arrival order, which per sender is its
 * sending order). Returns the index, or -1. */
ptrdiff_t ft_ac_msgs_match(const struct ft_ac_msgs *l, int32_t peer,
                           int32_t space, int32_t tag);

/* Bytes ft_ac_msgs_write writes for l. */
size_t ft_ac_msgs_size(const struct ft_ac_msgs *l);
/* Writes l (a count, then per message its peer, space, tag, bytes,
 * number and seq, 8 bytes each, host order: an image is read back by the
 * run that wrote it) at *p and advances *p by ft_ac_msgs_size(l). */
void ft_ac_msgs_write(const struct ft_ac_msgs *l, unsigned char **p);
/* Appends the messages written at *p (at most end) to l and advances *p.
 * Returns 0, or -1 when the bytes are truncated or memory runs out. */
int ft_ac_msgs_read(struct ft_ac_msgs *l, const unsigned char **p,
                    const unsigned char *end);

#endif /* FT_ANYCALL_WIRE_H */
