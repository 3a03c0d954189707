/* SPDX-License-Identifier: BSD-3-Clause */
/* libibverbs resources and data path of rocewire-verbs; see verbs.h. */
#include "verbs.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <dirent.h>

#include "gid.h"
#include "pattern.h"

static int seterr(struct rwv_ep *ep, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int seterr(struct rwv_ep *ep, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ep->run->error, sizeof(ep->run->error), fmt, ap);
	va_end(ap);
	return -1;
}

uint64_t rwv_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int rwv_mtu_bytes(enum ibv_mtu m)
{
	switch (m) {
	case IBV_MTU_256: return 256;
	case IBV_MTU_512: return 512;
	case IBV_MTU_1024: return 1024;
	case IBV_MTU_2048: return 2048;
	case IBV_MTU_4096: return 4096;
	}
	return 0;
}

enum ibv_mtu rwv_mtu_enum(int bytes)
{
	switch (bytes) {
	case 256: return IBV_MTU_256;
	case 512: return IBV_MTU_512;
	case 1024: return IBV_MTU_1024;
	case 2048: return IBV_MTU_2048;
	default: return IBV_MTU_4096;
	}
}

const char *rwv_wr_name(enum rwv_op op, bool recv)
{
	static const char *const names[] = {
		[RWV_OP_SEND] = "SEND",
		[RWV_OP_SEND_IMM] = "SEND_WITH_IMM",
		[RWV_OP_WRITE] = "RDMA_WRITE",
		[RWV_OP_WRITE_IMM] = "RDMA_WRITE_WITH_IMM",
		[RWV_OP_READ] = "RDMA_READ",
		[RWV_OP_CAS] = "ATOMIC_CMP_AND_SWP",
		[RWV_OP_FADD] = "ATOMIC_FETCH_AND_ADD",
	};
	return recv ? "RECV" : names[op];
}

/* Names what /sys/class/infiniband holds, to explain an empty device list. */
static void sysfs_devices(char *buf, size_t len)
{
	DIR *d = opendir(RWV_SYSFS_IB);
	size_t used = 0;
	struct dirent *e;

	buf[0] = '\0';
	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		int n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", e->d_name);
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	closedir(d);
}

int rwv_dev_open(struct rwv_ep *ep)
{
	struct rwv_run *r = ep->run;
	const struct rwv_opts *o = &ep->o;
	struct ibv_device **list, *dev = NULL;
	int n = 0;
	char names[256] = "";

	errno = 0;
	list = ibv_get_device_list(&n);
	if (!list) {
		if (errno == ENOSYS)
			return seterr(ep, "no RDMA device: this kernel has no RDMA support "
				      "(/sys/class/infiniband_verbs is missing; load ib_uverbs and a "
				      "driver, e.g. modprobe rdma_rxe)");
		return seterr(ep, "cannot list RDMA devices: %s", strerror(errno));
	}
	if (n == 0) {
		char sys[256];
		ibv_free_device_list(list);
		sysfs_devices(sys, sizeof(sys));
		if (sys[0])
			return seterr(ep, "no usable RDMA device: %s lists %s but libibverbs has no "
				      "provider for it (install ibverbs-providers; /etc/libibverbs.d/"
				      "*.driver)", RWV_SYSFS_IB, sys);
		return seterr(ep, "no RDMA device found (%s is empty or missing); for Soft-RoCE: "
			      "modprobe rdma_rxe && rdma link add rxe0 type rxe netdev IFACE",
			      RWV_SYSFS_IB);
	}
	for (int i = 0; i < n; i++) {
		const char *nm = ibv_get_device_name(list[i]);
		size_t l = strlen(names);
		snprintf(names + l, sizeof(names) - l, "%s%s", i ? ", " : "", nm);
		if (!dev && (!o->dev || strcmp(o->dev, nm) == 0))
			dev = list[i];
	}
	if (!dev) {
		ibv_free_device_list(list);
		return seterr(ep, "no RDMA device named '%s' (found: %s)", o->dev, names);
	}
	snprintf(r->device, sizeof(r->device), "%s", ibv_get_device_name(dev));
	ep->ctx = ibv_open_device(dev);
	ibv_free_device_list(list);
	if (!ep->ctx)
		return seterr(ep, "cannot open RDMA device %s: %s (permissions on "
			      "/dev/infiniband/uverbs*?)", r->device, strerror(errno));
	if (ibv_query_device(ep->ctx, &ep->dattr))
		return seterr(ep, "cannot query RDMA device %s: %s", r->device, strerror(errno));
	r->port = o->ib_port;
	if (o->ib_port > ep->dattr.phys_port_cnt)
		return seterr(ep, "RDMA device %s has no port %d (it has %d; see --ib-port)",
			      r->device, o->ib_port, ep->dattr.phys_port_cnt);
	if (ibv_query_port(ep->ctx, (uint8_t)o->ib_port, &ep->pattr))
		return seterr(ep, "cannot query port %d of %s: %s", o->ib_port, r->device,
			      strerror(errno));
	snprintf(r->link_layer, sizeof(r->link_layer), "%s",
		 ep->pattr.link_layer == IBV_LINK_LAYER_ETHERNET ? "Ethernet" : "InfiniBand");
	r->active_mtu = rwv_mtu_bytes(ep->pattr.active_mtu);
	if (ep->pattr.state != IBV_PORT_ACTIVE)
		return seterr(ep, "port %d of %s is %s, not ACTIVE (is its netdev up? see `rdma "
			      "link`)", o->ib_port, r->device, ibv_port_state_str(ep->pattr.state));

	struct rwv_gid_entry e;
	char why[400];
	if (o->gid_index >= 0) {
		if (o->gid_index >= ep->pattr.gid_tbl_len)
			return seterr(ep, "GID index %d is beyond the GID table of %s port %d (%d "
				      "entries)", o->gid_index, r->device, o->ib_port,
				      ep->pattr.gid_tbl_len);
		ep->gid_index = o->gid_index;
		if (rwv_gid_read(RWV_SYSFS_IB, r->device, o->ib_port, o->gid_index, &e, why,
				 sizeof(why)) == 0)
			snprintf(r->gid_type, sizeof(r->gid_type), "%s", e.type);
	} else {
		if (rwv_gid_pick(RWV_SYSFS_IB, r->device, o->ib_port, &e, why, sizeof(why)))
			return seterr(ep, "%s", why);
		ep->gid_index = e.index;
		snprintf(r->gid_type, sizeof(r->gid_type), "%s", e.type);
	}
	if (ibv_query_gid(ep->ctx, (uint8_t)o->ib_port, ep->gid_index, &ep->gid))
		return seterr(ep, "cannot read GID index %d of %s port %d: %s", ep->gid_index,
			      r->device, o->ib_port, strerror(errno));
	if (rwv_gid_is_zero(ep->gid.raw))
		return seterr(ep, "GID index %d of %s port %d is empty (see %s/%s/ports/%d/gids)",
			      ep->gid_index, r->device, o->ib_port, RWV_SYSFS_IB, r->device,
			      o->ib_port);
	r->gid_index = ep->gid_index;
	rwv_gid_format(ep->gid.raw, r->local_gid, sizeof(r->local_gid));
	return 0;
}

