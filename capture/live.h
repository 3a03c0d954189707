/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-cap's live sources: a network interface (libpcap), an RDMA
 * device's sniffer flows (rdma:), a DPDK port (dpdk:) -- one ops table each,
 * chosen by the prefix of -i in live.c -- and the capture filters. */
#ifndef ROCEWIRE_CAP_LIVE_H
#define ROCEWIRE_CAP_LIVE_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "source.h"
#include "writer.h"

struct cap_opts;
struct cap_ctx;

/* ---- live sources (live.c: the table; source_pcap.c, source_rdma.c,
 * source_dpdk.c: one each) ---------------------------------------------- */

typedef void (*cap_live_fn)(void *arg, const struct cap_record *r);

struct cap_rdma;
struct cap_dpdk;
struct cap_live;

/* What a live source does, chosen by the prefix of -i (live.c). Optional
 * members are NULL where the source has nothing to do. */
struct cap_live_ops {
	const char *prefix;     /* "rdma:", "dpdk:"; "" for a network interface */
	/* arg: -i after the prefix. 0, or -1 with l->err and l->err_status. */
	int (*open)(struct cap_live *l, const char *arg, const struct cap_opts *o);
	int (*dispatch)(struct cap_live *l, int timeout_ms, cap_live_fn fn, void *arg);
	int (*drain)(struct cap_live *l, cap_live_fn fn, void *arg);      /* optional */
	void (*breakloop)(struct cap_live *l);  /* optional: beyond l->stop */
	void (*update_drops)(struct cap_live *l);
	void (*close)(struct cap_live *l);
	int (*list)(FILE *out, int first);      /* -D: its devices from number first; how many */
	/* --rx-queues (dpdk:): a file per queue, below; optional */
	int (*multi)(const struct cap_live *l);
	int (*queues_start)(struct cap_live *l, const struct cap_opts *o, const struct cap_ctx *c);
	int (*queues_finish)(struct cap_live *l, struct cap_ctx *c, const char *shown);
	void (*summary)(const struct cap_live *l, const char *shown); /* optional closing line */
};

extern const struct cap_live_ops cap_live_pcap_ops, cap_live_rdma_ops, cap_live_dpdk_ops;

struct cap_live {
	const char *name;       /* as given to -i */
	const struct cap_live_ops *ops;
	pcap_t *pcap;           /* network interfaces */
	struct cap_rdma *rdma;  /* rdma:DEVICE */
	struct cap_dpdk *dpdk;  /* dpdk:EAL-OPTIONS (source_dpdk.c) */
	int fd;                 /* what to poll() */
	int linktype;
	int nano;               /* timestamps have nanosecond resolution */
	uint32_t snaplen;
	struct bpf_program prog; /* the compiled filter */
	int has_prog;
	int user_filter;        /* prog is run here, not in the kernel (RDMA) */
	char filter_desc[160];  /* for the "listening" line */
	uint64_t index;         /* packets delivered */
	uint64_t ring_bytes;    /* the kernel ring's size (network interfaces) */
	volatile sig_atomic_t stop; /* set by cap_live_breakloop */
	/* pcap_stats counters are 32-bit and wrap: accumulated from deltas */
	struct cap_drops drops;
	uint32_t last_recv, last_drop, last_ifdrop;
	char err[768];
	int err_status;
};

/* Picks the source by -i's prefix and opens it: 0, or -1 with l->err (one
 * line naming the interface) and l->err_status. */
int cap_live_open(struct cap_live *l, const struct cap_opts *o);
/* --rx-queues's files (dpdk:), the closing line: what the source has. */
int cap_live_multi(const struct cap_live *l);
int cap_live_queues_start(struct cap_live *l, const struct cap_opts *o, const struct cap_ctx *c);
int cap_live_queues_finish(struct cap_live *l, struct cap_ctx *c, const char *shown);
void cap_live_summary(const struct cap_live *l, const char *shown);
/* Waits at most timeout_ms for packets and hands each one to fn; returns
 * how many, or -1 with l->err when the capture failed (interface gone). */
int cap_live_dispatch(struct cap_live *l, int timeout_ms, cap_live_fn fn, void *arg);
/* At the end of a capture: the packets still in the kernel's ring (its last
 * block, handed over after its timeout). Returns how many. */
int cap_live_drain(struct cap_live *l, cap_live_fn fn, void *arg);
/* Async-signal-safe: the current dispatch returns soon. */
void cap_live_breakloop(struct cap_live *l);
/* Refreshes l->drops (call at least every few seconds: counters wrap). */
void cap_live_update_drops(struct cap_live *l);
void cap_live_close(struct cap_live *l);

/* -D: the interfaces (and RDMA devices) one can capture on; 0 or -1. */
int cap_list_interfaces(FILE *out);
/* The default filter for a link type; -1 when the link type has none. */
int cap_default_filter(int linktype, uint16_t port, char *buf, size_t cap);
/* -d: prints the compiled filter; returns an exit status. */
int cap_dump_filter(const struct cap_opts *o);

/* The filter run in user space (sources with no kernel filter: RDMA, DPDK):
 * --all, -f, or the default one, compiled for Ethernet into l->prog. */
int cap_live_user_filter(struct cap_live *l, const struct cap_opts *o);
/* filter.c's pieces the pcap source also uses: the filter text the options
 * ask for (NULL: none; desc gets the "listening" line's words), a link
 * type's name, and compiling text for p into l->prog (-1 with l->err). */
const char *cap_filter_text(const struct cap_opts *o, int linktype, char *buf, size_t cap, char *desc,
			    size_t dcap);
const char *cap_dlt_name(int dlt, char *buf, size_t cap);
int cap_filter_compile(struct cap_live *l, pcap_t *p, const char *text);

/* dpdk: --rx-queues N > 1: the port's N RX queues spread over EAL's lcores,
 * each polled by one lcore and written to its own file (-w FILE gives
 * FILE.q0, FILE.q1, ... before a .pcap/.pcapng extension), decoded and
 * ICRC-checked by the lcore that polls it: the ops multi, queues_start
 * (opens the files and starts the workers; then dispatch runs the main
 * lcore's share) and queues_finish (stops them, closes the files, prints a
 * line per queue and adds each queue's counters to c->stats). */
#define CAP_DPDK_MAX_QUEUES 64

#endif
