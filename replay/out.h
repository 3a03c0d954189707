/* SPDX-License-Identifier: BSD-3-Clause */
/* Where replayed frames go: an AF_PACKET TX ring, or a DPDK port. A frame
 * is written straight into the output's own buffer (a ring slot, an mbuf):
 * slot() lends it, commit() queues it, flush() sends what is queued. A slot
 * that is not committed is lent again by the next slot(). */
#ifndef RWREPLAY_OUT_H
#define RWREPLAY_OUT_H

#include <stddef.h>
#include <stdint.h>

struct rp_out;

struct rp_out_ops {
	uint8_t *(*slot)(struct rp_out *o, size_t *cap);   /* NULL: o->err says why */
	void (*commit)(struct rp_out *o, size_t len);
	int (*flush)(struct rp_out *o);                      /* 0, or -1 with o->err */
	void (*close)(struct rp_out *o);
};

struct rp_out {
	const struct rp_out_ops *ops;
	char name[160];         /* "AF_PACKET on veth0", "net_pcap (port 0)" */
	char err[256];
	uint32_t max_frame;     /* longest untagged frame the output takes (MTU + 14);
				 * a frame with a VLAN tag may have 4 bytes more */
	uint32_t burst;
	uint64_t full_waits;    /* times the output had no room and was waited for */
	void *priv;
};

/* AF_PACKET TX ring (TPACKET_V2) on iface. 0, or -1 with o->err; 2 when
 * the interface does not exist (a usage error). */
int rp_out_afpacket_open(struct rp_out *o, const char *iface, uint32_t burst);

#ifdef ROCEWIRE_REPLAY_DPDK
struct rw_dpdk_args;
/* Starts EAL with these arguments (rocewire_dpdk) and port `port` with one
 * TX queue. 0, or -1 with o->err; 2 when there is no such port. */
int rp_out_dpdk_open(struct rp_out *o, struct rw_dpdk_args *eal, uint16_t port, uint32_t burst);
#endif

#endif