static void *alloc_buf(size_t len)
{
	void *p = NULL;
	if (len < 64)
		len = 64;
	if (posix_memalign(&p, 4096, (len + 4095) & ~(size_t)4095))
		return NULL;
	memset(p, 0, len);
	return p;
}

static uint32_t random_psn(void)
{
	return (uint32_t)lrand48() & 0xffffff;
}

/* What the device must allow for this run: atomics, queue depths, an
 * outstanding READ or atomic. 0, or -1 with the run's error. */
static int device_fits(struct rwv_ep *ep)
{
	struct rwv_run *r = ep->run;
	const struct rwv_opts *o = &ep->o;
	const char *dn = r->device;

	if (rwv_op_is_atomic(o->op) && ep->dattr.atomic_cap == IBV_ATOMIC_NONE)
		return seterr(ep, "RDMA device %s does not support atomics (atomic_cap NONE)", dn);
	if (o->tx_depth > ep->dattr.max_qp_wr || o->rx_depth > ep->dattr.max_qp_wr)
		return seterr(ep, "--tx-depth %d / --rx-depth %d exceed the %d work requests a QP "
			      "of %s takes", o->tx_depth, o->rx_depth, ep->dattr.max_qp_wr, dn);
	r->max_rd_atomic = ep->dattr.max_qp_init_rd_atom < 16 ? ep->dattr.max_qp_init_rd_atom : 16;
	r->max_dest_rd_atomic = ep->dattr.max_qp_rd_atom < 16 ? ep->dattr.max_qp_rd_atom : 16;
	if ((o->op == RWV_OP_READ || rwv_op_is_atomic(o->op)) &&
	    (r->max_rd_atomic < 1 || r->max_dest_rd_atomic < 1))
		return seterr(ep, "RDMA device %s allows no outstanding RDMA READ/atomic "
			      "(max_qp_rd_atom %d, max_qp_init_rd_atom %d)", dn,
			      ep->dattr.max_qp_rd_atom, ep->dattr.max_qp_init_rd_atom);
	return 0;
}

