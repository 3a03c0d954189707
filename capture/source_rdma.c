/* SPDX-License-Identifier: BSD-3-Clause */
/* -i rdma:DEVICE[:PORT]: capture through an RDMA NIC's sniffer flow.
 *
 * RoCE traffic that a NIC sends and receives for its own QPs never reaches
 * the kernel's network stack, so a packet socket on the netdev does not see
 * it. A flow rule of type IBV_FLOW_ATTR_SNIFFER attached to a raw packet QP
 * asks the NIC for a copy of all the port's traffic, both directions (this is
 * how ibdump works on ConnectX). Packets land in a ring of registered
 * receive buffers; completions are waited for on a completion channel with
 * poll(), so the capture loop keeps its timeout.
 *
 * Wake-ups: as source_live.c has the kernel hand packets over a block of its
 * ring at a time, the CQ is moderated where the device can (ibv_modify_cq,
 * ConnectX-4 and later): the NIC raises a completion event once half the
 * receive ring has completed or the block timeout has passed since the
 * first completion (10 ms when packets are shown on a terminal, 100 ms
 * otherwise, capped by the device's longest period), not once per packet.
 * Without moderation (rxe, siw) every armed completion wakes the capture,
 * which then drains all that completed meanwhile, as before.
 *
 * Timestamps are the host's clock when the completion is read (the NIC's
 * own completion timestamps need a clock conversion this tool does not do).
 * The filter runs here, in user space, over Ethernet frames. Loss: the
 * device's out_of_buffer counter (sysfs hw_counters), when it has one. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cap.h"


#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

/* Receive buffers: room for a 9216-byte jumbo frame. */
#define RDMA_BUF 9728u
#define RDMA_POLL_BATCH 64

struct cap_rdma {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_comp_channel *ch;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	struct ibv_flow *flow;
	uint8_t *ring;
	uint32_t n_bufs;
	unsigned cq_events;        /* to acknowledge before destroying the CQ */
	char counter[PATH_MAX];    /* sysfs out_of_buffer, or "" */
	uint64_t oob_start;
	char driver[64];
	char devname[64];
	uint32_t mod_count;        /* CQ moderation: completions per event, 0: none */
	uint32_t mod_period_us;
};

static int read_u64_file(const char *path, uint64_t *v)
{
	FILE *f = fopen(path, "r");
	unsigned long long x;
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%llu", &x) == 1;
	fclose(f);
	if (!ok)
		return -1;
	*v = x;
	return 0;
}

