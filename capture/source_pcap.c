/* SPDX-License-Identifier: BSD-3-Clause */
/* The default live source: a network interface through libpcap, and -d.
 *
 * The handle is non-blocking and hands packets over a ring block at a time
 * (see configure()); its dispatch
 * waits in poll() on pcap_get_selectable_fd() with a timeout, so the caller
 * regains control at least every timeout_ms whether or not traffic flows:
 * the capture never hangs on an idle interface, and a signal handler only
 * has to set a flag (and call pcap_breakloop). */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cap.h"
#include "fmt.h"

#define DISPATCH_BATCH 4096

static int linktype_supported(int lt)
{
	return lt == RW_LINKTYPE_ETHERNET || lt == RW_LINKTYPE_LINUX_SLL ||
	       lt == RW_LINKTYPE_LINUX_SLL2 || lt == RW_LINKTYPE_ERF ||
	       lt == RW_LINKTYPE_INFINIBAND;
}

/* ---- opening ------------------------------------------------------------- */

static void activate_error(struct cap_live *l, pcap_t *p, int rc)
{
	const char *why = pcap_geterr(p);

	switch (rc) {
	case PCAP_ERROR_NO_SUCH_DEVICE:
		snprintf(l->err, sizeof(l->err),
			 "%s: no such interface (%s); '" CAP_PROG " -D' lists them", l->name, why);
		break;
	case PCAP_ERROR_PERM_DENIED:
		snprintf(l->err, sizeof(l->err),
			 "%s: permission denied (%s): live capture needs root or the CAP_NET_RAW and "
			 "CAP_NET_ADMIN capabilities",
			 l->name, why);
		break;
	case PCAP_ERROR_IFACE_NOT_UP:
		snprintf(l->err, sizeof(l->err), "%s: the interface is down (ip link set %s up)",
			 l->name, l->name);
		break;
	case PCAP_ERROR_PROMISC_PERM_DENIED:
		snprintf(l->err, sizeof(l->err),
			 "%s: no permission to enable promiscuous mode (%s); use -p to capture without it",
			 l->name, why);
		break;
	default:
		snprintf(l->err, sizeof(l->err), "%s: cannot capture: %s%s%s", l->name,
			 pcap_statustostr(rc), why && why[0] ? ": " : "", why ? why : "");
		break;
	}
	l->err_status = CAP_EXIT_USAGE;
}

/* The kernel buffer without -B: CAP_BURST_MS of traffic at the interface's
 * speed as sysfs gives it (Mb/s; absent or -1 for virtual devices and
 * "any"), never less than the default. */
static uint32_t auto_buffer_kib(const char *iface)
{
	char path[128];
	long mbps = -1;
	if (strlen(iface) < 64 && !strchr(iface, '/')) {
		snprintf(path, sizeof(path), "/sys/class/net/%s/speed", iface);
		FILE *f = fopen(path, "r");
		if (f) {
			if (fscanf(f, "%ld", &mbps) != 1)
				mbps = -1;
			fclose(f);
		}
	}
	if (mbps <= 0)
		return CAP_DEFAULT_BUFFER_KIB;
	uint64_t kib = (uint64_t)mbps * 1000000 / 8 * CAP_BURST_MS / 1000 / 1024;
	if (kib < CAP_DEFAULT_BUFFER_KIB)
		kib = CAP_DEFAULT_BUFFER_KIB;
	return kib > CAP_MAX_AUTO_BUFFER_KIB ? CAP_MAX_AUTO_BUFFER_KIB : (uint32_t)kib;
}

