/* SPDX-License-Identifier: BSD-3-Clause */
/* Congestion models for the generator (issue 10): the three DCQCN roles of
 * Zhu et al., SIGCOMM 2015, and the simulated bottleneck they act on.
 *
 *   reaction point   cc_rp_*   (cc_dcqcn.c)  per QP at the sender: the rate
 *   notification pt  cc_np_*   (cc_np.c)     at the receiver: CE -> CNP pacing
 *   congestion point cc_sw_*   (cc_switch.c) one switch egress port: queues,
 *                                            RED/ECN, PFC, drops
 *
 * Plain C on a virtual clock (nanoseconds), no DPDK types, so the flow model,
 * a real port's RX path and the unit tests drive the same code. Nothing here
 * reads a clock or sends a frame: callers pass the time in and get back what
 * changed and when. Times passed to one object must not go backwards.
 * README-congestion.md describes the models, their parameters and presets. */
#ifndef RWGEN_CC_H
#define RWGEN_CC_H

#include <stddef.h>
#include <stdint.h>

#define CC_NEVER UINT64_MAX

/* ---- reaction point (DCQCN) ------------------------------------------ */

struct cc_dcqcn_params {
	double g;                   /* alpha gain: alpha = (1-g)alpha + g on a cut */
	double alpha_init;          /* alpha before the first cut */
	uint64_t alpha_period_ns;   /* K: alpha = (1-g)alpha every K without a cut */
	uint64_t timer_ns;          /* T: one rate increase event per T without a cut */
	uint64_t byte_counter;      /* B: one rate increase event per B bytes sent (0: off) */
	uint32_t fast_recovery;     /* F: increase events (per counter) of fast recovery */
	double rai_bps;             /* R_AI: additive increase of the target rate */
	double rhai_bps;            /* R_HAI: hyper increase step (times i) */
	double rmin_bps;            /* the rate never falls below this */
	double min_dec_factor;      /* 0..1: one cut keeps at least this share of Rc
				     * (NVIDIA rpg_min_dec_fac / 100; 0: no floor) */
	uint64_t reduce_period_ns;  /* at most one cut per period; CNPs inside it are
				     * folded into one cut at its end (0: every CNP cuts) */
};

/* Fills *p with a named preset: "paper" or "mlx5". -1 for another name. */
int cc_dcqcn_preset(const char *name, struct cc_dcqcn_params *p);

/* One QP's reaction point. Plain data: the caller owns it (an array of them
 * per flow model), nothing is allocated. */
struct cc_rp {
	struct cc_dcqcn_params p;
	double rmax;            /* line or offered rate: Rc and Rt never exceed it */
	double rc, rt, alpha;
	uint32_t tc, bc;        /* timer and byte-counter events since the last cut */
	uint64_t bytes;         /* bytes sent towards the next byte-counter event */
	uint64_t now;           /* events up to here are processed */
	uint64_t t_alpha;       /* next alpha decay (CC_NEVER before the first cut) */
	uint64_t t_rate;        /* next timer increase (CC_NEVER when at rest) */
	uint64_t t_cut;         /* a folded cut due (CC_NEVER: none) */
	uint64_t last_cut;      /* CC_NEVER before the first cut */
	uint8_t active;         /* a cut happened: counters and alpha timer run */
	/* counters for reports and tests */
	uint64_t cnps, cuts, increases[3]; /* [0] fast recovery, [1] additive, [2] hyper */
};

enum cc_rp_stage { CC_RP_FAST_RECOVERY, CC_RP_ADDITIVE, CC_RP_HYPER };

void cc_rp_init(struct cc_rp *rp, const struct cc_dcqcn_params *p, double line_bps, uint64_t now);
/* Processes every timer event due at or before now, in time order (at one
 * instant: alpha decay, then the rate timer, then a folded cut). */
void cc_rp_advance(struct cc_rp *rp, uint64_t now);
/* A CNP for this QP arrives at now (timers due at now fire first). */
void cc_rp_on_cnp(struct cc_rp *rp, uint64_t now);
/* The QP sent bytes at now (feeds the byte counter). */
void cc_rp_on_sent(struct cc_rp *rp, uint64_t bytes, uint64_t now);
/* The next time the rate can change without a call from the caller
 * (CC_NEVER: at rest until the next CNP or bytes sent). Alpha decay is not
 * reported: it changes nothing visible until the next cut, and
 * cc_rp_advance() applies every due decay before that cut. */