/* The kernel driver behind a device (mlx5_core, rdma_rxe, ...), for messages. */
static void driver_name(struct ibv_device *d, char *buf, size_t cap)
{
	char link[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	snprintf(buf, cap, "%s", "unknown");
	snprintf(link, sizeof(link), "%s/device/driver", d->ibdev_path);
	n = readlink(link, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = '\0';
		snprintf(buf, cap, "%s", basename(target));
		return;
	}
	/* Software devices (rxe, siw) have no device/driver link. */
	if (strncmp(ibv_get_device_name(d), "rxe", 3) == 0)
		snprintf(buf, cap, "rdma_rxe");
	else if (strncmp(ibv_get_device_name(d), "siw", 3) == 0)
		snprintf(buf, cap, "siw");
}

static int set_err(struct cap_live *l, const char *fmt, const char *a, const char *b, int err)
{
	char what[400];
	snprintf(what, sizeof(what), fmt, a, b);
	if (err)
		snprintf(l->err, sizeof(l->err), "%s: %s: %s", l->name, what, strerror(err));
	else
		snprintf(l->err, sizeof(l->err), "%s: %s", l->name, what);
	l->err_status = CAP_EXIT_USAGE;
	return -1;
}

/* One completion event per half ring or per block timeout (above); left as
 * it is when the device has no CQ moderation. */
static void moderate_cq(struct cap_rdma *r, const struct cap_opts *o)
{
	struct ibv_device_attr_ex ax;

	memset(&ax, 0, sizeof(ax));
	if (ibv_query_device_ex(r->ctx, NULL, &ax) != 0 || ax.cq_mod_caps.max_cq_count == 0 ||
	    ax.cq_mod_caps.max_cq_period == 0)
		return;
	uint32_t count = r->n_bufs / 2 ? r->n_bufs / 2 : 1;
	uint32_t period = (o->interactive ? CAP_LIVE_TIMEOUT_TTY_MS : CAP_LIVE_TIMEOUT_MS) * 1000u;
	if (count > ax.cq_mod_caps.max_cq_count)
		count = ax.cq_mod_caps.max_cq_count;
	if (period > ax.cq_mod_caps.max_cq_period)
		period = ax.cq_mod_caps.max_cq_period;
	struct ibv_modify_cq_attr ma = {
		.attr_mask = IBV_CQ_ATTR_MODERATE,
		.moderate = {.cq_count = (uint16_t)count, .cq_period = (uint16_t)period},
	};
	if (ibv_modify_cq(r->cq, &ma) == 0) {
		r->mod_count = count;
		r->mod_period_us = period;
	}
}

static void say_wakeups(const struct cap_live *l, const struct cap_rdma *r)
{
	if (r->mod_count)
		fprintf(stderr, "%s: %s: completion events moderated: one per %" PRIu32
				" packets or %" PRIu32 " us\n",
			CAP_PROG, l->name, r->mod_count, r->mod_period_us);
	else
		fprintf(stderr, "%s: %s: completion events per packet (driver %s has no CQ "
				"moderation)\n",
			CAP_PROG, l->name, r->driver);
}

static int unsupported(int err)
{
	return err == EOPNOTSUPP || err == ENOSYS || err == EINVAL || err == EPROTONOSUPPORT ||
	       err == ENOTSUP;
}

static void cap_rdma_close(struct cap_live *l);

/* DEVICE or DEVICE:PORT; the port is 1 when not given. */
static int cap_rdma_parse_spec(struct cap_live *l, const char *spec, char *name, size_t cap,
			       unsigned *port)
{
	const char *colon = strrchr(spec, ':');
	size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
	if (len == 0 || len >= cap)
		return set_err(l, "expected rdma:DEVICE or rdma:DEVICE:PORT (e.g. rdma:mlx5_0)%s%s",
			       "", "", 0);
	memcpy(name, spec, len);
	name[len] = '\0';
	*port = 1;
	if (colon) {
		char *end;
		unsigned long v = strtoul(colon + 1, &end, 10);
		if (colon[1] == '\0' || *end != '\0' || v < 1 || v > 255)
			return set_err(l, "'%s' is not a port number (1 to 255)%s", colon + 1, "", 0);
		*port = (unsigned)v;
	}
	return 0;
}

/* Finds the device by name, allocates l->rdma and opens the device. The
 * device list is freed here on every path; its names go into the message
 * when the device is not among them. On failure l->rdma may be set (the
 * caller closes it). */
static int cap_rdma_open_device(struct cap_live *l, const char *name)
{
	struct ibv_device **list;
	struct ibv_device *dev = NULL;
	struct cap_rdma *r;
	int n = 0, err;

	errno = 0;
	list = ibv_get_device_list(&n);
	if (!list || n == 0) {
		if (list)
			ibv_free_device_list(list);
		return set_err(l, "no RDMA devices on this machine (ibv_get_device_list found none%s%s)",
			       errno == ENOSYS ? ": the kernel has no RDMA support" : "", "", 0);
	}
	char names[256] = "";
	size_t nl = 0;
	for (int i = 0; i < n; i++) {
		if (strcmp(ibv_get_device_name(list[i]), name) == 0)
			dev = list[i];
		if (nl < sizeof(names) - 1)
			nl += (size_t)snprintf(names + nl, sizeof(names) - nl, "%s%s", i ? ", " : "",
					       ibv_get_device_name(list[i]));
	}
	if (!dev) {
		ibv_free_device_list(list);
		return set_err(l, "no RDMA device named '%s' (devices: %s)", name, names, 0);
	}

	r = calloc(1, sizeof(*r));
	if (!r) {
		ibv_free_device_list(list);
		return set_err(l, "out of memory%s%s", "", "", 0);
	}
	l->rdma = r;
	snprintf(r->devname, sizeof(r->devname), "%s", name);
	driver_name(dev, r->driver, sizeof(r->driver));
	r->ctx = ibv_open_device(dev);
	err = errno; /* before ibv_free_device_list can change it */
	ibv_free_device_list(list);
	if (!r->ctx)
		return set_err(l, "cannot open the RDMA device%s%s", "", "", err);
	return 0;
}

/* The sniffer flow copies Ethernet frames: the port must be a RoCE port. */
static int cap_rdma_check_port(struct cap_live *l, struct cap_rdma *r, unsigned port)
{
	struct ibv_port_attr pa;
	char p[16];

	snprintf(p, sizeof(p), "%u", port);
	if (ibv_query_port(r->ctx, (uint8_t)port, &pa) != 0)
		return set_err(l, "the device has no port %s%s", p, "", 0);
	if (pa.link_layer != IBV_LINK_LAYER_ETHERNET)
		return set_err(l, "port %s is not an Ethernet (RoCE) port; sniffer capture needs one "
				  "(for native InfiniBand use ibdump)%s",
			       p, "", 0);
	return 0;
}

/* -B (32 MiB by default) in receive buffers, within the device's limits on
 * work requests and completion queue entries. */
static void cap_rdma_size_ring(struct cap_rdma *r, const struct cap_opts *o)
{
	struct ibv_device_attr da;

	r->n_bufs = (uint32_t)((uint64_t)o->buffer_kib * 1024 / RDMA_BUF);
	if (r->n_bufs == 0)
		r->n_bufs = 1;
	if (ibv_query_device(r->ctx, &da) == 0) {
		if (da.max_qp_wr > 0 && r->n_bufs > (uint32_t)da.max_qp_wr)
			r->n_bufs = (uint32_t)da.max_qp_wr;
		if (da.max_cqe > 0 && r->n_bufs > (uint32_t)da.max_cqe)
			r->n_bufs = (uint32_t)da.max_cqe;
	}
}

/* Protection domain, and a completion queue on a non-blocking channel
 * whose fd the capture loop polls. */
static int cap_rdma_make_cq(struct cap_live *l, struct cap_rdma *r, const struct cap_opts *o)
{
	r->pd = ibv_alloc_pd(r->ctx);
	if (!r->pd)
		return set_err(l, "cannot allocate a protection domain%s%s", "", "", errno);
	r->ch = ibv_create_comp_channel(r->ctx);
	if (!r->ch)
		return set_err(l, "cannot create a completion channel%s%s", "", "", errno);
	int fl = fcntl(r->ch->fd, F_GETFL);
	if (fl < 0 || fcntl(r->ch->fd, F_SETFL, fl | O_NONBLOCK) != 0)
		return set_err(l, "cannot make the completion channel non-blocking%s%s", "", "",
			       errno);
	r->cq = ibv_create_cq(r->ctx, (int)r->n_bufs, NULL, r->ch, 0);
	if (!r->cq)
		return set_err(l, "cannot create a completion queue%s%s", "", "", errno);
	moderate_cq(r, o);
	return 0;
}

/* A raw packet QP, taken to RTR: it only receives. */
static int cap_rdma_make_qp(struct cap_live *l, struct cap_rdma *r, unsigned port)
{
	struct ibv_qp_init_attr qa = {
		.send_cq = r->cq,
		.recv_cq = r->cq,
		.cap = {.max_send_wr = 1, .max_recv_wr = r->n_bufs, .max_send_sge = 1,
			.max_recv_sge = 1},
		.qp_type = IBV_QPT_RAW_PACKET,
	};
	r->qp = ibv_create_qp(r->pd, &qa);
	if (!r->qp) {
		int err = errno;
		if (err == EPERM || err == EACCES)
			return set_err(l, "creating a raw packet QP needs root or CAP_NET_RAW%s%s", "",
				       "", err);
		if (unsupported(err))
			return set_err(l, "driver %s does not support raw packet QPs, which sniffer "
					  "capture needs (ConnectX-4 and later with mlx5 do)",
				       r->driver, "", err);
		return set_err(l, "cannot create a raw packet QP (driver %s)%s", r->driver, "", err);
	}
	struct ibv_qp_attr at = {.qp_state = IBV_QPS_INIT, .port_num = (uint8_t)port};
	if (ibv_modify_qp(r->qp, &at, IBV_QP_STATE | IBV_QP_PORT) != 0)
		return set_err(l, "cannot move the raw packet QP to INIT (driver %s)%s", r->driver,
			       "", errno);
	memset(&at, 0, sizeof(at));
	at.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(r->qp, &at, IBV_QP_STATE) != 0)
		return set_err(l, "cannot move the raw packet QP to RTR (driver %s)%s", r->driver,
			       "", errno);
	return 0;
}