/* Returns the ring's size in bytes. */
static uint64_t configure(pcap_t *p, const char *iface, const struct cap_opts *o)
{
	uint32_t kib = o->buffer_given ? o->buffer_kib : auto_buffer_kib(iface);
	pcap_set_snaplen(p, (int)o->snaplen);
	pcap_set_promisc(p, !o->no_promisc);
	/* Packets a block at a time (TPACKET_V3): the kernel wakes the capture
	 * when a block of the ring is full or its timeout ends, not for every
	 * packet — most of what a capture costs at high rates is those
	 * wake-ups. Only a person reading packets one by one on a terminal
	 * gets them sooner, and a short timeout is enough for that; -c, the
	 * live table and the end of the capture wait at most the timeout. */
	pcap_set_immediate_mode(p, 0);
	pcap_set_timeout(p, o->interactive ? CAP_LIVE_TIMEOUT_TTY_MS : CAP_LIVE_TIMEOUT_MS);
	if (kib)
		pcap_set_buffer_size(p, kib > INT32_MAX / 1024 ? INT32_MAX : (int)kib * 1024);
	/* libpcap's own default: 2 MiB */
	return kib ? (kib > INT32_MAX / 1024 ? INT32_MAX : (uint64_t)kib * 1024) : 2u << 20;
}

/* Creates and activates the handle; does not set a filter. */
static int activate(struct cap_live *l, const struct cap_opts *o)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	pcap_t *p = pcap_create(l->name, errbuf);
	int rc;

	if (!p) {
		snprintf(l->err, sizeof(l->err), "%s: cannot capture: %s", l->name, errbuf);
		l->err_status = CAP_EXIT_USAGE;
		return -1;
	}
	l->pcap = p;
	l->ring_bytes = configure(p, l->name, o);
	/* Nanoseconds when the kernel gives them; microseconds otherwise
	 * (checked again after activation). */
	pcap_set_tstamp_precision(p, PCAP_TSTAMP_PRECISION_NANO);
	rc = pcap_activate(p);
	if (rc == PCAP_ERROR_TSTAMP_PRECISION_NOTSUP) {
		pcap_close(p);
		p = l->pcap = pcap_create(l->name, errbuf);
		if (!p) {
			snprintf(l->err, sizeof(l->err), "%s: cannot capture: %s", l->name, errbuf);
			l->err_status = CAP_EXIT_USAGE;
			return -1;
		}
		l->ring_bytes = configure(p, l->name, o);
		rc = pcap_activate(p);
	}
	if (rc < 0) {
		activate_error(l, p, rc);
		return -1;
	}
	if (rc > 0) /* a warning: capture goes on */
		fprintf(stderr, "%s: %s: warning: %s\n", CAP_PROG, l->name,
			rc == PCAP_WARNING ? pcap_geterr(p) : pcap_statustostr(rc));
	l->nano = pcap_get_tstamp_precision(p) == PCAP_TSTAMP_PRECISION_NANO;

	if (o->linktype >= 0 && pcap_set_datalink(p, o->linktype) != 0) {
		int *dlts = NULL, n = pcap_list_datalinks(p, &dlts);
		char offered[256] = "";
		size_t len = 0;
		for (int i = 0; i < n && len < sizeof(offered) - 1; i++) {
			const char *nm = pcap_datalink_val_to_name(dlts[i]);
			len += (size_t)snprintf(offered + len, sizeof(offered) - len, "%s%s",
						i ? ", " : "", nm ? nm : "?");
		}
		if (n > 0)
			pcap_free_datalinks(dlts);
		char lt[128];
		snprintf(l->err, sizeof(l->err), "%s: link type %s is not offered by this interface (offered: %s)",
			 l->name, cap_dlt_name(o->linktype, lt, sizeof(lt)), offered);
		l->err_status = CAP_EXIT_USAGE;
		return -1;
	}
	l->linktype = pcap_datalink(p);
	l->snaplen = (uint32_t)pcap_snapshot(p);
	return 0;
}

static void pcap_src_close(struct cap_live *l);