static inline uint64_t cc_rp_next_event(const struct cc_rp *rp)
{
	return rp->t_rate < rp->t_cut ? rp->t_rate : rp->t_cut;
}
static inline double cc_rp_rate(const struct cc_rp *rp)
{
	return rp->rc;
}
/* cc_rp_on_sent(), with its common case inline (called for every request
 * a congestion flow sends): no timer due by now, the byte counter not
 * filled. */
static inline void cc_rp_sent(struct cc_rp *rp, uint64_t bytes, uint64_t now)
{
	uint64_t due = rp->t_alpha < rp->t_rate ? rp->t_alpha : rp->t_rate;
	int counting = rp->active && rp->p.byte_counter;
	if (rp->t_cut < due)
		due = rp->t_cut;
	if (now >= rp->now && now < due && (!counting || rp->bytes + bytes < rp->p.byte_counter)) {
		rp->now = now;
		if (counting)
			rp->bytes += bytes;
		return;
	}
	cc_rp_on_sent(rp, bytes, now);
}
/* A new offered rate (Rc and Rt are clamped to it). */
void cc_rp_set_max(struct cc_rp *rp, double bps, uint64_t now);

/* ---- notification point (CNP pacing) ---------------------------------- */

/* What one pacing interval counts for, from the CE-marked packet's view. */
enum cc_np_mode {
	CC_NP_PER_QP,       /* (source IP, destination IP, destination QPN) */
	CC_NP_PER_IP_PAIR,  /* (source IP, destination IP) */
	CC_NP_PER_DEST_IP,  /* the CNP's destination: the CE packet's source IP */
};
#define CC_NP_MODES (CC_NP_PER_DEST_IP + 1) /* name tables are asserted against it */

enum cc_np_behaviour {
	CC_NP_COMPLIANT,    /* at most one CNP per key per interval_ns */
	CC_NP_EVERY_CE,     /* misbehaving: a CNP for every CE-marked packet */
	CC_NP_FAST,         /* misbehaving: paces at fast_interval_ns while the
			     * analyser is told interval_ns */
};
#define CC_NP_BEHAVIOURS (CC_NP_FAST + 1)

struct cc_np_params {
	enum cc_np_mode mode;
	enum cc_np_behaviour behaviour;
	uint64_t interval_ns;       /* the announced minimum time between CNPs of a key */
	uint64_t fast_interval_ns;  /* CC_NP_FAST only */
	uint8_t defer;              /* 1: a CE inside the interval owes a CNP at its
				     * end (the paper); 0: it is dropped (NVIDIA) */
	uint32_t max_keys;          /* keys tracked at once; memory is sized by it */
};

int cc_np_preset(const char *name, struct cc_np_params *p);

/* Addresses of the CE-marked packet; IPv4 as ::ffff:a.b.c.d. */
struct cc_np_key {
	uint8_t src[16], dst[16];
	uint32_t qpn;           /* the BTH destination QP of the CE-marked packet */
};

enum cc_np_verdict {
	CC_NP_SUPPRESS,         /* no CNP for this CE */
	CC_NP_SEND,             /* send a CNP now */
	CC_NP_DEFER,            /* one CNP is owed at *due_ns: call cc_np_fire() then */
};

struct cc_np_stats {
	uint64_t ce, cnps, suppressed, deferred;
	uint64_t evicted_live;  /* keys forgotten inside their interval (table full) */
};

struct cc_np;
/* Allocates the key table once (cc_np_mem_bytes()); NULL on failure. */
struct cc_np *cc_np_new(const struct cc_np_params *p);
void cc_np_free(struct cc_np *np);
size_t cc_np_mem_bytes(const struct cc_np *np);
enum cc_np_verdict cc_np_on_ce(struct cc_np *np, const struct cc_np_key *k, uint64_t now,
			       uint64_t *due_ns);
/* A deferred CNP's time came: 1 to send it now, 0 if it is no longer owed
 * (its key was evicted). */