/* The receive ring: registered once, each buffer posted with its index as
 * wr_id so a completion finds its buffer. */
static int cap_rdma_post_ring(struct cap_live *l, struct cap_rdma *r)
{
	size_t ring = (size_t)r->n_bufs * RDMA_BUF;
	r->ring = aligned_alloc(4096, (ring + 4095) & ~(size_t)4095);
	if (!r->ring)
		return set_err(l, "out of memory for the receive ring%s%s", "", "", 0);
	r->mr = ibv_reg_mr(r->pd, r->ring, ring, IBV_ACCESS_LOCAL_WRITE);
	if (!r->mr)
		return set_err(l, "cannot register the receive ring%s%s", "", "", errno);
	for (uint32_t i = 0; i < r->n_bufs; i++) {
		struct ibv_sge sge = {.addr = (uintptr_t)(r->ring + (size_t)i * RDMA_BUF),
				      .length = RDMA_BUF, .lkey = r->mr->lkey};
		struct ibv_recv_wr wr = {.wr_id = i, .sg_list = &sge, .num_sge = 1}, *bad;
		if (ibv_post_recv(r->qp, &wr, &bad) != 0)
			return set_err(l, "cannot post receive buffers%s%s", "", "", errno);
	}
	return 0;
}

/* The sniffer flow rule (no specs: all the port's traffic), then the CQ
 * armed for its first completion event. */