static int pcap_src_open(struct cap_live *l, const char *iface, const struct cap_opts *o)
{
	char fbuf[4096], lt[128];
	const char *text;

	(void)iface; /* l->name: the whole -i argument */
	if (activate(l, o) != 0)
		goto fail;
	if (!linktype_supported(l->linktype)) {
		snprintf(l->err, sizeof(l->err),
			 "%s: link type %s cannot carry RoCE or InfiniBand; expected Ethernet, Linux "
			 "SLL or SLL2 (-y)",
			 l->name, cap_dlt_name(l->linktype, lt, sizeof(lt)));
		goto fail;
	}
	text = cap_filter_text(o, l->linktype, fbuf, sizeof(fbuf), l->filter_desc, sizeof(l->filter_desc));
	if (text) {
		if (cap_filter_compile(l, l->pcap, text) != 0)
			goto fail;
		if (pcap_setfilter(l->pcap, &l->prog) != 0) {
			snprintf(l->err, sizeof(l->err), "%s: cannot set the filter: %s", l->name,
				 pcap_geterr(l->pcap));
			goto fail;
		}
	}
	char errbuf[PCAP_ERRBUF_SIZE];
	if (pcap_setnonblock(l->pcap, 1, errbuf) != 0) {
		snprintf(l->err, sizeof(l->err), "%s: cannot capture: %s", l->name, errbuf);
		goto fail;
	}
	l->fd = pcap_get_selectable_fd(l->pcap);
	if (l->fd < 0) {
		snprintf(l->err, sizeof(l->err), "%s: cannot capture: no descriptor to wait on",
			 l->name);
		goto fail;
	}
	l->drops.known = 1;
	return 0;
fail:
	pcap_src_close(l);
	return -1;
}

/* ---- packets ------------------------------------------------------------- */

struct pcb {
	struct cap_live *l;
	cap_live_fn fn;
	void *arg;
};

static void on_pcap(u_char *user, const struct pcap_pkthdr *h, const u_char *data)
{
	struct pcb *cb = (struct pcb *)(void *)user;
	struct cap_live *l = cb->l;
	struct cap_record r;

	r.index = ++l->index;
	r.ts_sec = (int64_t)h->ts.tv_sec;
	r.ts_nsec = l->nano ? (uint32_t)h->ts.tv_usec : (uint32_t)h->ts.tv_usec * 1000u;
	r.caplen = h->caplen;
	r.wirelen = h->len > h->caplen ? h->len : h->caplen;
	r.linktype = l->linktype;
	r.data = data;
	r.src = NULL;
	cb->fn(cb->arg, &r);
}

static int pcap_src_dispatch(struct cap_live *l, int timeout_ms, cap_live_fn fn, void *arg)
{
	if (l->stop)
		return 0;

	struct pollfd pfd = {.fd = l->fd, .events = POLLIN};
	int n = poll(&pfd, 1, timeout_ms);
	if (n < 0) {
		if (errno == EINTR)
			return 0;
		snprintf(l->err, sizeof(l->err), "%s: capture failed: poll: %s", l->name,
			 strerror(errno));
		l->err_status = CAP_EXIT_USAGE;
		return -1;
	}
	if (n == 0 || l->stop)
		return 0;
	if (pfd.revents & (POLLERR | POLLNVAL)) {
		/* libpcap reports the reason (the interface went down) from
		 * the next read; fall through to it. */
	}
	struct pcb cb = {l, fn, arg};
	n = pcap_dispatch(l->pcap, DISPATCH_BATCH, on_pcap, (u_char *)&cb);
	if (n == PCAP_ERROR_BREAK)
		return 0;
	if (n < 0) {
		snprintf(l->err, sizeof(l->err), "%s: capture failed: %s", l->name,
			 pcap_geterr(l->pcap));
		l->err_status = CAP_EXIT_USAGE;
		return -1;
	}
	return n;
}

static int pcap_src_drain(struct cap_live *l, cap_live_fn fn, void *arg)
{
	int total = 0;
	if (!l->pcap)
		return 0;
	/* The ring's last block is handed over when its timeout ends: wait that
	 * long once more, then take what is left, so that what arrived before
	 * the end is written, not silently left in the kernel. */
	l->stop = 0;
	for (int round = 0; round < 4; round++) {
		int n = pcap_src_dispatch(l, CAP_LIVE_TIMEOUT_MS + 20, fn, arg);
		if (n <= 0 || l->stop)
			break;
		total += n;
	}
	l->stop = 1;
	return total;
}

static void pcap_src_breakloop(struct cap_live *l)
{
	if (l->pcap)
		pcap_breakloop(l->pcap);
}

