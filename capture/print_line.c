/* SPDX-License-Identifier: BSD-3-Clause */
/* The default output: one tcpdump-like line per packet.
 *
 *   HH:MM:SS.nnnnnnnnn CARRIER [vlan id ID pcp PCP]... SRC > DST: OPCODE dqpn 0xQPN psn PSN
 *       [flags] [extension headers] [payload N] [ecn X] icrc ok|BAD (...)
 *
 * A field is its name and its value, a header's fields follow the header's
 * name ("reth va 0x1000 rkey 0x2a len 4096"), and both names are those of
 * the field tables (proto/include/rocewire/fields.h), which -v and --json
 * print too: "reth va" is JSON's reth.va. The BTH's fields follow the
 * opcode's name instead of "bth", the IP header's (ecn; proto or
 * next_header in an "other" line) its addresses, and the AETH's the name of
 * its kind ("aeth ack credits 8 msn 3"). A flag (ackreq, se, fecn, becn) is
 * its name alone, when set. Not fields: the addresses (IP, GIDs, LIDs, MACs:
 * SRC > DST, "lid" and "gid" saying which), payload N (the payload's
 * length, JSON's payload.len) and the CRC results.
 *
 * This is the hot path of the benchmark (> 1.5 M lines/s): everything is
 * written with the fmt.h helpers into the output buffer, no printf, and the
 * words before the values are made once, at start-up (cap_line_init). */
#include <stdio.h>
#include <stdlib.h>

#include "cap.h"
#include "fmt.h"

/* The words the line writes before a value (" reth va ", " psn "), or for a
 * flag instead of one (" ackreq"). Those from W_LONG on may be longer than
 * 15 bytes. */
enum line_word {
	W_VLAN_ID, W_VLAN_PCP,
	W_BTH_DQPN, W_BTH_PSN, W_BTH_ACKREQ, W_BTH_SE, W_BTH_FECN, W_BTH_BECN, W_BTH_PKEY,
	W_RDETH_EEN,
	W_DETH_QKEY, W_DETH_SQPN,
	W_XRCETH_XRCSRQ,
	W_FETH_SEL, W_FETH_PLT,
	W_RETH_VA, W_RETH_RKEY, W_RETH_LEN,
	W_ATOMICETH_VA, W_ATOMICETH_RKEY, W_ATOMICETH_SWAP_ADD, W_ATOMICETH_COMPARE,
	W_AETH_MSN,
	W_IMMDT_DATA,
	W_IETH_RKEY,
	W_CNP_RESV,
	W_IPV4_ECN, W_IPV6_ECN,
	W_PFC_CEV, W_PFC_QUANTA, W_PAUSE_QUANTA,
	W_UDP_SPORT, W_UDP_DPORT,
	W_IPV4_PROTO, W_IPV6_NEXT_HEADER, W_IPV6_EXT_NEXT,
	W_ETH_TYPE, W_VLAN_TYPE, W_SLL_PROTOCOL, W_SLL2_PROTOCOL,
	W_IPOIB_TYPE, W_MAD_TID, W_MAD_STATUS,
	W_LONG,
	W_AETH_ACK_CREDITS = W_LONG, W_AETH_ACK_CREDITS_NULL, W_AETH_RNR_TIMER, W_AETH_NAK_CODE,
	W_AETH_RESERVED_SYNDROME,
	W_ATOMICACKETH_ORIG,
	W_CM_LOCAL_COMM_ID, W_CM_REMOTE_COMM_ID, W_CM_LOCAL_QPN, W_CM_STARTING_PSN, W_CM_PATH_MTU,
	W_CM_REMOTE_QPN, W_CM_REASON, W_CM_MESSAGE_MRAED, W_CM_SERVICE_TIMEOUT, W_CM_REQUEST_ID,
	W_CM_QPN, W_CM_MESSAGE,
	W_COUNT
};

/* Which table row a word names, and how: after the header's name (head),
 * after the header's name and the name of the AETH kind (kind >= 0), and
 * followed by the word of a derived field's "no value" (null: its
 * null_name, "invalid") rather than by a value. */
struct word_spec {
	uint8_t hd;
	uint8_t head;
	int8_t kind;
	uint8_t null;
	const char *field;
};

/* A header's first field on the line, after its name; a further one; the
 * AETH's first, after its name and the name of kind k. */
