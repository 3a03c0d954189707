/* SPDX-License-Identifier: BSD-3-Clause */
/* Live capture: the sources this program carries, chosen by the prefix of
 * -i (rdma:DEVICE, dpdk:EAL-OPTIONS, else a network interface), and the
 * calls that go to the chosen one through its ops (cap.h). A prefix whose
 * source was not built is answered with what to install. */
#include <string.h>

#include "cap.h"

static const struct cap_live_ops *const sources[] = {
#ifdef ROCEWIRE_HAVE_VERBS
	&cap_live_rdma_ops,
#endif
#ifdef CAP_WITH_DPDK
	&cap_live_dpdk_ops,
#endif
	&cap_live_pcap_ops, /* prefix "": last, it takes any name */
};

/* Prefixes of sources this build left out, and why. (rocewire-cap hands
 * dpdk: over to rocewire-cap-dpdk before it gets here: main.c.) */
static const struct {
	const char *prefix, *why;
} absent[] = {
#ifndef ROCEWIRE_HAVE_VERBS
	{"rdma:", "was built without libibverbs, so it cannot capture from RDMA devices (rebuild with "
		  "libibverbs installed and -DROCEWIRE_WITH_VERBS=ON)"},
#endif
#ifndef CAP_WITH_DPDK
	{"dpdk:", "has no DPDK, and rocewire-cap-dpdk (built when DPDK is installed) was not found next "
		  "to it or in PATH"},
#endif
	{NULL, NULL},
};

int cap_live_open(struct cap_live *l, const struct cap_opts *o)
{
	memset(l, 0, sizeof(*l));
	l->name = o->iface;
	l->fd = -1;
	l->err_status = CAP_EXIT_USAGE;
	for (size_t i = 0; absent[i].prefix; i++) {
		if (strncmp(o->iface, absent[i].prefix, strlen(absent[i].prefix)) == 0) {
			snprintf(l->err, sizeof(l->err), "%s: this %s %s", l->name, CAP_PROG, absent[i].why);
			return -1;
		}
	}
	for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) {
		size_t n = strlen(sources[i]->prefix);
		if (strncmp(o->iface, sources[i]->prefix, n) == 0) {
			l->ops = sources[i];
			break;
		}
	}
	return l->ops->open(l, o->iface + strlen(l->ops->prefix), o);
}

int cap_live_dispatch(struct cap_live *l, int timeout_ms, cap_live_fn fn, void *arg)
{
	return l->ops->dispatch(l, timeout_ms, fn, arg);
}

int cap_live_drain(struct cap_live *l, cap_live_fn fn, void *arg)
{
	return l->ops && l->ops->drain ? l->ops->drain(l, fn, arg) : 0;
}

void cap_live_breakloop(struct cap_live *l)
{
	l->stop = 1;
	if (l->ops && l->ops->breakloop)
		l->ops->breakloop(l);
}

void cap_live_update_drops(struct cap_live *l)
{
	if (l->ops)
		l->ops->update_drops(l);
}

void cap_live_close(struct cap_live *l)
{
	if (l->ops)
		l->ops->close(l);
}

int cap_live_multi(const struct cap_live *l)
{
	return l->ops && l->ops->multi ? l->ops->multi(l) : 0;
}

int cap_live_queues_start(struct cap_live *l, const struct cap_opts *o, const struct cap_ctx *c)
{
	return l->ops->queues_start(l, o, c);
}

int cap_live_queues_finish(struct cap_live *l, struct cap_ctx *c, const char *shown)
{
	return l->ops->queues_finish(l, c, shown);
}

void cap_live_summary(const struct cap_live *l, const char *shown)
{
	if (l->ops && l->ops->summary)
		l->ops->summary(l, shown);
}

int cap_list_interfaces(FILE *out)
{
	int n = 0;
	/* network interfaces first (the default source is last in the table) */
	for (size_t i = sizeof(sources) / sizeof(sources[0]); i-- > 0;) {
		if (!sources[i]->list)
			continue;
		int k = sources[i]->list(out, n + 1);
		if (k < 0)
			return -1;
		n += k;
	}
	return 0;
}
