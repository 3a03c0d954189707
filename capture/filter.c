/* SPDX-License-Identifier: BSD-3-Clause */
/* Capture filters: the default one (RoCEv2, RoCEv1, PFC/PAUSE, in 0-2 VLAN
 * tags, for Ethernet and Linux cooked headers), the text the options ask
 * for, compiling it, and the user-space filter of the sources that have no
 * kernel one (rdma:, dpdk:). Every live source uses this file; it calls
 * none of them. */
#include <string.h>

#include "cap.h"

/* ---- the default filter -------------------------------------------------- */

/* What follows an ethertype at link offset t in a cooked (SLL/SLL2) header,
 * with fixed offsets only: libpcap moves a cooked filter into the kernel by
 * rewriting absolute offsets, and gives up (filtering every packet in user
 * space) on loads indexed from a computed IP header length. IPv4 is
 * therefore matched without options (RoCE NICs send none); IPv6 RoCEv2
 * carries no extension headers. */
static int cooked_inner(char *b, size_t cap, unsigned t, unsigned port)
{
	unsigned ip = t + 2;
	return snprintf(b, cap,
			"link[%u:2] = %#06x or link[%u:2] = %#06x"
			" or (link[%u:2] = %#06x and link[%u] = 0x45 and link[%u] = %u and "
			"link[%u:2] & 0x1fff = 0 and link[%u:2] = %u)"
			" or (link[%u:2] = %#06x and link[%u] = %u and link[%u:2] = %u)",
			t, RW_ETHERTYPE_ROCEV1, t, RW_ETHERTYPE_MACCTRL, t, RW_ETHERTYPE_IPV4, ip,
			ip + 9, RW_IPPROTO_UDP, ip + 6, ip + RW_IPV4_MIN_HLEN + 2, port, t,
			RW_ETHERTYPE_IPV6, ip + 6, RW_IPPROTO_UDP, ip + RW_IPV6_HLEN + 2, port);
}

#define TPID(o) "(link[" #o ":2] = 0x8100 or link[" #o ":2] = 0x88a8 or link[" #o ":2] = 0x9100)"

int cap_default_filter(int linktype, uint16_t port, char *buf, size_t cap)
{
	char plain[160];
	unsigned p = port ? port : RW_ROCEV2_PORT;

	snprintf(plain, sizeof(plain), "udp dst port %u or ether proto %#06x or ether proto %#06x", p,
		 RW_ETHERTYPE_ROCEV1, RW_ETHERTYPE_MACCTRL);
	if (linktype == RW_LINKTYPE_ETHERNET) {
		/* libpcap's "vlan" moves every later offset of the expression
		 * past the tag, so the two-tag test nests inside the one-tag
		 * test rather than following it. On a live Linux handle the
		 * first "vlan" reads the tag the kernel took out of the frame
		 * (SKF_AD_VLAN_TAG_PRESENT). */
		snprintf(buf, cap, "%s or (vlan and (%s or (vlan and (%s))))", plain, plain, plain);
		return 0;
	}
	if (linktype == RW_LINKTYPE_LINUX_SLL || linktype == RW_LINKTYPE_LINUX_SLL2) {
		/* libpcap has no "vlan" for cooked headers. The protocol field
		 * is at 14 (SLL) or 0 (SLL2), the frame after 16 or 20. Linux
		 * takes the outer tag out of the frame before capture, so one
		 * tag usually leaves no trace (the plain test matches) and two
		 * leave one in the data; libpcap puts the tag back into SLL
		 * data after the kernel filter, so the same filter run in user
		 * space sees one or two. Both are tested. */
		int sll2 = linktype == RW_LINKTYPE_LINUX_SLL2;
		unsigned hdr = sll2 ? RW_SLL2_LEN : RW_SLL_LEN;
		char one[600], two[600];
		cooked_inner(one, sizeof(one), hdr + 2, p);
		cooked_inner(two, sizeof(two), hdr + 6, p);
		if (sll2)
			snprintf(buf, cap,
				 "%s or (" TPID(0) " and (%s)) or (" TPID(0) " and " TPID(22) " and (%s))",
				 plain, one, two);
		else
			snprintf(buf, cap,
				 "%s or (" TPID(14) " and (%s)) or (" TPID(14) " and " TPID(18) " and (%s))",
				 plain, one, two);
		return 0;
	}
	return -1;
}