#define HEAD(h, f) { .hd = RW_HD_##h, .head = 1, .kind = -1, .field = f }
#define MORE(h, f) { .hd = RW_HD_##h, .kind = -1, .field = f }
#define KIND(k, f) { .hd = RW_HD_AETH, .head = 1, .kind = RW_AETH_##k, .field = f }

static const struct word_spec word_specs[W_COUNT] = {
	[W_VLAN_ID] = HEAD(VLAN, "id"),
	[W_VLAN_PCP] = MORE(VLAN, "pcp"),
	[W_BTH_DQPN] = MORE(BTH, "dqpn"),
	[W_BTH_PSN] = MORE(BTH, "psn"),
	[W_BTH_ACKREQ] = MORE(BTH, "ackreq"),
	[W_BTH_SE] = MORE(BTH, "se"),
	[W_BTH_FECN] = MORE(BTH, "fecn"),
	[W_BTH_BECN] = MORE(BTH, "becn"),
	[W_BTH_PKEY] = MORE(BTH, "pkey"),
	[W_RDETH_EEN] = HEAD(RDETH, "een"),
	[W_DETH_QKEY] = HEAD(DETH, "qkey"),
	[W_DETH_SQPN] = MORE(DETH, "sqpn"),
	[W_XRCETH_XRCSRQ] = HEAD(XRCETH, "xrcsrq"),
	[W_FETH_SEL] = HEAD(FETH, "sel"),
	[W_FETH_PLT] = MORE(FETH, "plt"),
	[W_RETH_VA] = HEAD(RETH, "va"),
	[W_RETH_RKEY] = MORE(RETH, "rkey"),
	[W_RETH_LEN] = MORE(RETH, "len"),
	[W_ATOMICETH_VA] = HEAD(ATOMICETH, "va"),
	[W_ATOMICETH_RKEY] = MORE(ATOMICETH, "rkey"),
	[W_ATOMICETH_SWAP_ADD] = MORE(ATOMICETH, "swap_add"),
	[W_ATOMICETH_COMPARE] = MORE(ATOMICETH, "compare"),
	[W_AETH_ACK_CREDITS] = KIND(ACK, "credits"),
	[W_AETH_ACK_CREDITS_NULL] = { .hd = RW_HD_AETH, .head = 1, .kind = RW_AETH_ACK, .null = 1,
				      .field = "credits" },
	[W_AETH_RNR_TIMER] = KIND(RNR_NAK, "rnr_timer_us"),
	[W_AETH_NAK_CODE] = KIND(NAK, "nak_code"),
	[W_AETH_RESERVED_SYNDROME] = KIND(RESERVED, "syndrome"),
	[W_AETH_MSN] = MORE(AETH, "msn"),
	[W_ATOMICACKETH_ORIG] = HEAD(ATOMICACKETH, "orig"),
	[W_IMMDT_DATA] = HEAD(IMMDT, "data"),
	[W_IETH_RKEY] = HEAD(IETH, "rkey"),
	[W_CNP_RESV] = HEAD(CNP, "resv"),
	[W_IPV4_ECN] = MORE(IPV4, "ecn"),
	[W_IPV6_ECN] = MORE(IPV6, "ecn"),
	[W_PFC_CEV] = HEAD(PFC, "cev"),
	[W_PFC_QUANTA] = MORE(PFC, "quanta"),
	[W_PAUSE_QUANTA] = HEAD(PAUSE, "quanta"),
	[W_UDP_SPORT] = HEAD(UDP, "sport"),
	[W_UDP_DPORT] = MORE(UDP, "dport"),
	[W_IPV4_PROTO] = MORE(IPV4, "proto"),
	[W_IPV6_NEXT_HEADER] = MORE(IPV6, "next_header"),
	[W_IPV6_EXT_NEXT] = HEAD(IPV6_EXT, "next"),
	[W_ETH_TYPE] = HEAD(ETH, "type"),
	[W_VLAN_TYPE] = HEAD(VLAN, "type"),
	[W_SLL_PROTOCOL] = HEAD(SLL, "protocol"),
	[W_SLL2_PROTOCOL] = HEAD(SLL2, "protocol"),
	[W_IPOIB_TYPE] = HEAD(IPOIB, "type"),
	[W_MAD_TID] = MORE(MAD, "tid"),
	[W_MAD_STATUS] = MORE(MAD, "status"),
	[W_CM_MESSAGE] = HEAD(CM_REQ, "message"),
	[W_CM_LOCAL_COMM_ID] = MORE(CM_REQ, "local_comm_id"),
	[W_CM_REMOTE_COMM_ID] = MORE(CM_REP, "remote_comm_id"),
	[W_CM_LOCAL_QPN] = MORE(CM_REQ, "local_qpn"),
	[W_CM_STARTING_PSN] = MORE(CM_REQ, "starting_psn"),
	[W_CM_PATH_MTU] = MORE(CM_REQ, "path_mtu"),
	[W_CM_REMOTE_QPN] = MORE(CM_DREQ, "remote_qpn"),
	[W_CM_REASON] = MORE(CM_REJ, "reason"),
	[W_CM_MESSAGE_MRAED] = MORE(CM_MRA, "message_mraed"),
	[W_CM_SERVICE_TIMEOUT] = MORE(CM_MRA, "service_timeout"),
	[W_CM_REQUEST_ID] = MORE(CM_SIDR_REQ, "request_id"),
	[W_CM_QPN] = MORE(CM_SIDR_REP, "qpn"),
};

