/* SPDX-License-Identifier: BSD-3-Clause */
/* Two taps of the same traffic: the packets of tap A (upstream) and tap B
 * (downstream) matched by their identity, what the network between the
 * taps did to them (lost, delayed, CE-marked, rewritten, reordered,
 * duplicated or injected), per flow and in all.
 *
 * Identity: the carrier's addresses (IP source and destination for RoCEv2,
 * the GRH's SGID and DGID for RoCEv1 and IB with a GRH, the LRH's SLID and
 * DLID otherwise), the destination QP, the PSN, the opcode and the ICRC. The
 * ICRC masks what switches rewrite (TTL or hop limit, DSCP, ECN, checksums,
 * the flow label), so it stays the same from hop to hop and tells apart
 * packets whose headers agree. A packet without its ICRC captured (cut by
 * the snapshot length) or without a BTH is not matched (counted apart).
 *
 * The caller feeds both taps merged in time order (B's timestamps already
 * corrected by the clock offset). A packet is looked up among the other
 * tap's pending packets of the same identity (the oldest first: a resend
 * with the same bytes matches first-in-first-out); without one it waits.
 * Once the merged clock passes its time plus the window it is settled as
 * seen in one tap only. Memory is a FIFO of the packets within the window
 * and a hash table over it, grown by doubling (no allocation per packet
 * once it has grown to the window), up to max_pending: beyond it the
 * oldest is settled early and counted (window_overflow). Time is linear.
 *
 * Direction is known only from matched packets: one seen first in A went
 * A -> B. Each (source, destination) pair takes the direction of most of
 * its matched packets; rw_between_finish() then classifies the unmatched:
 * of an A -> B pair, seen only in A is lost, only in B is only_in_b
 * (duplicates, injected frames); of a B -> A pair, only in B is lost and
 * only in A is only_in_a; of a pair with no matched packet, unknown.
 *
 * Delays: d = B's time - A's time of every matched packet, kept per flow
 * (exact minimum and maximum, percentiles from a histogram whose value is
 * within RW_BETWEEN_HIST_REL_ERR of the true one, or exact below 128 ns).
 * A -> B flows report d (delay_ns), B -> A flows -d (reverse_delay_ns). */
#ifndef ROCEWIRE_BETWEEN_H
#define ROCEWIRE_BETWEEN_H

#include <stddef.h>
#include <stdint.h>
#include "rocewire/packet.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RW_BETWEEN_A 0
#define RW_BETWEEN_B 1

/* 10 ms: far above a fabric's one-way delays, PFC pauses included, and
 * below the retransmission timeouts RC flows use (the IBA's 4.096 us x
 * 2^timeout, 67 ms at the usual 14): a packet lost between the taps is
 * settled before its resend, with the same bytes, could arrive and be
 * taken for its twin. It also bounds memory at line rate. */
#define RW_BETWEEN_DEFAULT_WINDOW_NS 10000000ull
/* The --estimate-offset pass's window at least: unsynchronised clocks. */
#define RW_BETWEEN_ESTIMATE_WINDOW_NS 1000000000ull
#define RW_BETWEEN_DEFAULT_LIST_CAP 100000u
#define RW_BETWEEN_DEFAULT_MAX_PENDING (1u << 23)
#define RW_BETWEEN_DEFAULT_MAX_FLOWS (1u << 20)
/* Half a histogram bucket over the smallest value it holds: 2^-8. */
#define RW_BETWEEN_HIST_REL_ERR 0.00390625

/* Kinds of carrier address (struct rw_between_addr.kind). */
enum rw_between_addr_kind {
	RW_BA_IPV4 = 1, /* a[12..15], host order bytes as on the wire */
	RW_BA_IPV6,     /* a[0..15]: an IPv6 address or a GID */
	RW_BA_LID,      /* a[14..15]: a LID, big-endian */
};

struct rw_between_addr {
	uint8_t kind;
	uint8_t a[16];
};

enum rw_between_dir {
	RW_BETWEEN_DIR_UNKNOWN = 0,
	RW_BETWEEN_DIR_A_TO_B,
	RW_BETWEEN_DIR_B_TO_A,
};

