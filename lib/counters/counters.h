/* SPDX-License-Identifier: BSD-3-Clause */
/* NIC counter snapshots: reading them in the forms people save them in, and
 * knowing what each vendor's counter counts, so that the report can set a
 * counter's change beside what the capture saw of the same thing.
 *
 * Snapshot forms (one per file, recognised from its lines):
 *  - sysfs:   `grep . /sys/class/infiniband/DEV/ports/N/hw_counters/ *`,
 *             PATH:VALUE lines; the counter is the path's last component;
 *  - plain:   NAME VALUE lines (the last field is the value, so a name may
 *             hold spaces, as irdma's "RNR sent" does);
 *  - ethtool: `ethtool -S IFACE`, "NIC statistics:" then "  name: value";
 *  - rdma:    `rdma statistic show`, "link DEV/PORT name value name value
 *             ..." (a line per link; lines that start with blanks carry on
 *             the link before). Several links are summed, and named.
 *
 * The vendor tables say, for every counter the library knows, which figure
 * of the capture counts the same event (enum rw_ctr_what), or why none can
 * (RW_CTR_NONE with a reason). No wire bytes are read here: the report
 * computes the figures from the analysis engine.
 *
 * Errors come back as one line (with the file and line) in the caller's
 * buffer; nothing here prints or exits. */
#ifndef ROCEWIRE_COUNTERS_H
#define ROCEWIRE_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum rw_ctr_format { RW_CTR_FMT_SYSFS = 0, RW_CTR_FMT_PLAIN, RW_CTR_FMT_ETHTOOL, RW_CTR_FMT_RDMA, RW_CTR_FMT_COUNT };
const char *rw_ctr_format_key(enum rw_ctr_format f); /* "sysfs", "plain", "ethtool", "rdma" */

enum rw_ctr_vendor { RW_CTR_UNKNOWN = 0, RW_CTR_MLX5, RW_CTR_IRDMA, RW_CTR_BNXT_RE, RW_CTR_RXE, RW_CTR_VENDORS };
const char *rw_ctr_vendor_key(enum rw_ctr_vendor v); /* "unknown", "mlx5", "irdma", "bnxt_re", "rxe" */

/* The capture figure a counter is set beside, always about one host (the
 * report's chosen address) unless said otherwise. */
enum rw_ctr_what {
	RW_CTR_NONE = 0,       /* mapped, but the wire cannot tell (rw_ctr_map.why) */
	RW_CTR_PKTS_SENT,      /* RoCE/IB transport packets the host sent (CNPs, ACKs, MADs included) */
	RW_CTR_PKTS_RCVD,      /* packets sent to the host */
	RW_CTR_PKTS_RCVD_GOOD, /* packets sent to the host whose ICRC is good (or was not captured) */
	RW_CTR_CE_RCVD,        /* packets sent to the host marked CE (ECN 3) */
	RW_CTR_CNP_SENT,       /* CNPs the host sent */
	RW_CTR_CNP_RCVD,       /* CNPs sent to the host */
	RW_CTR_SEQ_NAK_SENT,   /* PSN-sequence-error NAKs the host sent (as a responder) */
	RW_CTR_SEQ_NAK_RCVD,   /* PSN-sequence-error NAKs sent to the host (as a requester) */
	/* those of them whose PSN is past every PSN the requester had had
	 * answered (each response moves it to its PSN + 1, each NAK to its
	 * PSN; at first, the requests' first PSN): the NAKs that move the
	 * requester's PSN on */
	RW_CTR_SEQ_NAK_RCVD_ADV,
	RW_CTR_RNR_NAK_SENT,   /* RNR NAKs the host sent */
	RW_CTR_RNR_NAK_RCVD,   /* RNR NAKs sent to the host */
	RW_CTR_ICRC_BAD_RCVD,  /* packets sent to the host with a bad ICRC */
	RW_CTR_TIMEOUT_RESENDS,/* go-back-N runs of the host's requests no NAK asked for (the engine's inference) */
	RW_CTR_PFC_RX,         /* PFC frames with the map's priority enabled (8: 802.3x PAUSE), every sender: scope the link */
	RW_CTR_WHAT_COUNT
};
const char *rw_ctr_what_key(enum rw_ctr_what w); /* "pkts_sent", ... */

struct rw_ctr_map {
	const char *name;  /* the counter's name as the driver spells it */
	uint8_t what;      /* enum rw_ctr_what */
	uint8_t prio;      /* RW_CTR_PFC_RX: 0..7, 8 for 802.3x PAUSE */
	const char *why;   /* RW_CTR_NONE: why the capture has no figure; else a note or NULL */
};

/* The vendor's row for name, or NULL when the table does not have it. */
const struct rw_ctr_map *rw_ctr_lookup(enum rw_ctr_vendor v, const char *name);

#define RW_CTR_NAME_MAX 64
struct rw_ctr_value {
	char name[RW_CTR_NAME_MAX];
	uint64_t value;
};

struct rw_ctr_snapshot {
	enum rw_ctr_format format;
	size_t n, cap;
	struct rw_ctr_value *v;   /* in file order, one per name (links summed) */
	char links[128];          /* rdma: the links read, "rxe0/1,rxe1/1"; "" otherwise */
};

/* Parses text (len bytes, need not end in NUL) into s (zeroed by the
 * caller or freed before). Returns 0, or -1 with one line in err naming
 * `where` (a file name) and the line. */
int rw_ctr_parse(const char *text, size_t len, const char *where, struct rw_ctr_snapshot *s,
		 char *err, size_t errn);
/* Reads and parses a file (shown as `shown` in messages). */
int rw_ctr_load(const char *path, const char *shown, struct rw_ctr_snapshot *s, char *err, size_t errn);
void rw_ctr_free(struct rw_ctr_snapshot *s);
/* The counter of that name, or NULL when the snapshot has none. */
const struct rw_ctr_value *rw_ctr_find(const struct rw_ctr_snapshot *s, const char *name);

/* The vendor whose table knows most of the names of both snapshots;
 * RW_CTR_UNKNOWN when no table knows any. */
enum rw_ctr_vendor rw_ctr_detect(const struct rw_ctr_snapshot *before, const struct rw_ctr_snapshot *after);

/* One counter's change between two snapshots. */
enum rw_ctr_delta_state {
	RW_CTR_D_OK = 0,
	RW_CTR_D_ONLY_BEFORE, /* absent from the after snapshot */
	RW_CTR_D_ONLY_AFTER,  /* absent from the before snapshot */
	RW_CTR_D_BACKWARDS,   /* after < before: reset or wrapped */
};
struct rw_ctr_delta {
	const char *name;     /* points into a snapshot */
	uint64_t before, after, delta;
	uint8_t state;        /* enum rw_ctr_delta_state */
};
/* The changes of every name of either snapshot (before's order, then
 * after's new names), in a block the caller frees; NULL with *n 0 on no
 * memory (errno ENOMEM) or when both are empty. */
struct rw_ctr_delta *rw_ctr_diff(const struct rw_ctr_snapshot *before, const struct rw_ctr_snapshot *after,
				 size_t *n);
const char *rw_ctr_delta_why(enum rw_ctr_delta_state st); /* a reason phrase, NULL for OK */

/* What --counters-before/--counters-after hand the report: both snapshots,
 * their names, the detected vendor and the address asked for (NULL: the
 * busiest host). */
struct rw_ctr_input {
	const char *before_name, *after_name;
	struct rw_ctr_snapshot before, after;
	enum rw_ctr_vendor vendor;
	const char *host;
};

#ifdef __cplusplus
}
#endif

#endif