/* A word is copied as its whole slot, one 16-byte move (two from W_LONG
 * on), rather than as a length known only at run time, which costs more
 * than the literals it replaces; the bytes past its length are overwritten
 * by what follows (cap_out_begin reserves CAP_PKT_MAX, far more than a
 * line). A word longer than its slot stops cap_line_init. */
#define WORD_SHORT 16
#define WORD_SLOT 32
static _Alignas(WORD_SHORT) char word_text[W_COUNT][WORD_SLOT];
static uint8_t word_len[W_COUNT];

static char *word_add(char *w, char *end, const char *s)
{
	size_t n = strlen(s);
	if (n >= (size_t)(end - w)) {
		fprintf(stderr, "%s: internal error: the line's word \"%s\" does not fit its slot\n",
			CAP_PROG, s);
		abort();
	}
	memcpy(w, s, n);
	return w + n;
}

/* Each opcode's name, with its number when it is not a valid opcode
 * ("VENDOR_SPECIFIC(0xc0)"), and the BTH's first word: " RC_SEND_ONLY dqpn ",
 * copied as one 48-byte slot (three 16-byte moves) rather than as a name of
 * a length known only at run time. */
#define OP_SLOT 48
static _Alignas(WORD_SHORT) char op_text[256][OP_SLOT];
static uint8_t op_len[256];

static void op_init(void)
{
	for (unsigned i = 0; i < 256; i++) {
		const struct rw_opcode_info *op = rw_opcode((uint8_t)i);
		char *w = op_text[i], *end = w + OP_SLOT;
		char hex[8];
		w = word_add(w, end, " ");
		w = word_add(w, end, op->name);
		if (!(op->flags & RW_OPF_VALID)) {
			*fmt_hex(hex, i, 2) = '\0';
			w = word_add(w, end, "(");
			w = word_add(w, end, hex);
			w = word_add(w, end, ")");
		}
		w = word_add(w, end, word_text[W_BTH_DQPN]);
		op_len[i] = (uint8_t)(w - op_text[i]);
	}
}

void cap_line_init(void)
{
	for (unsigned i = 0; i < W_COUNT; i++) {
		const struct word_spec *ws = &word_specs[i];
		const struct rw_header_desc *d = rw_header_desc((enum rw_hd)ws->hd);
		int k = rw_field_index((enum rw_hd)ws->hd, ws->field);
		/* A name the tables no longer have is this file's bug: every
		 * run stops here, so no test can miss it. */
		if (!d || k < 0 || (ws->null && !d->f[k].null_name)) {
			fprintf(stderr, "%s: internal error: no field %s in the %s table\n", CAP_PROG,
				ws->field, d ? d->name : "?");
			abort();
		}
		const struct rw_field *f = &d->f[k];
		char *w = word_text[i], *end = w + (i >= W_LONG ? WORD_SLOT : WORD_SHORT);
		if (ws->head) {
			w = word_add(w, end, " ");
			w = word_add(w, end, d->name);
		}
		if (ws->kind >= 0) {
			w = word_add(w, end, " ");
			w = word_add(w, end, rw_aeth_kind_key((unsigned)ws->kind));
		}
		w = word_add(w, end, " ");
		w = word_add(w, end, f->name);
		if (ws->null) {
			w = word_add(w, end, " ");
			w = word_add(w, end, f->null_name);
		} else if (f->type != RW_FT_FLAG) {
			w = word_add(w, end, " ");
		}
		*w = '\0'; /* word_add leaves room: op_init reads it as a string */
		word_len[i] = (uint8_t)(w - word_text[i]);
	}
	op_init();
}