int cc_np_fire(struct cc_np *np, const struct cc_np_key *k, uint64_t now);
const struct cc_np_stats *cc_np_stats(const struct cc_np *np);

/* ---- congestion point: one switch egress port ------------------------- */

#define CC_SW_PRIOS 8

enum cc_sw_sched {
	CC_SW_STRICT,       /* highest PCP first */
	CC_SW_ROUND_ROBIN,  /* one packet per non-empty, unpaused priority in turn */
};
#define CC_SW_SCHEDS (CC_SW_ROUND_ROBIN + 1)

struct cc_sw_prio {
	uint8_t lossless;       /* PFC on this priority: never dropped, XOFF/XON upstream */
	uint8_t ecn;            /* RED/ECN marking of ECT packets */
	uint64_t kmin, kmax;    /* bytes of this priority's queue */
	double pmax;            /* marking probability at kmax */
	uint64_t xoff, xon;     /* bytes: XOFF at or above xoff, XON at or below xon */
};

struct cc_sw_params {
	double link_bps;
	uint64_t buffer;            /* shared buffer in bytes (lossy admission) */
	uint8_t nprio;              /* priorities in use: 0..nprio-1 */
	enum cc_sw_sched sched;
	struct cc_sw_prio prio[CC_SW_PRIOS];
	uint16_t pause_quanta;      /* XOFF pause time (0: the time to drain xoff to xon) */
	uint64_t refresh_ns;        /* XOFF refresh while above xon (0: half the pause) */
	uint64_t response_ns;       /* a compliant sender stops this long after XOFF */
	uint64_t storm_refresh_ns;  /* a stuck receiver's XOFF period (0: half of 0xFFFF) */
	uint32_t max_packets;       /* descriptors (0: 2 * buffer / 64 + 1024) */
	uint64_t seed;              /* marking PRNG */
};

/* Defaults: the paper's marking (Kmin 5 KB, Kmax 200 KB, Pmax 1 %) on every
 * priority, lossy, strict priority, pause 0xFFFF. */
void cc_sw_defaults(struct cc_sw_params *p, double link_bps, uint64_t buffer, uint8_t nprio);

enum cc_sw_result { CC_SW_QUEUED, CC_SW_DROPPED };

struct cc_sw_verdict {
	enum cc_sw_result result;
	uint8_t ce;              /* marked CE (the packet was ECT) */
	uint8_t xoff;            /* this packet made the port send XOFF upstream */
	uint8_t while_paused;    /* sent by a sender this port had paused */
	uint64_t qlen;           /* the priority's queue in bytes before this packet */
	uint64_t next_ns;        /* cc_sw_next_event() after it */
	uint8_t pfc;             /* PFC frames wait in cc_sw_pfc_events() */
	/* with cc_sw_early_departures(): when it starts and finishes leaving */
	uint64_t t_start_ns, t_dep_ns;
};

struct cc_sw_departure {
	uint64_t t_ns;           /* its last bit has left */
	uint64_t t_start_ns;     /* its first bit left */
	uint64_t cookie;
	uint32_t bytes;
	uint8_t prio, ce;
};

enum cc_sw_pfc_dir {
	CC_SW_PFC_UPSTREAM,      /* this port to the senders */
	CC_SW_PFC_DOWNSTREAM,    /* the receiver behind this port to it (storms) */
};

/* One PFC frame (802.1Qbb): quanta[p] for each enabled p; 0 resumes. */
struct cc_sw_pfc {
	uint64_t t_ns;
	uint8_t dir;             /* enum cc_sw_pfc_dir */
	uint16_t cev;
	uint16_t quanta[CC_SW_PRIOS];
};

struct cc_sw_prio_stats {
	uint64_t packets, bytes, marked, dropped, dropped_bytes, departed;
	uint64_t xoff, xon;            /* PFC frames sent upstream (refreshes count in xoff) */
	uint64_t paused_ns;            /* upstream: from the first XOFF to its XON */
	uint64_t sent_while_paused;    /* arrivals the senders should have held */
	uint64_t egress_paused_ns;     /* this port held by the downstream receiver */
	uint64_t max_qlen;
	uint64_t headroom;             /* most bytes of this lossless queue above the buffer */
};