/* The PD, the responder's completion channel, the two CQs. */
static int pd_and_cqs(struct rwv_ep *ep, bool responder)
{
	const struct rwv_opts *o = &ep->o;
	const char *dn = ep->run->device;
	int qps = o->qps;

	ep->pd = ibv_alloc_pd(ep->ctx);
	if (!ep->pd)
		return seterr(ep, "ibv_alloc_pd on %s: %s", dn, strerror(errno));
	if (responder) {
		/* The responder sleeps on a completion channel: on a small VM a second
		 * busy-polling process would starve the requester and the driver. */
		ep->chan = ibv_create_comp_channel(ep->ctx);
		if (!ep->chan)
			return seterr(ep, "ibv_create_comp_channel on %s: %s", dn, strerror(errno));
		fcntl(ep->chan->fd, F_SETFL, fcntl(ep->chan->fd, F_GETFL) | O_NONBLOCK);
	}
	long scqe = responder ? qps + 1 : (long)qps * o->tx_depth + 1;
	long rcqe = responder ? (long)qps * o->rx_depth + 1 : qps + 1;
	if (scqe > ep->dattr.max_cqe || rcqe > ep->dattr.max_cqe)
		return seterr(ep, "a CQ of %ld entries (--qps x --tx-depth/--rx-depth) exceeds the "
			      "%d %s allows", scqe > rcqe ? scqe : rcqe, ep->dattr.max_cqe, dn);
	ep->scq = ibv_create_cq(ep->ctx, (int)scqe, NULL, NULL, 0);
	ep->rcq = ibv_create_cq(ep->ctx, (int)rcqe, NULL, ep->chan, 0);
	if (!ep->scq || !ep->rcq)
		return seterr(ep, "ibv_create_cq on %s: %s", dn, strerror(errno));
	if (ep->chan && ibv_req_notify_cq(ep->rcq, 0))
		return seterr(ep, "ibv_req_notify_cq on %s: %s", dn, strerror(errno));
	return 0;
}

/* QP i's buffer of slots and, for a SEND responder, its receive ring. */
static int qp_buffers(struct rwv_ep *ep, int i, int access, bool responder)
{
	const struct rwv_run *r = ep->run;
	const struct rwv_opts *o = &ep->o;
	const char *dn = r->device;
	struct rwv_qp *q = &ep->q[i];

	q->buflen = (size_t)r->slots * r->slot_size;
	q->buf = alloc_buf(q->buflen);
	q->post_ns = calloc(r->slots, sizeof(*q->post_ns));
	if (!q->buf || !q->post_ns)
		return seterr(ep, "out of memory for the %zu-byte buffer of QP %d", q->buflen, i);
	q->mr = ibv_reg_mr(ep->pd, q->buf, q->buflen < 64 ? 64 : q->buflen, access);
	if (!q->mr)
		return seterr(ep, "ibv_reg_mr of %zu bytes on %s: %s (locked memory limit? "
			      "ulimit -l)", q->buflen, dn, strerror(errno));
	if (!responder || (o->op != RWV_OP_SEND && o->op != RWV_OP_SEND_IMM))
		return 0;
	q->rslots = rwv_slots(o->iters, o->rx_depth);
	q->rstride = o->size + (o->transport == RWV_UD ? RWV_UD_GRH : 0);
	q->rbuflen = (size_t)q->rslots * q->rstride;
	q->rbuf = alloc_buf(q->rbuflen);
	if (!q->rbuf)
		return seterr(ep, "out of memory for the %zu-byte receive ring of QP %d", q->rbuflen, i);
	q->rmr = ibv_reg_mr(ep->pd, q->rbuf, q->rbuflen, IBV_ACCESS_LOCAL_WRITE);
	if (!q->rmr)
		return seterr(ep, "ibv_reg_mr of %zu bytes on %s: %s", q->rbuflen, dn, strerror(errno));
	return 0;
}

/* QP i created and moved to INIT; its side of the record. */
static int qp_create(struct rwv_ep *ep, int i, int access, bool responder)
{
	struct rwv_run *r = ep->run;
	const struct rwv_opts *o = &ep->o;
	const char *dn = r->device;
	struct rwv_qp *q = &ep->q[i];
	struct rwv_qp_rec *rq = &r->qp[i];
	enum ibv_qp_type type = o->transport == RWV_RC ? IBV_QPT_RC
				: o->transport == RWV_UC ? IBV_QPT_UC : IBV_QPT_UD;
	struct ibv_qp_init_attr ia = {
		.send_cq = ep->scq,
		.recv_cq = ep->rcq,
		.cap = {
			.max_send_wr = responder ? 1 : (uint32_t)o->tx_depth,
			.max_recv_wr = responder ? (uint32_t)o->rx_depth : 1,
			.max_send_sge = 1,
			.max_recv_sge = 1,
			.max_inline_data = o->inline_size,
		},
		.qp_type = type,
	};

	q->qp = ibv_create_qp(ep->pd, &ia);
	if (!q->qp)
		return seterr(ep, "cannot create %s QP %d on %s: %s (tx-depth %d, rx-depth %d, "
			      "inline %u; the device allows %d work requests)",
			      rwv_transport_name(o->transport), i, dn, strerror(errno),
			      o->tx_depth, o->rx_depth, o->inline_size, ep->dattr.max_qp_wr);
	if (ia.cap.max_inline_data < o->inline_size)
		return seterr(ep, "--inline %u: %s gives at most %u bytes of inline data",
			      o->inline_size, dn, ia.cap.max_inline_data);

	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.pkey_index = 0,
		.port_num = (uint8_t)o->ib_port,
	};
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;
	if (type == IBV_QPT_UD) {
		a.qkey = o->qkey;
		mask |= IBV_QP_QKEY;
	} else {
		a.qp_access_flags = (unsigned)access & ~(unsigned)IBV_ACCESS_LOCAL_WRITE;
		mask |= IBV_QP_ACCESS_FLAGS;
	}
	if (ibv_modify_qp(q->qp, &a, mask))
		return seterr(ep, "ibv_modify_qp(QP %d to INIT) on %s: %s", i, dn, strerror(errno));

	rq->index = i;
	rq->local.qpn = q->qp->qp_num;
	rq->local.psn = (o->given & RWV_GIVEN_PSN) ? (o->psn + (uint32_t)i) & 0xffffff : random_psn();
	rq->local.rkey = q->mr->rkey;
	rq->local.addr = (uint64_t)(uintptr_t)q->buf;
	rq->local.len = q->buflen;
	rq->local.qkey = o->qkey;
	rq->local.lid = ep->pattr.lid;
	q->atomic_post = q->atomic_seen = rwv_atomic_initial((uint32_t)(i + o->pattern_qp));
	return 0;
}