static inline char *word(char *o, enum line_word w)
{
	if (w >= W_LONG)
		memcpy(o, word_text[w], WORD_SLOT);
	else
		memcpy(o, word_text[w], WORD_SHORT);
	return o + word_len[w];
}

static char *addr_ip(char *o, const struct rw_packet *p)
{
	if (p->present & RW_P_IPV4) {
		*o++ = ' ';
		o = fmt_ipv4(o, p->ipv4.src);
		o = FMT_LIT(o, " > ");
		o = fmt_ipv4(o, p->ipv4.dst);
	} else if (p->present & RW_P_IPV6) {
		*o++ = ' ';
		o = fmt_ipv6(o, p->ipv6.src);
		o = FMT_LIT(o, " > ");
		o = fmt_ipv6(o, p->ipv6.dst);
	}
	return o;
}

static char *addr_gid(char *o, const struct rw_packet *p)
{
	*o++ = ' ';
	o = fmt_ipv6(o, p->grh.sgid);
	o = FMT_LIT(o, " > ");
	return fmt_ipv6(o, p->grh.dgid);
}

static char *addr_mac(char *o, const struct rw_packet *p)
{
	*o++ = ' ';
	o = fmt_mac(o, p->eth.src);
	o = FMT_LIT(o, " > ");
	return fmt_mac(o, p->eth.dst);
}

static char *addresses(char *o, const struct rw_packet *p)
{
	switch (p->carrier) {
	case RW_CARRIER_ROCEV2:
		return addr_ip(o, p);
	case RW_CARRIER_ROCEV1:
		return (p->present & RW_P_GRH) ? addr_gid(o, p) : o;
	case RW_CARRIER_IB:
		if (p->present & RW_P_LRH) {
			o = FMT_LIT(o, " lid ");
			o = fmt_u32(o, p->lrh.slid);
			o = FMT_LIT(o, " > lid ");
			o = fmt_u32(o, p->lrh.dlid);
		}
		if (p->present & RW_P_GRH) {
			o = FMT_LIT(o, " gid");
			o = addr_gid(o, p);
		}
		return o;
	case RW_CARRIER_PFC:
	case RW_CARRIER_PAUSE:
		return (p->present & RW_P_ETH) ? addr_mac(o, p) : o;
	case RW_CARRIER_OTHER:
	default:
		if (p->present & (RW_P_IPV4 | RW_P_IPV6))
			return addr_ip(o, p);
		if (p->present & RW_P_ETH)
			return addr_mac(o, p);
		return o;
	}
}

/* The AETH's kind by its name, then its fields (IBA 9.7.5.2). */
static char *aeth(char *o, const struct rw_aeth *a)
{
	switch (a->kind) {
	case RW_AETH_ACK: {
		int credits = rw_aeth_credits(a->value);
		o = credits < 0 ? word(o, W_AETH_ACK_CREDITS_NULL)
				: fmt_u32(word(o, W_AETH_ACK_CREDITS), (uint32_t)credits);
		break;
	}
	case RW_AETH_RNR_NAK:
		o = word(o, W_AETH_RNR_TIMER);
		o = fmt_u32(o, rw_rnr_timer_us(a->value));
		break;
	case RW_AETH_NAK:
		o = word(o, W_AETH_NAK_CODE);
		o = fmt_u32(o, a->value);
		o = FMT_LIT(o, " (");
		o = fmt_str(o, rw_nak_code_name(a->value));
		*o++ = ')';
		break;
	default:
		o = word(o, W_AETH_RESERVED_SYNDROME);
		o = fmt_hex(o, a->syndrome, 2);
		break;
	}
	o = word(o, W_AETH_MSN);
	return fmt_u32(o, a->msn);
}

/* After a number, its name when it has one: "17 (UDP)", "0x0806 (ARP)". */
static char *named(char *o, const char *name)
{
	if (!name)
		return o;
	o = FMT_LIT(o, " (");
	o = fmt_str(o, name);
	*o++ = ')';
	return o;
}

/* A management datagram as Wireshark's Info column names it,
 * "SubnGet(SMInfo)", then its transaction ID and a status that is not 0. */