static int cap_rdma_start_sniffer(struct cap_live *l, struct cap_rdma *r, unsigned port)
{
	struct ibv_flow_attr fa = {
		.type = IBV_FLOW_ATTR_SNIFFER,
		.size = sizeof(fa),
		.num_of_specs = 0,
		.port = (uint8_t)port,
	};
	r->flow = ibv_create_flow(r->qp, &fa);
	if (!r->flow) {
		int err = errno;
		if (err == EPERM || err == EACCES)
			return set_err(l, "a sniffer flow needs root or CAP_NET_RAW%s%s", "", "", err);
		return set_err(l, "driver %s does not support sniffer flows (IBV_FLOW_ATTR_SNIFFER)%s",
			       r->driver, "", err);
	}
	if (ibv_req_notify_cq(r->cq, 0) != 0)
		return set_err(l, "cannot arm the completion queue%s%s", "", "", errno);
	return 0;
}

/* Loss is read from the port's out_of_buffer counter, when sysfs has one. */
static void cap_rdma_drop_counter(struct cap_live *l, struct cap_rdma *r, const char *name,
				  unsigned port)
{
	snprintf(r->counter, sizeof(r->counter), "/sys/class/infiniband/%s/ports/%u/hw_counters/out_of_buffer",
		 name, port);
	if (read_u64_file(r->counter, &r->oob_start) != 0)
		r->counter[0] = '\0';
	l->drops.known = r->counter[0] != '\0';
}