struct cc_sw_qlen {
	uint64_t t_ns;
	uint64_t total;
	uint64_t bytes[CC_SW_PRIOS];
};

struct cc_sw;
struct cc_sw *cc_sw_new(const struct cc_sw_params *p);
void cc_sw_free(struct cc_sw *sw);
/* A packet arrives at now. Departures happen in cc_sw_poll() (or are told
 * at once: cc_sw_early_departures()). */
struct cc_sw_verdict cc_sw_enqueue(struct cc_sw *sw, uint64_t now, uint8_t prio, uint32_t bytes,
				   int ect, uint64_t cookie);
/* cc_sw_enqueue() for a port with early departures, in its common case (no
 * XOFF on, a class that is not lossless, no drop): fills *v as
 * cc_sw_enqueue() would and returns 1; otherwise changes nothing that
 * matters and returns 0, and the caller calls cc_sw_enqueue(). */
int cc_sw_enqueue_early(struct cc_sw *sw, uint64_t now, uint8_t prio, uint32_t bytes, int ect,
			struct cc_sw_verdict *v);
/* Early departures: the caller promises that the port is one FIFO for
 * the rest of the run (one priority in use, no storm, no PFC from the
 * receiver), so that a packet's departure is fixed the moment it arrives.
 * cc_sw_enqueue() then gives it (t_start_ns, t_dep_ns), cc_sw_poll() returns
 * no departures, and cc_sw_next_event() names a departure only while an
 * XOFF is on (the XON waits for one). The caller acts on each departure
 * when the packet arrives instead of waking at every one: the simulated
 * port's cost per packet is then its enqueue alone. */
/* Call it before the first packet: 0, or -1 (after a packet, or out of
 * memory) with the port left as it was. */
int cc_sw_early_departures(struct cc_sw *sw);
/* Runs the port up to now and returns up to n departures in time order (call
 * again while it returns n). Departed packets hold a descriptor until polled. */
uint32_t cc_sw_poll(struct cc_sw *sw, uint64_t now, struct cc_sw_departure *out, uint32_t n);
/* PFC frames emitted so far (both directions), oldest first. */
uint32_t cc_sw_pfc_events(struct cc_sw *sw, struct cc_sw_pfc *out, uint32_t n);
/* The next time something happens inside the port (a departure, a pause
 * ending, a refresh); CC_NEVER when idle. */
uint64_t cc_sw_next_event(const struct cc_sw *sw);
/* A PFC frame from the receiver behind the port reaches it at now. */
void cc_sw_rx_pfc(struct cc_sw *sw, uint64_t now, uint16_t cev, const uint16_t quanta[CC_SW_PRIOS]);
/* A stuck receiver: XOFF for prio refreshed from now for duration_ns, then XON. */
void cc_sw_storm(struct cc_sw *sw, uint64_t now, uint8_t prio, uint64_t duration_ns);
/* Queue lengths at now (runs the port up to now first). */
void cc_sw_sample(struct cc_sw *sw, uint64_t now, struct cc_sw_qlen *out);
/* Counters of one priority; stretches of pause still open count up to the
 * time the port has run to. */
const struct cc_sw_prio_stats *cc_sw_stats(struct cc_sw *sw, uint8_t prio);
uint64_t cc_sw_pfc_lost(const struct cc_sw *sw); /* events the ring had no room for */

/* 802.1Qbb / 802.3 31B: one quantum is 512 bit times. Picoseconds, because a
 * 100 Gb/s quantum is 5.12 ns. */
uint64_t cc_pfc_quanta_ps(uint32_t quanta, double link_bps);
/* The quanta that cover ns at the link rate (rounded up, at most 0xFFFF). */
uint16_t cc_pfc_quanta_for_ns(uint64_t ns, double link_bps);

/* HPCC-style ideal completion time: the message alone on the bottleneck plus
 * the base RTT. Each of ceil(bytes / mtu) packets carries overhead bytes of
 * headers (mtu 0: one packet, no overhead). Rounded to the nearest ns. */
uint64_t cc_ideal_fct_ns(uint64_t bytes, uint32_t mtu, uint32_t overhead, double bottleneck_bps,
			 uint64_t base_rtt_ns);

#endif