static char *mad(char *o, const struct rw_mad_brief *m)
{
	char meth[48];
	const char *attr = rw_mad_attr_name(m->hdr.mgmt_class, m->hdr.attr_id);
	o = FMT_LIT(o, " mad ");
	o = fmt_str(o, rw_mad_method_text(m->hdr.mgmt_class, m->hdr.method, meth, sizeof(meth)));
	*o++ = '(';
	o = attr ? fmt_str(o, attr) : fmt_hex(o, m->hdr.attr_id, 4);
	*o++ = ')';
	o = word(o, W_MAD_TID);
	o = fmt_hex(o, m->hdr.tid, 1);
	if (m->hdr.status) {
		o = word(o, W_MAD_STATUS);
		o = fmt_hex(o, m->hdr.status, 4);
	}
	return o;
}

/* A CM message by its short name ("cm message REQ"), then what ties it to
 * its connection: the communication IDs, the QPN and starting PSN it
 * states. */
static char *cm(char *o, const struct rw_mad_brief *m)
{
	o = fmt_str(word(o, W_CM_MESSAGE), rw_cm_msg_name(m->cm_msg));
	if (m->cm_msg == RW_CM_SIDR_REQ || m->cm_msg == RW_CM_SIDR_REP) {
		o = fmt_hex(word(o, W_CM_REQUEST_ID), m->local_comm_id, 8);
		if (m->cm_msg == RW_CM_SIDR_REP)
			o = fmt_hex(word(o, W_CM_QPN), m->qpn, 6);
		return o;
	}
	o = fmt_hex(word(o, W_CM_LOCAL_COMM_ID), m->local_comm_id, 8);
	if (m->cm_msg != RW_CM_REQ)
		o = fmt_hex(word(o, W_CM_REMOTE_COMM_ID), m->remote_comm_id, 8);
	switch (m->cm_msg) {
	case RW_CM_REQ:
	case RW_CM_REP:
		o = fmt_hex(word(o, W_CM_LOCAL_QPN), m->qpn, 6);
		o = fmt_u32(word(o, W_CM_STARTING_PSN), m->starting_psn);
		if (m->cm_msg == RW_CM_REQ) {
			o = fmt_u32(word(o, W_CM_PATH_MTU), m->path_mtu);
			o = named(o, rw_mtu_name(m->path_mtu));
		}
		break;
	case RW_CM_DREQ:
	case RW_CM_LAP:
		o = fmt_hex(word(o, W_CM_REMOTE_QPN), m->qpn, 6);
		break;
	case RW_CM_REJ:
		o = fmt_u32(word(o, W_CM_REASON), m->rej_reason);
		o = named(o, rw_cm_rej_reason_name(m->rej_reason));
		break;
	case RW_CM_MRA: {
		/* 3 is reserved (12.6.6): no name */
		const char *what = rw_cm_msg_ref_name(m->msg_ref & 3, 1);
		o = fmt_str(word(o, W_CM_MESSAGE_MRAED), what ? what : "reserved");
		o = fmt_u32(word(o, W_CM_SERVICE_TIMEOUT), m->service_timeout);
		break;
	}
	default:
		break;
	}
	return o;
}