static int cap_rdma_open(struct cap_live *l, const char *spec, const struct cap_opts *o)
{
	struct cap_rdma *r;
	char name[64];
	unsigned port;

	if (cap_rdma_parse_spec(l, spec, name, sizeof(name), &port) != 0)
		return -1;
	/* From here on a failure closes whatever was set up (cap_rdma_close
	 * does nothing while l->rdma is still NULL). */
	if (cap_rdma_open_device(l, name) != 0)
		goto fail;
	r = l->rdma;
	if (cap_rdma_check_port(l, r, port) != 0)
		goto fail;
	cap_rdma_size_ring(r, o);
	if (cap_rdma_make_cq(l, r, o) != 0 || cap_rdma_make_qp(l, r, port) != 0 ||
	    cap_rdma_post_ring(l, r) != 0 || cap_rdma_start_sniffer(l, r, port) != 0)
		goto fail;
	cap_rdma_drop_counter(l, r, name, port);

	l->linktype = RW_LINKTYPE_ETHERNET;
	l->snaplen = o->snaplen < RDMA_BUF ? o->snaplen : RDMA_BUF;
	l->nano = 1;
	l->fd = r->ch->fd;

	/* The filter runs here, compiled for Ethernet. */
	if (cap_live_user_filter(l, o) != 0)
		goto fail;
	say_wakeups(l, r);
	return 0;
fail:
	cap_rdma_close(l);
	return -1;
}

static int cap_rdma_dispatch(struct cap_live *l, int timeout_ms, cap_live_fn fn, void *arg)
{
	struct cap_rdma *r = l->rdma;
	struct ibv_wc wc[RDMA_POLL_BATCH];
	int total = 0;

	for (int pass = 0; pass < 2 && !l->stop; pass++) {
		/* A signal may set l->stop between the two tests of it: then the
		 * loop never assigns n. */
		int n = 0;
		while (!l->stop && (n = ibv_poll_cq(r->cq, RDMA_POLL_BATCH, wc)) > 0) {
			struct timespec now;
			clock_gettime(CLOCK_REALTIME, &now);
			for (int i = 0; i < n; i++) {
				uint32_t id = (uint32_t)wc[i].wr_id;
				uint8_t *buf = r->ring + (size_t)id * RDMA_BUF;
				if (wc[i].status == IBV_WC_SUCCESS && !l->stop) {
					struct cap_record rec;
					uint32_t len = wc[i].byte_len;
					rec.caplen = len < l->snaplen ? len : l->snaplen;
					rec.wirelen = len;
					struct pcap_pkthdr h = {.caplen = rec.caplen, .len = len};
					if (!l->user_filter ||
					    pcap_offline_filter(&l->prog, &h, buf) != 0) {
						rec.index = ++l->index;
						rec.ts_sec = (int64_t)now.tv_sec;
						rec.ts_nsec = (uint32_t)now.tv_nsec;
						rec.linktype = l->linktype;
						rec.data = buf;
						rec.src = NULL;
						fn(arg, &rec);
						total++;
					}
				} else if (wc[i].status != IBV_WC_SUCCESS &&
					   wc[i].status != IBV_WC_WR_FLUSH_ERR) {
					snprintf(l->err, sizeof(l->err), "%s: receive failed: %s", l->name,
						 ibv_wc_status_str(wc[i].status));
					l->err_status = CAP_EXIT_USAGE;
					return -1;
				}
				struct ibv_sge sge = {.addr = (uintptr_t)buf, .length = RDMA_BUF,
						      .lkey = r->mr->lkey};
				struct ibv_recv_wr wr = {.wr_id = id, .sg_list = &sge, .num_sge = 1},
						   *bad;
				if (ibv_post_recv(r->qp, &wr, &bad) != 0) {
					snprintf(l->err, sizeof(l->err),
						 "%s: cannot post a receive buffer: %s", l->name,
						 strerror(errno));
					l->err_status = CAP_EXIT_USAGE;
					return -1;
				}
			}
			if (total >= 4096)
				return total;
		}
		if (n < 0) {
			snprintf(l->err, sizeof(l->err), "%s: polling the completion queue failed",
				 l->name);
			l->err_status = CAP_EXIT_USAGE;
			return -1;
		}
		if (total > 0 || pass == 1)
			break;
		/* Nothing yet: wait for the completion event. */
		struct pollfd pfd = {.fd = r->ch->fd, .events = POLLIN};
		int rc = poll(&pfd, 1, timeout_ms);
		if (rc <= 0)
			break; /* timeout or a signal */
		struct ibv_cq *cq;
		void *cctx;
		if (ibv_get_cq_event(r->ch, &cq, &cctx) == 0) {
			r->cq_events++;
			if (r->cq_events >= 256) {
				ibv_ack_cq_events(r->cq, r->cq_events);
				r->cq_events = 0;
			}
			ibv_req_notify_cq(r->cq, 0);
		}
	}
	return total;
}