static void pcap_src_update_drops(struct cap_live *l)
{
	struct pcap_stat ps;

	if (!l->pcap || pcap_stats(l->pcap, &ps) != 0)
		return;
	/* 32-bit counters: add the difference, which survives one wrap
	 * between two calls. */
	l->drops.recv += (uint32_t)(ps.ps_recv - l->last_recv);
	l->drops.kernel += (uint32_t)(ps.ps_drop - l->last_drop);
	l->drops.ifdrop += (uint32_t)(ps.ps_ifdrop - l->last_ifdrop);
	l->last_recv = ps.ps_recv;
	l->last_drop = ps.ps_drop;
	l->last_ifdrop = ps.ps_ifdrop;
}

static void pcap_src_close(struct cap_live *l)
{
	if (l->has_prog)
		pcap_freecode(&l->prog);
	l->has_prog = 0;
	if (l->pcap)
		pcap_close(l->pcap);
	l->pcap = NULL;
	l->fd = -1;
}

/* ---- -D and -d ----------------------------------------------------------- */

static int pcap_src_list(FILE *out, int first)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_if_t *all = NULL;
	int n = first - 1;

	if (pcap_findalldevs(&all, errbuf) != 0) {
		fprintf(stderr, "%s: cannot list the interfaces: %s\n", CAP_PROG, errbuf);
		return -1;
	}
	for (pcap_if_t *d = all; d; d = d->next) {
		const char *conn = "";
		switch (d->flags & PCAP_IF_CONNECTION_STATUS) {
		case PCAP_IF_CONNECTION_STATUS_CONNECTED:
			conn = ", Connected";
			break;
		case PCAP_IF_CONNECTION_STATUS_DISCONNECTED:
			conn = ", Disconnected";
			break;
		}
		/* Linux lets an interface name hold control characters. */
		char nb[1024];
		fprintf(out, "%d.%s", ++n, cap_esc(nb, sizeof(nb), d->name));
		if (d->description)
			fprintf(out, " (%s)", cap_esc(nb, sizeof(nb), d->description));
		fprintf(out, " [%s%s%s%s]\n", (d->flags & PCAP_IF_UP) ? "Up" : "Down",
			(d->flags & PCAP_IF_RUNNING) ? ", Running" : "",
			(d->flags & PCAP_IF_LOOPBACK) ? ", Loopback" : "", conn);
	}
	pcap_freealldevs(all);
	return n - (first - 1);
}

int cap_dump_filter(const struct cap_opts *o)
{
	static struct cap_live l;
	char fbuf[4096], desc[160];
	const char *text;
	pcap_t *p;

	memset(&l, 0, sizeof(l));
	if (o->iface && strncmp(o->iface, "rdma:", 5) != 0) {
		/* The program for the live handle: on Linux its "vlan" tests
		 * read the tag the kernel took out of the frame. */
		l.name = o->iface;
		if (activate(&l, o) != 0) {
			fprintf(stderr, "%s: %s\n", CAP_PROG, l.err);
			pcap_src_close(&l);
			return l.err_status;
		}
		p = l.pcap;
	} else {
		l.name = o->iface ? o->iface : o->filter ? "-f" : "the default filter";
		l.linktype = o->linktype >= 0 ? o->linktype : DLT_EN10MB;
		p = l.pcap = pcap_open_dead(l.linktype, (int)o->snaplen);
		if (!p) {
			fprintf(stderr, "%s: out of memory\n", CAP_PROG);
			return CAP_EXIT_USAGE;
		}
	}
	text = cap_filter_text(o, l.linktype, fbuf, sizeof(fbuf), desc, sizeof(desc));
	if (!text) {
		text = ""; /* every packet: libpcap compiles "" to accept all */
	}
	if (cap_filter_compile(&l, p, text) != 0) {
		fprintf(stderr, "%s: %s\n", CAP_PROG, l.err);
		pcap_src_close(&l);
		return CAP_EXIT_USAGE;
	}
	bpf_dump(&l.prog, 1);
	fflush(stdout);
	pcap_src_close(&l);
	return CAP_EXIT_OK;
}

const struct cap_live_ops cap_live_pcap_ops = {
	.prefix = "",
	.open = pcap_src_open,
	.dispatch = pcap_src_dispatch,
	.drain = pcap_src_drain,
	.breakloop = pcap_src_breakloop,
	.update_drops = pcap_src_update_drops,
	.close = pcap_src_close,
	.list = pcap_src_list,
};