/* Key fields of the BTH and of each extension header, in wire order. */
static char *transport(char *o, const struct rw_packet *p)
{
	const struct rw_bth *b = &p->bth;
	unsigned h = p->hdrs;

	/* the opcode's name (p->op is rw_opcode(b->opcode), the decoder's)
	 * and " dqpn " */
	memcpy(o, op_text[b->opcode], OP_SLOT);
	o += op_len[b->opcode];
	o = fmt_hex(o, b->dqpn, 6);
	o = word(o, W_BTH_PSN);
	o = fmt_u32(o, b->psn);
	if (b->ackreq)
		o = word(o, W_BTH_ACKREQ);
	if (b->se)
		o = word(o, W_BTH_SE);
	if (b->fecn)
		o = word(o, W_BTH_FECN);
	if (b->becn)
		o = word(o, W_BTH_BECN);
	if (b->pkey != 0xFFFF) {
		o = word(o, W_BTH_PKEY);
		o = fmt_hex(o, b->pkey, 4);
	}

	if (h & RW_HDR_RDETH) {
		o = word(o, W_RDETH_EEN);
		o = fmt_hex(o, p->rdeth.een, 1);
	}
	if (h & RW_HDR_DETH) {
		o = word(o, W_DETH_QKEY);
		o = fmt_hex(o, p->deth.qkey, 8);
		o = word(o, W_DETH_SQPN);
		o = fmt_hex(o, p->deth.sqpn, 1);
	}
	if (h & RW_HDR_XRCETH) {
		o = word(o, W_XRCETH_XRCSRQ);
		o = fmt_hex(o, p->xrceth.xrcsrq, 1);
	}
	if (h & RW_HDR_FETH) {
		o = word(o, W_FETH_SEL);
		o = fmt_u32(o, p->feth.sel);
		o = word(o, W_FETH_PLT);
		o = fmt_u32(o, p->feth.plt);
	}
	if (h & RW_HDR_RETH) {
		o = word(o, W_RETH_VA);
		o = fmt_hex(o, p->reth.va, 1);
		o = word(o, W_RETH_RKEY);
		o = fmt_hex(o, p->reth.rkey, 1);
		o = word(o, W_RETH_LEN);
		o = fmt_u32(o, p->reth.dmalen);
	}
	if (h & RW_HDR_ATOMICETH) {
		o = word(o, W_ATOMICETH_VA);
		o = fmt_hex(o, p->atomiceth.va, 1);
		o = word(o, W_ATOMICETH_RKEY);
		o = fmt_hex(o, p->atomiceth.rkey, 1);
		o = word(o, W_ATOMICETH_SWAP_ADD);
		o = fmt_hex(o, p->atomiceth.swap_add, 1);
		/* a FETCH_ADD's compare field is not read (IBA 9.4.5) */
		if (!(p->op && p->op->op == RW_OP_FETCH_ADD)) {
			o = word(o, W_ATOMICETH_COMPARE);
			o = fmt_hex(o, p->atomiceth.compare, 1);
		}
	}
	if (h & RW_HDR_AETH)
		o = aeth(o, &p->aeth);
	if (h & RW_HDR_ATOMICACKETH) {
		o = word(o, W_ATOMICACKETH_ORIG);
		o = fmt_hex(o, p->atomicacketh.orig, 1);
	}
	if (h & RW_HDR_IMMDT) {
		o = word(o, W_IMMDT_DATA);
		o = fmt_hex(o, p->immdt, 8);
	}
	if (h & RW_HDR_IETH) {
		o = word(o, W_IETH_RKEY);
		o = fmt_hex(o, p->ieth, 1);
	}
	/* the decode keeps whether the reserved bytes are zero, not the bytes
	 * (nor does the pipeline keep the frame for this printer) */
	if ((h & RW_HDR_CNP) && p->cnp_nonzero) {
		o = word(o, W_CNP_RESV);
		o = FMT_LIT(o, "nonzero");
	}
	if (cap_payload_known(p)) {
		o = FMT_LIT(o, " payload ");
		o = fmt_u32(o, p->payload_len);
	}
	if (p->present & RW_P_IPOIB) {
		o = word(o, W_IPOIB_TYPE);
		o = fmt_hex(o, p->ipoib_type, 4);
		o = named(o, rw_ethertype_name(p->ipoib_type));
	}
	if (p->present & RW_P_MAD)
		o = (p->mad.cm_msg != RW_CM_NONE) ? cm(o, &p->mad) : mad(o, &p->mad);
	return o;
}

static char *crc_status(char *o, const char *name, enum rw_crc_status s, uint32_t wire,
			uint32_t computed, unsigned digits)
{
	*o++ = ' ';
	o = fmt_str(o, name);
	if (s == RW_CRC_OK)
		return FMT_LIT(o, " ok");
	o = FMT_LIT(o, " BAD (wire ");
	o = fmt_hex(o, wire, digits);
	o = FMT_LIT(o, ", computed ");
	o = fmt_hex(o, computed, digits);
	return FMT_LIT(o, ")");
}

static char *macctrl(char *o, const struct rw_packet *p)
{
	const struct rw_macctrl *m = &p->macctrl;

	if (p->carrier == RW_CARRIER_PAUSE) {
		o = word(o, W_PAUSE_QUANTA);
		return fmt_u32(o, m->quanta[0]);
	}
	o = word(o, W_PFC_CEV);
	o = fmt_hex(o, m->cev, 2);
	o = word(o, W_PFC_QUANTA);
	for (int i = 0; i < RW_PFC_PRIORITIES; i++) {
		if (i)
			*o++ = ',';
		o = fmt_u32(o, m->quanta[i]);
	}
	return o;
}