/* The requester's latency samples and, without the data check, its data
 * written once. */
static int requester_extras(struct rwv_ep *ep)
{
	const struct rwv_run *r = ep->run;
	const struct rwv_opts *o = &ep->o;
	uint64_t total = (uint64_t)o->iters * (uint64_t)o->qps;

	/* Latency samples of the first 4 Mi completions (32 MiB at most). */
	ep->caplat = total < (1ull << 22) ? total : (1ull << 22);
	ep->lat = malloc(ep->caplat * sizeof(*ep->lat));
	if (!ep->lat)
		return seterr(ep, "out of memory for %llu latency samples", (unsigned long long)ep->caplat);
	/* Without the check, the data is written once and sent as it is. */
	if (!r->check && (o->op == RWV_OP_SEND || o->op == RWV_OP_SEND_IMM ||
			  o->op == RWV_OP_WRITE || o->op == RWV_OP_WRITE_IMM))
		for (int i = 0; i < o->qps; i++)
			for (uint32_t s = 0; s < r->slots; s++)
				rwv_pat_fill(ep->q[i].buf + (size_t)s * r->slot_size, r->slot_size, (uint32_t)i, s);
	return 0;
}

int rwv_resources(struct rwv_ep *ep, bool responder)
{
	struct rwv_run *r = ep->run;
	const struct rwv_opts *o = &ep->o;
	int qps = o->qps;

	if (device_fits(ep) || pd_and_cqs(ep, responder))
		return -1;
	ep->q = calloc((size_t)qps, sizeof(*ep->q));
	r->qp = calloc((size_t)qps, sizeof(*r->qp));
	if (!ep->q || !r->qp)
		return seterr(ep, "out of memory for %d QPs", qps);
	ep->nqp = r->nqp = qps;
	r->slots = rwv_slots(o->iters, o->tx_depth);
	r->slot_size = rwv_slot_size(o->op, o->size);

	int access = IBV_ACCESS_LOCAL_WRITE;
	if (o->transport == RWV_RC)
		access |= IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
	else if (o->transport == RWV_UC)
		access |= IBV_ACCESS_REMOTE_WRITE;
	for (int i = 0; i < qps; i++)
		if (qp_buffers(ep, i, access, responder) || qp_create(ep, i, access, responder))
			return -1;
	return responder ? 0 : requester_extras(ep);
}