static void cap_rdma_update_drops(struct cap_live *l)
{
	struct cap_rdma *r = l->rdma;
	uint64_t v;

	if (!r || !r->counter[0] || read_u64_file(r->counter, &v) != 0)
		return;
	l->drops.ifdrop = v >= r->oob_start ? v - r->oob_start : 0;
	l->drops.recv = l->index + l->drops.ifdrop;
}

static void cap_rdma_close(struct cap_live *l)
{
	struct cap_rdma *r = l->rdma;

	if (!r)
		return;
	if (r->flow)
		ibv_destroy_flow(r->flow);
	if (r->qp)
		ibv_destroy_qp(r->qp);
	if (r->mr)
		ibv_dereg_mr(r->mr);
	if (r->cq) {
		if (r->cq_events)
			ibv_ack_cq_events(r->cq, r->cq_events);
		ibv_destroy_cq(r->cq);
	}
	if (r->ch)
		ibv_destroy_comp_channel(r->ch);
	if (r->pd)
		ibv_dealloc_pd(r->pd);
	if (r->ctx)
		ibv_close_device(r->ctx);
	free(r->ring);
	free(r);
	l->rdma = NULL;
	l->fd = -1;
}

static int cap_rdma_list(FILE *out, int first)
{
	int n = 0;
	struct ibv_device **list = ibv_get_device_list(&n);

	if (!list)
		return 0;
	for (int i = 0; i < n; i++) {
		char drv[64];
		const char *ll = "";
		struct ibv_context *ctx = ibv_open_device(list[i]);
		if (ctx) {
			struct ibv_port_attr pa;
			if (ibv_query_port(ctx, 1, &pa) == 0)
				ll = pa.link_layer == IBV_LINK_LAYER_ETHERNET ? ", port 1 Ethernet (RoCE)"
									      : ", port 1 InfiniBand";
			ibv_close_device(ctx);
		}
		driver_name(list[i], drv, sizeof(drv));
		fprintf(out, "%d.rdma:%s (RDMA device, driver %s%s; sniffer capture)\n", first + i,
			ibv_get_device_name(list[i]), drv, ll);
	}
	ibv_free_device_list(list);
	return n;
}

const struct cap_live_ops cap_live_rdma_ops = {
	.prefix = "rdma:",
	.open = cap_rdma_open,
	.dispatch = cap_rdma_dispatch,
	.update_drops = cap_rdma_update_drops,
	.close = cap_rdma_close,
	.list = cap_rdma_list,
};