/* What a frame that is not RoCE, IB or MAC control carries: the UDP ports,
 * else the IP protocol, else the type the link layer gives. */
static char *other(char *o, const struct rw_packet *p)
{
	if (p->present & RW_P_UDP) {
		o = word(o, W_UDP_SPORT);
		o = fmt_u32(o, p->udp.sport);
		o = word(o, W_UDP_DPORT);
		return fmt_u32(o, p->udp.dport);
	}
	if (p->present & RW_P_IPV4) {
		o = word(o, W_IPV4_PROTO);
		o = fmt_u32(o, p->ipv4.protocol);
		return named(o, rw_ipproto_name(p->ipv4.protocol));
	}
	if (p->present & RW_P_IPV6) {
		/* the protocol after any extension headers (an MLD report's
		 * hop-by-hop header leads to ICMPv6): the last one's next */
		uint8_t proto = p->ipv6_ext.proto;
		o = word(o, p->ipv6_ext.n ? W_IPV6_EXT_NEXT : W_IPV6_NEXT_HEADER);
		o = fmt_u32(o, proto);
		return named(o, rw_ipproto_name(proto));
	}
	uint16_t type;
	if (p->present & RW_P_ETH) {
		if (p->n_vlan) {
			type = p->vlan[p->n_vlan - 1].ethertype;
			o = word(o, W_VLAN_TYPE);
		} else {
			type = p->eth.ethertype;
			o = word(o, W_ETH_TYPE);
		}
	} else if (p->present & (RW_P_SLL | RW_P_SLL2)) {
		type = p->sll.protocol;
		o = word(o, (p->present & RW_P_SLL2) ? W_SLL2_PROTOCOL : W_SLL_PROTOCOL);
	} else {
		return o;
	}
	o = fmt_hex(o, type, 4);
	return named(o, rw_ethertype_name(type));
}

void cap_print_line(struct cap_ctx *c, const struct cap_record *r, const struct rw_packet *p)
{
	char *o = cap_out_begin(&c->out, CAP_PKT_MAX);

	o = cap_fmt_time_local(&c->clock, o, r->ts_sec, r->ts_nsec);
	*o++ = ' ';
	o = fmt_str(o, rw_carrier_name(p->carrier));
	for (unsigned i = 0; i < p->n_vlan && i < RW_MAX_VLAN; i++) {
		o = word(o, W_VLAN_ID);
		o = fmt_u32(o, p->vlan[i].vid);
		o = word(o, W_VLAN_PCP);
		o = fmt_u32(o, p->vlan[i].pcp);
	}
	o = addresses(o, p);
	*o++ = ':';

	if (p->present & RW_P_BTH)
		o = transport(o, p);
	else if (p->carrier == RW_CARRIER_PFC || p->carrier == RW_CARRIER_PAUSE)
		o = (p->present & RW_P_MACCTRL) ? macctrl(o, p) : o;
	else if (p->carrier == RW_CARRIER_OTHER)
		o = other(o, p);

	unsigned ecn = (p->present & RW_P_IPV4) ? p->ipv4.ecn
		       : (p->present & RW_P_IPV6) ? p->ipv6.ecn
						   : 0;
	if (ecn && p->carrier == RW_CARRIER_ROCEV2) {
		o = word(o, (p->present & RW_P_IPV4) ? W_IPV4_ECN : W_IPV6_ECN);
		o = fmt_str(o, rw_ecn_name(ecn));
	}
	if (p->icrc_status != RW_CRC_NONE)
		o = crc_status(o, "icrc", p->icrc_status, rw_icrc_display(p->icrc_wire),
			       rw_icrc_display(p->icrc_computed), 8);
	if (p->vcrc_status != RW_CRC_NONE)
		o = crc_status(o, "vcrc", p->vcrc_status, p->vcrc_wire, p->vcrc_computed, 4);

	if (p->err != RW_OK) {
		char why[400];
		rw_packet_problem(p, r->caplen, r->wirelen, why, sizeof(why));
		/* rw_packet_problem() starts with "cut by snaplen" for a
		 * short capture, which says "truncated" better than a tag. */
		o = (p->err == RW_ERR_TRUNCATED && r->caplen < r->wirelen) ? FMT_LIT(o, " [")
									    : FMT_LIT(o, " [error: ");
		o = fmt_str(o, why);
		*o++ = ']';
	}
	*o++ = '\n';
	cap_out_end(&c->out, o);
}
