/* SPDX-License-Identifier: BSD-3-Clause */
/* AF_PACKET output through a TPACKET_V2 TX ring (Documentation/networking/
 * packet_mmap.rst): frames are written into a ring shared with the kernel,
 * and one send() hands over a whole batch, instead of a system call and a
 * copy per frame (tcpreplay's way). The queueing discipline is bypassed
 * (PACKET_QDISC_BYPASS), as a traffic generator's frames need no qdisc. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "out.h"

#define RING_FRAME 16384u       /* holds a 9000-byte jumbo frame and the header */
#define RING_BLOCK (1u << 20)
#define RING_BLOCKS 16u

struct afp {
	int fd;
	uint8_t *ring;
	size_t ring_len;
	uint32_t n_frames, idx;
	uint32_t queued;
};

static struct tpacket2_hdr *frame_at(struct afp *a, uint32_t i)
{
	return (struct tpacket2_hdr *)(a->ring + (size_t)i * RING_FRAME);
}

/* The data of a TX frame starts right after the aligned header (the
 * sockaddr_ll of RX frames is not there on TX). */
#define DATA_OFF (TPACKET_ALIGN(sizeof(struct tpacket2_hdr)))

static int afp_flush(struct rp_out *o)
{
	struct afp *a = o->priv;
	if (!a->queued)
		return 0;
	/* blocking: returns when the kernel has taken every queued frame */
	for (;;) {
		ssize_t r = send(a->fd, NULL, 0, 0);
		if (r >= 0)
			break;
		if (errno == EINTR)
			continue;
		if (errno == ENOBUFS || errno == EAGAIN) {
			o->full_waits++;
			struct pollfd p = {a->fd, POLLOUT, 0};
			poll(&p, 1, 10);
			continue;
		}
		snprintf(o->err, sizeof(o->err), "%s: send: %s", o->name, strerror(errno));
		return -1;
	}
	a->queued = 0;
	return 0;
}

static uint8_t *afp_slot(struct rp_out *o, size_t *cap)
{
	struct afp *a = o->priv;
	struct tpacket2_hdr *h = frame_at(a, a->idx);
	unsigned spins = 0;
	while (__atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE) != TP_STATUS_AVAILABLE) {
		if (h->tp_status == TP_STATUS_WRONG_FORMAT) {
			h->tp_status = TP_STATUS_AVAILABLE;
			break;
		}
		/* the ring is full: hand it over and wait for the slot */
		if (a->queued && afp_flush(o) != 0)
			return NULL;
		if (++spins == 1)
			o->full_waits++;
		struct pollfd p = {a->fd, POLLOUT, 0};
		poll(&p, 1, 1);
	}
	*cap = RING_FRAME - DATA_OFF;
	return (uint8_t *)h + DATA_OFF;
}

static void afp_commit(struct rp_out *o, size_t len)
{
	struct afp *a = o->priv;
	struct tpacket2_hdr *h = frame_at(a, a->idx);
	h->tp_len = (uint32_t)len;
	h->tp_snaplen = (uint32_t)len;
	__atomic_store_n(&h->tp_status, TP_STATUS_SEND_REQUEST, __ATOMIC_RELEASE);
	a->idx = a->idx + 1 == a->n_frames ? 0 : a->idx + 1;
	a->queued++;
}

static void afp_close(struct rp_out *o)
{
	struct afp *a = o->priv;
	if (!a)
		return;
	if (a->ring && a->ring != MAP_FAILED)
		munmap(a->ring, a->ring_len);
	if (a->fd >= 0)
		close(a->fd);
	free(a);
	o->priv = NULL;
}

static const struct rp_out_ops afp_ops = {afp_slot, afp_commit, afp_flush, afp_close};

static int fail(struct rp_out *o, const char *what)
{
	snprintf(o->err, sizeof(o->err), "%s: %s: %s%s", o->name, what, strerror(errno),
		 errno == EPERM ? " (needs CAP_NET_RAW)" : "");
	afp_close(o);
	return -1;
}

int rp_out_afpacket_open(struct rp_out *o, const char *iface, uint32_t burst)
{
	memset(o, 0, sizeof(*o));
	o->ops = &afp_ops;
	o->burst = burst;
	snprintf(o->name, sizeof(o->name), "AF_PACKET on %s", iface);
	unsigned ifindex = if_nametoindex(iface);
	if (!ifindex) {
		snprintf(o->err, sizeof(o->err), "-i %s: no such network interface", iface);
		return 2;
	}
	struct afp *a = calloc(1, sizeof(*a));
	if (!a) {
		snprintf(o->err, sizeof(o->err), "out of memory");
		return -1;
	}
	a->fd = -1;
	o->priv = a;
	a->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0); /* protocol 0: receives nothing */
	if (a->fd < 0)
		return fail(o, "socket");
	int v = TPACKET_V2;
	if (setsockopt(a->fd, SOL_PACKET, PACKET_VERSION, &v, sizeof(v)) != 0)
		return fail(o, "PACKET_VERSION");
	v = 1;
	(void)setsockopt(a->fd, SOL_PACKET, PACKET_QDISC_BYPASS, &v, sizeof(v));
	struct tpacket_req req = {RING_BLOCK, RING_BLOCKS, RING_FRAME, RING_BLOCKS * (RING_BLOCK / RING_FRAME)};
	if (setsockopt(a->fd, SOL_PACKET, PACKET_TX_RING, &req, sizeof(req)) != 0)
		return fail(o, "PACKET_TX_RING");
	a->n_frames = req.tp_frame_nr;
	a->ring_len = (size_t)RING_BLOCK * RING_BLOCKS;
	a->ring = mmap(NULL, a->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, a->fd, 0);
	if (a->ring == MAP_FAILED)
		return fail(o, "mmap of the TX ring");
	struct sockaddr_ll sll = {.sll_family = AF_PACKET, .sll_ifindex = (int)ifindex};
	if (bind(a->fd, (struct sockaddr *)&sll, sizeof(sll)) != 0)
		return fail(o, "bind");
	struct ifreq ifr;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", iface);
	int mtu = 1500;
	if (ioctl(a->fd, SIOCGIFMTU, &ifr) == 0)
		mtu = ifr.ifr_mtu;
	/* the Ethernet header is not counted by the MTU (nor one VLAN tag:
	 * the caller allows 4 bytes more for a tagged frame) */
	o->max_frame = (uint32_t)mtu + 14;
	if (o->max_frame > RING_FRAME - DATA_OFF - 4)
		o->max_frame = RING_FRAME - DATA_OFF - 4;
	return 0;
}