/* What became of an unmatched packet (struct rw_between_unmatched.what). */
enum rw_between_fate {
	RW_BETWEEN_LOST = 0,        /* the pair's upstream tap saw it, the downstream did not */
	RW_BETWEEN_ONLY_IN_B,       /* an A -> B pair's packet seen in B only */
	RW_BETWEEN_ONLY_IN_A,       /* a B -> A pair's packet seen in A only */
	RW_BETWEEN_UNKNOWN_DIR,     /* its pair has no matched packet */
};

/* Fields the path changed (counts of matched packets). */
enum rw_between_change {
	RW_BC_TTL = 0, /* IPv4 TTL, IPv6 hop limit, GRH hop limit */
	RW_BC_DSCP,
	RW_BC_ECN,
	RW_BC_VLAN,    /* the outermost tag's presence, VID or PCP */
	RW_BC_MAC,     /* the source or destination MAC */
	RW_BC_COUNT,
};

struct rw_between_cfg {
	uint64_t window_ns;     /* 0: RW_BETWEEN_DEFAULT_WINDOW_NS */
	uint32_t list_cap;      /* packets kept per list (lost, only in A, only in B); 0: default */
	uint32_t max_pending;   /* packets waiting at most; 0: default */
	uint32_t max_flows;     /* flows tracked at most; 0: default */
};

/* A signed histogram of nanoseconds: exact below 128 ns, then 128 buckets
 * per power of two, allocated a power of two at a time when first used. */
#define RW_BH_OCT 57
#define RW_BH_SUB 128
struct rw_between_hist {
	uint64_t n;
	int64_t min, max;               /* exact */
	uint64_t *pos[RW_BH_OCT];       /* d >= 0 */
	uint64_t *neg[RW_BH_OCT];       /* d < 0, by |d| */
};

struct rw_between_delay {
	uint64_t n;
	int64_t min, p50, p99, max;
};

struct rw_between_flow {
	struct rw_between_addr src, dst;
	uint32_t dqpn;
	enum rw_between_dir dir;        /* the pair's, after rw_between_finish() */
	uint64_t packets[2];            /* seen in A, in B (with an identity) */
	uint64_t matched;
	uint64_t first[2];              /* matched packets seen first in A, in B */
	uint64_t unmatched[2];          /* settled unmatched, seen in A only, B only */
	uint64_t ce_marked;             /* not CE at the first tap, CE at the second */
	uint64_t changed[RW_BC_COUNT];
	uint64_t reordered;
	uint64_t max_ord[2];            /* reordering: see between.c */
	uint64_t ord[2];                /* packets of the flow seen so far per tap */
	struct rw_between_hist d;       /* B's time - A's time of the matched */
};

/* One packet seen in one tap only. */
struct rw_between_unmatched {
	uint32_t flow;                  /* index into the flows */
	uint32_t psn;
	uint8_t opcode;
	uint8_t side;                   /* RW_BETWEEN_A or _B: where it was seen */
	uint64_t frame;
	int64_t ts_ns;
};

struct rw_between_result {
	uint64_t matched;
	uint64_t lost_count;
	uint64_t only_in_b, only_in_a, unknown_dir;
	uint64_t ce_marked;
	uint64_t changed[RW_BC_COUNT];
	uint64_t reordered;
	uint64_t window_overflow;       /* settled early: max_pending reached */
	uint64_t untracked;             /* packets of flows beyond max_flows */
	struct rw_between_delay delay;  /* A -> B flows: d */
	struct rw_between_delay reverse;/* B -> A flows: -d */
	int64_t min_ab, min_ba;         /* exact minima of the delays above (valid when n > 0) */
};

struct rw_between;

/* One packet's outcome as the matcher decides it, for an observer that
 * keeps its own (bounded) record, e.g. the HTML page's plots: a match the
 * moment the second copy arrives, an unmatched packet the moment it is
 * settled (its window over, the pending cap reached, or finish). Events
 * come in the merged clock's order of those moments, not of the packets'
 * times. Direction is decided only at finish, so an unmatched packet says
 * where it was seen, not whether it was lost. */
struct rw_between_event {
	uint32_t flow;                  /* index into the flows (stable from the first packet) */
	uint32_t psn;
	uint8_t opcode;
	uint8_t matched;                /* 1: seen in both taps; 0: settled unmatched */
	uint8_t side;                   /* matched: the tap that saw it first; else where seen */
	uint8_t ce_marked;              /* matched: not CE at the first tap, CE at the second */
	int64_t ts[2];                  /* merged-clock times at A, at B (unmatched: only ts[side]) */
	uint64_t frame[2];              /* frame numbers in A, in B (unmatched: only frame[side]) */
};