int rwv_connect_qp(struct rwv_ep *ep, int i)
{
	struct rwv_run *r = ep->run;
	const struct rwv_opts *o = &ep->o;
	struct rwv_qp *q = &ep->q[i];
	struct rwv_qp_rec *rq = &r->qp[i];
	struct ibv_ah_attr ah = {0};
	struct ibv_qp_attr a = {0};
	uint8_t dgid[16];
	int mask;

	if (rwv_gid_parse(r->remote_gid, dgid))
		return seterr(ep, "the peer's GID '%s' is not a GID", r->remote_gid);
	ah.is_global = 1;
	memcpy(ah.grh.dgid.raw, dgid, 16);
	ah.grh.sgid_index = (uint8_t)ep->gid_index;
	ah.grh.hop_limit = (uint8_t)r->hop_limit;
	/* The traffic class goes to the IPv4 TOS / IPv6 traffic class byte of
	 * RoCE v2 (IBA A17.4.5.1): its ECN bits make the traffic ECN-capable. */
	ah.grh.traffic_class = (uint8_t)r->tclass;
	ah.dlid = rq->remote.lid;
	ah.sl = (uint8_t)r->sl;
	ah.port_num = (uint8_t)o->ib_port;

	if (o->transport == RWV_UD) {
		a.qp_state = IBV_QPS_RTR;
		if (ibv_modify_qp(q->qp, &a, IBV_QP_STATE))
			return seterr(ep, "ibv_modify_qp(QP %d to RTR) on %s: %s", i, r->device,
				      strerror(errno));
		a.qp_state = IBV_QPS_RTS;
		a.sq_psn = rq->local.psn;
		if (ibv_modify_qp(q->qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN))
			return seterr(ep, "ibv_modify_qp(QP %d to RTS) on %s: %s", i, r->device,
				      strerror(errno));
		if (o->role == RWV_CLIENT) {
			q->ah = ibv_create_ah(ep->pd, &ah);
			if (!q->ah)
				return seterr(ep, "ibv_create_ah toward %s (GID index %d, traffic class "
					      "%d) on %s: %s (no route or neighbour for the peer?)",
					      r->remote_gid, ep->gid_index, r->tclass, r->device,
					      strerror(errno));
		}
		return 0;
	}

	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = rwv_mtu_enum(r->mtu);
	a.dest_qp_num = rq->remote.qpn;
	a.rq_psn = rq->remote.psn;
	a.ah_attr = ah;
	mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
	if (o->transport == RWV_RC) {
		a.max_dest_rd_atomic = (uint8_t)r->max_dest_rd_atomic;
		a.min_rnr_timer = (uint8_t)r->min_rnr_timer;
		mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	}
	if (ibv_modify_qp(q->qp, &a, mask)) {
		int e = errno;
		/* RoCE resolves the peer's MAC from the GID's IP while going to RTR. */
		bool l2 = e == ETIMEDOUT || e == EHOSTUNREACH || e == ENETUNREACH || e == ENODATA;
		return seterr(ep, "ibv_modify_qp(QP %d to RTR) on %s: %s (path MTU %d, port MTU "
			      "%d, remote QPN 0x%06x, GID index %d, peer GID %s)%s", i, r->device,
			      strerror(e), r->mtu, r->active_mtu, rq->remote.qpn, ep->gid_index,
			      r->remote_gid, l2 ? ": no route or no neighbour (ARP) answer for the "
			      "peer's address; add a route, or a permanent neighbour entry" : "");
	}

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = rq->local.psn;
	mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
	if (o->transport == RWV_RC) {
		a.timeout = (uint8_t)r->timeout_exp;
		a.retry_cnt = (uint8_t)r->retry_count;
		a.rnr_retry = (uint8_t)r->rnr_retry;
		a.max_rd_atomic = (uint8_t)r->max_rd_atomic;
		mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;
	}
	if (ibv_modify_qp(q->qp, &a, mask))
		return seterr(ep, "ibv_modify_qp(QP %d to RTS) on %s: %s", i, r->device,
			      strerror(errno));
	return 0;
}

static int post_recv(struct rwv_ep *ep, int i)
{
	struct rwv_qp *q = &ep->q[i];
	struct rwv_qp_rec *rq = &ep->run->qp[i];
	struct ibv_recv_wr wr = {0}, *bad = NULL;
	struct ibv_sge sge;

	wr.wr_id = RWV_WRID(i, rq->recv_posted);
	if (q->rbuf) {
		sge.addr = (uintptr_t)(q->rbuf + (size_t)(rq->recv_posted % q->rslots) * q->rstride);
		sge.length = q->rstride;
		sge.lkey = q->rmr->lkey;
		wr.sg_list = &sge;
		wr.num_sge = 1;
	}
	if (ibv_post_recv(q->qp, &wr, &bad))
		return seterr(ep, "ibv_post_recv on QP %d: %s", i, strerror(errno));
	rq->recv_posted++;
	return 0;
}

int rwv_responder_prepare(struct rwv_ep *ep, const struct rwv_fixed_pat *fp)
{
	struct rwv_run *r = ep->run;
	const struct rwv_opts *o = &ep->o;

	for (int i = 0; i < ep->nqp; i++) {
		struct rwv_qp *q = &ep->q[i];
		uint32_t pqp = (uint32_t)(i + o->pattern_qp);
		if (o->op == RWV_OP_READ) {
			for (uint32_t s = 0; s < r->slots; s++) {
				uint8_t *p = q->buf + (size_t)s * r->slot_size;
				if (fp)
					rwv_fixed_pat_fill(p, r->slot_size, fp);
				else
					rwv_pat_fill(p, r->slot_size, pqp, s);
			}
		} else if (rwv_op_is_atomic(o->op)) {
			uint64_t a0 = rwv_atomic_initial(pqp);
			memcpy(q->buf, &a0, sizeof(a0));
		}
		if (rwv_op_uses_recv(o->op) && !o->no_recv) {
			uint64_t n = o->iters < (uint32_t)o->rx_depth ? o->iters : (uint32_t)o->rx_depth;
			for (uint64_t k = 0; k < n; k++)
				if (post_recv(ep, i))
					return -1;
		}
	}
	return 0;
}