/* The filter text the options ask for; NULL for none. desc gets the words
 * of the "listening" line. */
const char *cap_filter_text(const struct cap_opts *o, int linktype, char *buf, size_t cap,
			    char *desc, size_t dcap)
{
	unsigned port = o->cfg.rocev2_port ? o->cfg.rocev2_port : RW_ROCEV2_PORT;

	if (o->all) {
		snprintf(desc, dcap, "no filter (--all)");
		return NULL;
	}
	if (o->filter) {
		snprintf(desc, dcap, "filter \"%.120s\"", o->filter);
		return o->filter;
	}
	if (cap_default_filter(linktype, (uint16_t)port, buf, cap) != 0) {
		snprintf(desc, dcap, "no filter (none by default for this link type)");
		return NULL;
	}
	snprintf(desc, dcap,
		 "default filter: RoCEv2 (UDP port %u), RoCEv1, PFC/PAUSE, untagged or in 1-2 "
		 "VLAN tags",
		 port);
	return buf;
}

const char *cap_dlt_name(int dlt, char *buf, size_t cap)
{
	const char *n = pcap_datalink_val_to_name(dlt);
	const char *d = pcap_datalink_val_to_description(dlt);
	if (n)
		snprintf(buf, cap, "%s (%s)", n, d ? d : n);
	else
		snprintf(buf, cap, "%d", dlt);
	return buf;
}

/* Compiles text for p into l->prog; 0, or -1 with l->err. */
int cap_filter_compile(struct cap_live *l, pcap_t *p, const char *text)
{
	char lt[128];

	if (pcap_compile(p, &l->prog, text, 1, PCAP_NETMASK_UNKNOWN) != 0) {
		snprintf(l->err, sizeof(l->err), "%s: cannot compile the filter \"%.200s\" for link type %s: %s",
			 l->name, text, cap_dlt_name(l->linktype, lt, sizeof(lt)), pcap_geterr(p));
		l->err_status = CAP_EXIT_USAGE;
		return -1;
	}
	l->has_prog = 1;
	return 0;
}

int cap_live_user_filter(struct cap_live *l, const struct cap_opts *o)
{
	char fbuf[4096];
	const char *text = NULL;
	unsigned p = o->cfg.rocev2_port ? o->cfg.rocev2_port : RW_ROCEV2_PORT;
	if (o->all) {
		snprintf(l->filter_desc, sizeof(l->filter_desc), "no filter (--all)");
	} else if (o->filter) {
		text = o->filter;
		snprintf(l->filter_desc, sizeof(l->filter_desc), "filter \"%.120s\" (in user space)",
			 o->filter);
	} else {
		cap_default_filter(RW_LINKTYPE_ETHERNET, (uint16_t)p, fbuf, sizeof(fbuf));
		text = fbuf;
		snprintf(l->filter_desc, sizeof(l->filter_desc),
			 "default filter: RoCEv2 (UDP port %u), RoCEv1, PFC/PAUSE, untagged or in 1-2 "
			 "VLAN tags (in user space)",
			 p);
	}
	if (!text)
		return 0;
	pcap_t *dead = pcap_open_dead(DLT_EN10MB, (int)l->snaplen);
	if (!dead || pcap_compile(dead, &l->prog, text, 1, PCAP_NETMASK_UNKNOWN) != 0) {
		snprintf(l->err, sizeof(l->err), "%s: cannot compile the filter \"%.200s\": %s", l->name, text,
			 dead ? pcap_geterr(dead) : "out of memory");
		l->err_status = CAP_EXIT_USAGE;
		if (dead)
			pcap_close(dead);
		return -1;
	}
	pcap_close(dead);
	l->has_prog = 1;
	l->user_filter = 1;
	return 0;
}