typedef void (*rw_between_observer)(void *ctx, const struct rw_between_event *ev);

/* NULL when out of memory. cfg may be NULL for the defaults. */
struct rw_between *rw_between_new(const struct rw_between_cfg *cfg);
void rw_between_free(struct rw_between *b);

/* Calls fn(ctx, event) for every match and every settled unmatched packet
 * from now on (NULL: none, the default; the feed then costs one branch
 * more per outcome). fn must not call back into b. */
void rw_between_observe(struct rw_between *b, rw_between_observer fn, void *ctx);

/* Feeds one decoded packet of tap side (RW_BETWEEN_A or _B) at ts_ns on the
 * merged clock; frame is its number in its file (increasing per tap: a
 * waiting packet keeps it relative to its tap's newest). Returns 1 when the packet
 * took part (it has a BTH and a captured ICRC), 0 when it has no identity
 * and was ignored, -1 when memory ran out (the packet is lost to the
 * comparison; rw_between_error() says so). Times must not decrease. */
int rw_between_feed(struct rw_between *b, int side, const struct rw_packet *p, int64_t ts_ns,
		    uint64_t frame);

/* Optional, for speed: announces a packet of tap side that will be fed
 * later, as soon as it is decoded (a caller merging two taps decodes a few
 * packets of each tap ahead). Its flow and hash are found now and its
 * place in the index fetched into the cache while other packets are
 * matched; rw_between_feed() of that packet then reuses them. Up to
 * RW_BETWEEN_PREPARE_MAX packets per side, announced in the order they
 * will be fed, each left unchanged until fed (a packet is known by its
 * address). Feeding another one, or announcing more, only costs the work
 * done ahead: the feed then finds flow and hash itself. */
#define RW_BETWEEN_PREPARE_MAX 4
void rw_between_prepare(struct rw_between *b, int side, const struct rw_packet *p);

/* Settles every packet still waiting, gives each pair its direction and
 * fills *r. Call once, after the last packet. */
void rw_between_finish(struct rw_between *b, struct rw_between_result *r);

/* The flows, in the order of their first packet (valid after finish). */
size_t rw_between_flow_count(const struct rw_between *b);
const struct rw_between_flow *rw_between_flow_at(const struct rw_between *b, size_t i);
/* A flow's delays in its direction's sense (d, or -d for B -> A). */
void rw_between_flow_delay(const struct rw_between_flow *f, struct rw_between_delay *out);

/* The unmatched packets of one fate, in the order they were settled (A's
 * first, then B's; valid after finish): the first list_cap of each fate
 * (fewer when a tap's own store of list_cap * 2 filled first: len below
 * total says the list is cut); total is the exact count. */
size_t rw_between_list_len(const struct rw_between *b, enum rw_between_fate fate);
const struct rw_between_unmatched *rw_between_list_get(const struct rw_between *b,
							enum rw_between_fate fate, size_t i);
uint64_t rw_between_list_total(const struct rw_between *b, enum rw_between_fate fate);

/* NTP's estimate of B's clock minus A's from both directions' minimum
 * delays, (min A->B - min B->A) / 2; 0 when either has no packet (*ok 0). */
int64_t rw_between_offset_estimate(const struct rw_between_result *r, int *ok);

/* A histogram's value at quantile q (0 < q <= 1, nearest rank), within
 * RW_BETWEEN_HIST_REL_ERR, clamped to its exact min and max. */
int64_t rw_between_hist_quantile(const struct rw_between_hist *h, double q);
/* Adds one value; -1 when a bucket block could not be allocated. */
int rw_between_hist_add(struct rw_between_hist *h, int64_t v);
/* Adds src's counts to dst, negated when flip is set; -1: out of memory. */
int rw_between_hist_merge(struct rw_between_hist *dst, const struct rw_between_hist *src, int flip);
void rw_between_hist_free(struct rw_between_hist *h);

/* NULL, or one sentence about the last failure (out of memory). */
const char *rw_between_error(const struct rw_between *b);

const char *rw_between_dir_name(enum rw_between_dir d); /* "a_to_b", "b_to_a", "unknown" */
const char *rw_between_change_name(enum rw_between_change c); /* "ttl", "dscp", ... */

#ifdef __cplusplus
}
#endif

#endif