void rwv_ep_destroy(struct rwv_ep *ep)
{
	for (int i = 0; ep->q && i < ep->nqp; i++) {
		struct rwv_qp *q = &ep->q[i];
		if (q->ah)
			ibv_destroy_ah(q->ah);
		if (q->qp)
			ibv_destroy_qp(q->qp);
		if (q->mr)
			ibv_dereg_mr(q->mr);
		if (q->rmr)
			ibv_dereg_mr(q->rmr);
		free(q->buf);
		free(q->rbuf);
		free(q->post_ns);
	}
	free(ep->q);
	ep->q = NULL;
	if (ep->scq)
		ibv_destroy_cq(ep->scq);
	if (ep->rcq)
		ibv_destroy_cq(ep->rcq);
	if (ep->chan)
		ibv_destroy_comp_channel(ep->chan);
	if (ep->pd)
		ibv_dealloc_pd(ep->pd);
	if (ep->ctx)
		ibv_close_device(ep->ctx);
	free(ep->lat);
	ep->lat = NULL;
	ep->scq = ep->rcq = NULL;
	ep->chan = NULL;
	ep->pd = NULL;
	ep->ctx = NULL;
}

static void note_wc(struct rwv_qp_rec *rq, const struct ibv_wc *wc)
{
	int s = (int)wc->status;
	rq->wc_total++;
	rq->wc_by_status[s < RWV_WC_STATUS_MAX ? s : RWV_WC_STATUS_MAX - 1]++;
}

static void note_error(struct rwv_ep *ep, int qi, const struct ibv_wc *wc, uint64_t iter,
		       bool recv)
{
	struct rwv_qp_rec *rq = &ep->run->qp[qi];
	const char *name = rwv_wr_name(ep->o.op, recv);

	if (rq->nerrors < RWV_ERRORS_KEPT) {
		struct rwv_wc_error *e = &rq->errors[rq->nerrors++];
		e->iter = iter;
		e->opcode = name;
		e->status = (int)wc->status;
		e->vendor_err = wc->vendor_err;
	}
	/* The first error names the run's failure; the flushes that follow it
	 * (IBA 10.3.1: a QP in error completes the rest with "flushed") do not. */
	if (!ep->run->error[0] && wc->status != IBV_WC_WR_FLUSH_ERR)
		seterr(ep, "QP %d (QPN 0x%06x) %s %s %llu completed with \"%s\" (status %d, "
		       "vendor_err 0x%x)", qi, ep->run->qp[qi].local.qpn, name,
		       recv ? "number" : "iteration", (unsigned long long)iter,
		       ibv_wc_status_str(wc->status), (int)wc->status, wc->vendor_err);
}

static void note_mismatch(struct rwv_qp_rec *rq, const char *what, uint64_t iter,
			  uint64_t off, uint64_t want, uint64_t got)
{
	rq->mismatched++;
	if (rq->have_mismatch)
		return;
	rq->have_mismatch = true;
	rq->mm_what = what;
	rq->mm_iter = iter;
	rq->mm_offset = off;
	rq->mm_want = want;
	rq->mm_got = got;
}

/* Checks n bytes at p against the expected message; counts the result. */
static void check_bytes(struct rwv_qp_rec *rq, const uint8_t *p, size_t n, uint32_t pqp,
			uint64_t iter, const struct rwv_fixed_pat *fp)
{
	uint8_t want = 0;
	size_t off = fp ? rwv_fixed_pat_check(p, n, fp, &want)
			: rwv_pat_check(p, n, pqp, iter, &want);
	rq->checked++;
	if (off != n)
		note_mismatch(rq, "data", iter, off, want, p[off]);
}

int rwv_post_sends(struct rwv_ep *ep)
{
	struct rwv_run *r = ep->run;
	const struct rwv_opts *o = &ep->o;
	bool inl = o->inline_size && o->size <= o->inline_size;
	uint32_t len = rwv_slot_size(o->op, o->size);

	for (int i = 0; i < ep->nqp; i++) {
		struct rwv_qp *q = &ep->q[i];
		struct rwv_qp_rec *rq = &r->qp[i];
		uint32_t rkey = o->bad_rkey ? ~rq->remote.rkey : rq->remote.rkey;

		while (!q->dead && q->outstanding < (uint64_t)o->tx_depth && q->next_iter < o->iters) {
			uint64_t it = q->next_iter;
			uint32_t slot = (uint32_t)(it % r->slots);
			uint8_t *p = q->buf + (size_t)slot * r->slot_size;
			struct ibv_sge sge = {.addr = (uintptr_t)p, .length = len, .lkey = q->mr->lkey};
			struct ibv_send_wr wr = {0}, *bad = NULL;

			wr.wr_id = RWV_WRID(i, it);
			wr.sg_list = &sge;
			wr.num_sge = 1;
			wr.send_flags = IBV_SEND_SIGNALED;
			switch (o->op) {
			case RWV_OP_SEND:
			case RWV_OP_SEND_IMM:
				wr.opcode = o->op == RWV_OP_SEND ? IBV_WR_SEND : IBV_WR_SEND_WITH_IMM;
				break;
			case RWV_OP_WRITE:
			case RWV_OP_WRITE_IMM:
				wr.opcode = o->op == RWV_OP_WRITE ? IBV_WR_RDMA_WRITE
								  : IBV_WR_RDMA_WRITE_WITH_IMM;
				wr.wr.rdma.remote_addr = rq->remote.addr + (uint64_t)slot * r->slot_size;
				wr.wr.rdma.rkey = rkey;
				break;
			case RWV_OP_READ:
				wr.opcode = IBV_WR_RDMA_READ;
				wr.wr.rdma.remote_addr = rq->remote.addr + (uint64_t)slot * r->slot_size;
				wr.wr.rdma.rkey = rkey;
				break;
			case RWV_OP_CAS:
			case RWV_OP_FADD: {
				uint64_t next = rwv_atomic_next((uint32_t)i, it, q->atomic_post);
				wr.opcode = o->op == RWV_OP_CAS ? IBV_WR_ATOMIC_CMP_AND_SWP
								: IBV_WR_ATOMIC_FETCH_AND_ADD;
				wr.wr.atomic.remote_addr = rq->remote.addr;
				wr.wr.atomic.rkey = rkey;
				wr.wr.atomic.compare_add = o->op == RWV_OP_CAS
					? q->atomic_post : rwv_atomic_add((uint32_t)i, it);
				wr.wr.atomic.swap = next;
				q->atomic_post = next;
				break;
			}
			}
			if (o->op == RWV_OP_SEND_IMM || o->op == RWV_OP_WRITE_IMM)
				wr.imm_data = htonl((uint32_t)it); /* ImmDt = the iteration */
			if (r->check) {
				if (o->op == RWV_OP_READ || rwv_op_is_atomic(o->op))
					memset(p, 0, len); /* a READ that lands nothing must not pass */
				else
					rwv_pat_fill(p, len, (uint32_t)i, it);
			}
			if (inl && wr.opcode != IBV_WR_RDMA_READ && !rwv_op_is_atomic(o->op))
				wr.send_flags |= IBV_SEND_INLINE;
			if (o->transport == RWV_UD) {
				wr.wr.ud.ah = q->ah;
				wr.wr.ud.remote_qpn = rq->remote.qpn;
				wr.wr.ud.remote_qkey = rq->remote.qkey;
			}
			uint64_t t = rwv_now_ns();
			q->post_ns[slot] = t;
			if (ibv_post_send(q->qp, &wr, &bad)) {
				q->dead = true;
				if (!r->error[0])
					seterr(ep, "ibv_post_send on QP %d, iteration %llu: %s", i,
					       (unsigned long long)it, strerror(errno));
				return -1;
			}
			if (!ep->first_ns)
				ep->first_ns = t;
			rq->posted++;
			rq->posted_bytes += len;
			q->outstanding++;
			q->next_iter++;
		}
	}
	return 0;
}

void rwv_send_completion(struct rwv_ep *ep, const struct ibv_wc *wc, uint64_t now_ns)
{
	struct rwv_run *r = ep->run;
	const struct rwv_opts *o = &ep->o;
	int qi = RWV_WRID_QP(wc->wr_id);
	uint64_t it = RWV_WRID_ITER(wc->wr_id);

	if (qi < 0 || qi >= ep->nqp)
		return;
	struct rwv_qp *q = &ep->q[qi];
	struct rwv_qp_rec *rq = &r->qp[qi];
	uint32_t slot = (uint32_t)(it % r->slots);
	uint32_t len = rwv_slot_size(o->op, o->size);
	uint8_t *p = q->buf + (size_t)slot * r->slot_size;

	if (q->outstanding)
		q->outstanding--;
	note_wc(rq, wc);
	if (wc->status != IBV_WC_SUCCESS) {
		rq->failed++;
		q->dead = true;
		note_error(ep, qi, wc, it, false);
		return;
	}
	rq->completed++;
	rq->completed_bytes += len;
	ep->last_ns = now_ns;
	if (ep->nlat < ep->caplat)
		ep->lat[ep->nlat++] = now_ns - q->post_ns[slot];
	if (!r->check)
		return;
	if (o->op == RWV_OP_READ) {
		/* Remote slot s holds message (qp, s): README "Buffers". */
		check_bytes(rq, p, len, (uint32_t)qi, slot, NULL);
	} else if (rwv_op_is_atomic(o->op)) {
		uint64_t got, want = q->atomic_seen;
		memcpy(&got, p, sizeof(got));
		rq->checked++;
		if (it != q->atomic_seen_iter) {
			note_mismatch(rq, "order", it, 0, q->atomic_seen_iter, it);
		} else {
			if (got != want)
				note_mismatch(rq, "value", it, 0, want, got);
			q->atomic_seen = rwv_atomic_next((uint32_t)qi, it, want);
			q->atomic_seen_iter++;
		}
	}
}

void rwv_recv_completion(struct rwv_ep *ep, const struct ibv_wc *wc, uint64_t now_ns,
			 const struct rwv_fixed_pat *fp)
{
	struct rwv_run *r = ep->run;
	const struct rwv_opts *o = &ep->o;
	int qi = RWV_WRID_QP(wc->wr_id);
	uint64_t n = RWV_WRID_ITER(wc->wr_id);

	if (qi < 0 || qi >= ep->nqp)
		return;
	struct rwv_qp *q = &ep->q[qi];
	struct rwv_qp_rec *rq = &r->qp[qi];
	uint32_t pqp = (uint32_t)(qi + o->pattern_qp);
	size_t grh = o->transport == RWV_UD ? RWV_UD_GRH : 0;

	note_wc(rq, wc);
	if (wc->status != IBV_WC_SUCCESS) {
		rq->recv_failed++;
		note_error(ep, qi, wc, n, true);
		return;
	}
	uint32_t blen = wc->byte_len >= grh ? (uint32_t)(wc->byte_len - grh) : 0;
	rq->recv_completed++;
	rq->recv_bytes += blen;
	if (!ep->first_ns)
		ep->first_ns = now_ns;
	ep->last_ns = now_ns;

	if (r->check) {
		const uint8_t *p = q->rbuf ? q->rbuf + (size_t)(n % q->rslots) * q->rstride + grh
					   : NULL;
		uint64_t it = q->recv_expect;
		uint32_t hq;
		uint64_t hi;

		/* Which message is this? ImmDt carries the iteration; else the pattern's
		 * header; else (short messages, fixed patterns) the order of arrival. */
		if (wc->wc_flags & IBV_WC_WITH_IMM)
			it = ntohl(wc->imm_data);
		else if (p && !fp && blen >= 8 && rwv_pat_identify(p, blen, &hq, &hi) == 0 &&
			 hq == (pqp & 0xffff))
			it = hi;
		if (it < q->recv_expect || (o->transport == RWV_RC && it != q->recv_expect))
			rq->out_of_order++;
		if (it >= q->recv_expect)
			q->recv_expect = it + 1;
		if (p) {
			if (blen != o->size) {
				rq->checked++;
				note_mismatch(rq, "length", it, 0, o->size, blen);
			} else {
				check_bytes(rq, p, blen, pqp, it, fp);
			}
		}
		if ((wc->wc_flags & IBV_WC_WITH_IMM) && !p)
			rq->checked++; /* WRITE_IMM: the data is checked in the buffer at the end */
	}
	if (!o->no_recv && rq->recv_posted < o->iters)
		post_recv(ep, qi);
}

bool rwv_check_buffer(struct rwv_ep *ep, const uint64_t *ops, const struct rwv_fixed_pat *fp,
		      bool record)
{
	struct rwv_run *r = ep->run;
	const struct rwv_opts *o = &ep->o;
	bool all = true;

	for (int i = 0; i < ep->nqp; i++) {
		struct rwv_qp *q = &ep->q[i];
		struct rwv_qp_rec *rq = &r->qp[i];
		uint32_t pqp = (uint32_t)(i + o->pattern_qp);
		uint64_t n = ops ? ops[i] : o->iters;

		if (o->op == RWV_OP_WRITE || o->op == RWV_OP_WRITE_IMM) {
			for (uint64_t s = 0; s < r->slots && s < n; s++) {
				/* The last iteration that wrote slot s. */
				uint64_t last = s + (uint64_t)r->slots * ((n - 1 - s) / r->slots);
				const uint8_t *p = q->buf + (size_t)s * r->slot_size;
				uint8_t want = 0;
				size_t off = fp ? rwv_fixed_pat_check(p, r->slot_size, fp, &want)
						: rwv_pat_check(p, r->slot_size, pqp, last, &want);
				if (off != r->slot_size) {
					all = false;
					if (!record)
						return false;
					note_mismatch(rq, "data", last, off, want, p[off]);
				}
				if (record)
					rq->checked++;
			}
		} else if (rwv_op_is_atomic(o->op)) {
			uint64_t want = rwv_atomic_initial(pqp), got;
			for (uint64_t k = 0; k < n; k++)
				want = rwv_atomic_next(pqp, k, want);
			memcpy(&got, q->buf, sizeof(got));
			if (got != want) {
				all = false;
				if (!record)
					return false;
				note_mismatch(rq, "value", n, 0, want, got);
			}
			if (record)
				rq->checked++;
		}
	}
	return all;
}

void rwv_flush(struct rwv_ep *ep, bool sends, int timeout_ms)
{
	struct ibv_qp_attr a = {.qp_state = IBV_QPS_ERR};
	uint64_t end = rwv_now_ns() + (uint64_t)timeout_ms * 1000000ull;
	struct ibv_wc wc[32];

	for (int i = 0; i < ep->nqp; i++)
		if (ep->q[i].qp)
			ibv_modify_qp(ep->q[i].qp, &a, IBV_QP_STATE);
	if (!sends)
		return;
	for (;;) {
		uint64_t left = 0;
		for (int i = 0; i < ep->nqp; i++)
			left += ep->q[i].outstanding;
		if (!left || rwv_now_ns() > end)
			break;
		int n = ibv_poll_cq(ep->scq, 32, wc);
		for (int k = 0; k < n; k++)
			rwv_send_completion(ep, &wc[k], rwv_now_ns());
	}
}
