/* SPDX-License-Identifier: BSD-3-Clause */
/* Scenario files: YAML (libyaml) to struct gen_scenario, checked.
 *
 * Two passes over the text. The first pulls libyaml's events only to bound
 * what the second may build: nesting depth, node count, one document, no
 * aliases (an alias makes a node reachable twice, and a few lines of them
 * expand to billions). The second loads the document tree and reads it
 * against the format in README-scenario.md; flows are in scenario_flow.c,
 * scalar readers in scenario_value.c. Any mistake ends the parse with one
 * line "FILE:LINE:COLUMN: what was expected". */
#include "scenario_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "rocewire/opcode.h"

static const char *const action_names[] = { [GEN_FAULT_DROP] = "drop", [GEN_FAULT_ECN_MARK] = "ecn_mark",
					    [GEN_FAULT_CORRUPT] = "corrupt", [GEN_FAULT_RNR] = "rnr",
					    [GEN_FAULT_BAD_RKEY] = "bad_rkey", NULL };
_Static_assert(sizeof(action_names) / sizeof(action_names[0]) == GEN_FAULT_COUNT + 1, "action_names: every value, then NULL");

const char *gen_fault_action_name(enum gen_fault_action a)
{
	return (unsigned)a <= GEN_FAULT_BAD_RKEY ? action_names[a] : "?";
}

static yaml_mark_t mark0(void)
{
	return (yaml_mark_t){ 0 };
}

static int yaml_problem(struct sc_ctx *c, const yaml_parser_t *p, const char *text, size_t len)
{
	if (p->error == YAML_MEMORY_ERROR)
		return sc_fail(c, mark0(), "out of memory");
	/* Reader errors (bad UTF-8, control bytes) carry a byte offset, not a
	 * mark: count the lines up to it. */
	if (p->error == YAML_READER_ERROR) {
		yaml_mark_t m = mark0();
		for (size_t i = 0; i < p->problem_offset && i < len; i++) {
			if (text[i] == '\n')
				m.line++, m.column = 0;
			else if (((unsigned char)text[i] & 0xC0) != 0x80)
				m.column++;
		}
		return sc_fail(c, m, "YAML input: %s (byte 0x%02x)", p->problem ? p->problem : "unreadable",
			       (unsigned)p->problem_value & 0xFF);
	}
	const char *problem = p->problem ? p->problem : "malformed";
	if (p->context)
		return sc_fail(c, p->problem_mark, "YAML syntax: %s (%s at line %zu)", problem, p->context,
			       p->context_mark.line + 1);
	return sc_fail(c, p->problem_mark, "YAML syntax: %s", problem);
}

/* The first pass: syntax, and the bounds the tree must keep. */
static int prescan(struct sc_ctx *c, const char *text, size_t len)
{
	yaml_parser_t p;
	yaml_event_t ev;
	unsigned depth = 0, docs = 0;
	size_t nodes = 0;
	int rc = 0, done = 0;
	if (!yaml_parser_initialize(&p))
		return sc_fail(c, mark0(), "out of memory");
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	while (!done && rc == 0) {
		if (!yaml_parser_parse(&p, &ev)) {
			rc = yaml_problem(c, &p, text, len);
			break;
		}
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1)
				rc = sc_fail(c, ev.start_mark, "expected one scenario per file, got a second document");
			break;
		case YAML_ALIAS_EVENT:
			rc = sc_fail(c, ev.start_mark, "YAML aliases (*%s) are not supported: write the value out",
				     (const char *)ev.data.alias.anchor);
			break;
		case YAML_MAPPING_START_EVENT:
		case YAML_SEQUENCE_START_EVENT:
			if (++depth > SC_MAX_DEPTH)
				rc = sc_fail(c, ev.start_mark, "expected at most %d levels of nesting", SC_MAX_DEPTH);
			/* fall through */
		case YAML_SCALAR_EVENT:
			if (++nodes > SC_MAX_NODES)
				rc = sc_fail(c, ev.start_mark, "expected at most %u YAML values in a scenario",
					     SC_MAX_NODES);
			break;
		case YAML_MAPPING_END_EVENT:
		case YAML_SEQUENCE_END_EVENT:
			depth--;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	return rc;
}

static int read_u64(struct sc_ctx *c, const yaml_node_t *map, const char *key, uint64_t max, uint64_t *out)
{
	yaml_node_t *n = sc_get(c, map, key);
	return n ? sc_uint(c, key, n, 0, max, 0, out) : 0;
}

static int read_dur(struct sc_ctx *c, const yaml_node_t *map, const char *key, uint64_t *out)
{
	yaml_node_t *n = sc_get(c, map, key);
	return n ? sc_duration(c, key, n, 0, out) : 0;
}

static const char *const host_keys[] = { "name", "mac", "ip", "gid", "vlan", "pcp", NULL };

static int read_host(struct sc_ctx *c, const yaml_node_t *n, struct gen_scenario *s, uint32_t i)
{
	struct gen_host *h = &s->hosts[i];
	yaml_node_t *v;
	uint64_t u;
	if (sc_check_map(c, n, "host", host_keys))
		return -1;
	static const char *const required[] = { "name", "mac", "ip" };
	for (unsigned k = 0; k < 3; k++)
		if (!sc_get(c, n, required[k]))
			return sc_fail(c, n->start_mark, "host: expected name, mac and ip; %s is missing", required[k]);
	if (sc_name(c, "name", sc_get(c, n, "name"), h->name, sizeof(h->name)) ||
	    sc_mac(c, "mac", sc_get(c, n, "mac"), h->mac) || sc_ip(c, "ip", v = sc_get(c, n, "ip"), &h->af, h->ip))
		return -1;
	for (uint32_t j = 0; j < i; j++) {
		const struct gen_host *o = &s->hosts[j];
		if (strcmp(o->name, h->name) == 0)
			return sc_fail(c, sc_get(c, n, "name")->start_mark, "name: host '%s' is already defined",
				       h->name);
		if (memcmp(o->mac, h->mac, 6) == 0)
			return sc_fail(c, sc_get(c, n, "mac")->start_mark, "mac: already host '%s''s address",
				       o->name);
		if (o->af == h->af && memcmp(o->ip, h->ip, 16) == 0)
			return sc_fail(c, v->start_mark, "ip: already host '%s''s address", o->name);
	}
	/* RoCEv2 GIDs are IPv6 addresses; an IPv4 one is IPv4-mapped
	 * (IBA A17.4.5). */
	if (h->af == 4) {
		memset(h->gid, 0, 10);
		h->gid[10] = h->gid[11] = 0xFF;
		memcpy(h->gid + 12, h->ip, 4);
	} else {
		memcpy(h->gid, h->ip, 16);
	}
	if ((v = sc_get(c, n, "gid")) && sc_gid(c, "gid", v, h->gid))
		return -1;
	if ((v = sc_get(c, n, "vlan"))) {
		/* 4095 is reserved (IEEE 802.1Q 9.6); 0 is a priority tag. */
		if (sc_uint(c, "vlan", v, 0, 4094, 0, &u))
			return -1;
		h->has_vlan = 1;
		h->vlan = (uint16_t)u;
	}
	if ((v = sc_get(c, n, "pcp"))) {
		if (sc_uint(c, "pcp", v, 0, 7, 0, &u))
			return -1;
		/* PCP lives in the 802.1Q tag: without a VLAN it rides a
		 * priority tag (VLAN 0). */
		h->has_vlan = 1;
		h->pcp = (uint8_t)u;
	}
	return 0;
}

static int read_hosts(struct sc_ctx *c, const yaml_node_t *n, struct gen_scenario *s)
{
	if (!n || n->type != YAML_SEQUENCE_NODE || n->data.sequence.items.top - n->data.sequence.items.start < 2)
		return sc_expected(c, "hosts", n, "a sequence of at least two hosts");
	size_t cnt = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	if (cnt > SC_MAX_HOSTS)
		return sc_fail(c, n->start_mark, "hosts: expected at most %u hosts, got %zu", SC_MAX_HOSTS, cnt);
	if (!(s->hosts = calloc(cnt, sizeof(*s->hosts))))
		return sc_fail(c, n->start_mark, "out of memory");
	for (uint32_t i = 0; i < cnt; i++) {
		if (read_host(c, sc_node(c, n->data.sequence.items.start[i]), s, i))
			return -1;
		s->n_hosts = i + 1;
	}
	return 0;
}

static const char *const fault_keys[] = { "action",      "flow",   "qpn",   "psn",      "opcode", "dir",
					  "transmission", "probability", "after", "until", "every", "count", NULL };

static int find_flow(struct sc_ctx *c, const yaml_node_t *n, const struct gen_scenario *s, int32_t *idx)
{
	const char *name = sc_text(c, "flow", n, "a flow name");
	if (!name)
		return -1;
	for (uint32_t i = 0; i < s->n_flows; i++) {
		if (strcmp(s->flows[i].name, name) == 0) {
			*idx = (int32_t)i;
			return 0;
		}
	}
	const char *names[SC_MAX_FLOWS + 1];
	for (uint32_t i = 0; i < s->n_flows; i++)
		names[i] = s->flows[i].name;
	names[s->n_flows] = NULL;
	const char *sug = sc_suggest(name, names);
	char got[64];
	if (sug)
		return sc_fail(c, n->start_mark, "flow: no flow named '%s' (did you mean '%s'?)",
			       sc_got(n, got, sizeof(got)), sug);
	return sc_fail(c, n->start_mark, "flow: no flow named '%s' in flows", sc_got(n, got, sizeof(got)));
}

static int read_opcode(struct sc_ctx *c, const yaml_node_t *n, int16_t *out)
{
	const char *expect = "an opcode: 0..255 or a name like RC_RDMA_WRITE_ONLY";
	const char *s = sc_text(c, "opcode", n, expect);
	uint64_t v;
	if (!s)
		return -1;
	if (sc_parse_uint(s, &v) == 0) {
		if (v > 255)
			return sc_expected(c, "opcode", n, "%s", expect);
	} else {
		for (v = 0; v < 256; v++)
			if ((rw_opcode((uint8_t)v)->flags & RW_OPF_VALID) && strcasecmp(rw_opcode((uint8_t)v)->name, s) == 0)
				break;
		if (v == 256)
			return sc_expected(c, "opcode", n, "%s", expect);
	}
	if (!(rw_opcode((uint8_t)v)->flags & RW_OPF_VALID))
		return sc_expected(c, "opcode", n, "an opcode the spec defines (0x%02x is %s)", (unsigned)v,
				   rw_opcode((uint8_t)v)->name);
	*out = (int16_t)v;
	return 0;
}

static int read_psn(struct sc_ctx *c, const yaml_node_t *n, struct gen_fault *f)
{
	uint64_t lo, hi;
	if (n->type == YAML_SEQUENCE_NODE) {
		if (n->data.sequence.items.top - n->data.sequence.items.start != 2)
			return sc_expected(c, "psn", n, "a PSN or [first, last]");
		yaml_node_t *a = sc_node(c, n->data.sequence.items.start[0]);
		yaml_node_t *b = sc_node(c, n->data.sequence.items.start[1]);
		if (sc_uint(c, "psn", a, 0, 0xFFFFFF, 1, &lo) || sc_uint(c, "psn", b, 0, 0xFFFFFF, 1, &hi))
			return -1;
		/* A range across the 24-bit wrap is two faults. */
		if (hi < lo)
			return sc_fail(c, b->start_mark, "psn: expected last >= first (%llu), got %llu",
				       (unsigned long long)lo, (unsigned long long)hi);
	} else {
		if (sc_uint(c, "psn", n, 0, 0xFFFFFF, 1, &lo))
			return -1;
		hi = lo;
	}
	f->psn_lo = (int64_t)lo;
	f->psn_hi = (int64_t)hi;
	return 0;
}

static int rw_transport_of(enum gen_transport t)
{
	return t == GEN_RC ? RW_TRANSPORT_RC : t == GEN_UC ? RW_TRANSPORT_UC : RW_TRANSPORT_UD;
}

/* What an action needs: RNR NAKs answer requests that consume a receive
 * WQE (IBA 9.7.5.2.8: SEND, RDMA WRITE with immediate); a remote access
 * error answers a request with an R_Key (RETH or AtomicETH). Both are RC
 * responses: UC and UD have no NAKs. */
static int check_fault(struct sc_ctx *c, const yaml_node_t *n, const struct gen_scenario *s,
		       const struct gen_fault *f)
{
	const struct gen_flow *fl = f->flow >= 0 ? &s->flows[f->flow] : NULL;
	const char *an = action_names[f->action];
	int nak = f->action == GEN_FAULT_RNR || f->action == GEN_FAULT_BAD_RKEY;
	yaml_node_t *v;
	if (nak && f->dir == GEN_DIR_RESPONSE)
		return sc_fail(c, sc_get(c, n, "dir")->start_mark, "dir: %s acts on requests, got response", an);
	if (fl && nak && fl->transport != GEN_RC)
		return sc_fail(c, sc_get(c, n, "flow")->start_mark, "flow: %s needs an RC flow ('%s' is %s)", an,
			       fl->name, gen_transport_name(fl->transport));
	if (fl && f->action == GEN_FAULT_RNR &&
	    !(fl->op_weight[GEN_OP_SEND] || fl->op_weight[GEN_OP_SEND_IMM] || fl->op_weight[GEN_OP_SEND_INV] ||
	      fl->op_weight[GEN_OP_WRITE_IMM]))
		return sc_fail(c, sc_get(c, n, "flow")->start_mark,
			       "flow: rnr needs a flow with send or write_imm operations ('%s' has none)", fl->name);
	if (fl && f->action == GEN_FAULT_BAD_RKEY &&
	    !(fl->op_weight[GEN_OP_WRITE] || fl->op_weight[GEN_OP_WRITE_IMM] || fl->op_weight[GEN_OP_READ] ||
	      fl->op_weight[GEN_OP_CMP_SWAP] || fl->op_weight[GEN_OP_FETCH_ADD]))
		return sc_fail(c, sc_get(c, n, "flow")->start_mark,
			       "flow: bad_rkey needs a flow with write, read or atomic operations ('%s' has none)",
			       fl->name);
	if (f->opcode >= 0) {
		const struct rw_opcode_info *oi = rw_opcode((uint8_t)f->opcode);
		v = sc_get(c, n, "opcode");
		if (fl && oi->transport != rw_transport_of(fl->transport))
			return sc_fail(c, v->start_mark, "opcode: %s is not an opcode of flow '%s' (%s)", oi->name,
				       fl->name, gen_transport_name(fl->transport));
		if ((f->dir == GEN_DIR_REQUEST && !(oi->flags & RW_OPF_REQUEST)) ||
		    (f->dir == GEN_DIR_RESPONSE && !(oi->flags & RW_OPF_RESPONSE)))
			return sc_fail(c, v->start_mark, "opcode: %s is not a %s", oi->name,
				       f->dir == GEN_DIR_REQUEST ? "request" : "response");
		int rnr_ok = oi->transport == RW_TRANSPORT_RC && (oi->flags & RW_OPF_REQUEST) &&
			     (oi->op == RW_OP_SEND || (oi->op == RW_OP_WRITE && (oi->flags & RW_OPF_IMM)));
		if (f->action == GEN_FAULT_RNR && !rnr_ok)
			return sc_fail(c, v->start_mark, "opcode: rnr needs an RC SEND or RDMA WRITE with immediate, got %s",
				       oi->name);
		if (f->action == GEN_FAULT_BAD_RKEY &&
		    !(oi->transport == RW_TRANSPORT_RC && (oi->hdrs & (RW_HDR_RETH | RW_HDR_ATOMICETH))))
			return sc_fail(c, v->start_mark, "opcode: bad_rkey needs an RC request with a RETH or AtomicETH, got %s",
				       oi->name);
	}
	if (fl && f->qpn >= 0) {
		uint32_t q = (uint32_t)f->qpn;
		if (!(q >= fl->dst_qpn && q < fl->dst_qpn + fl->qps) && !(q >= fl->src_qpn && q < fl->src_qpn + fl->qps))
			return sc_fail(c, sc_get(c, n, "qpn")->start_mark,
				       "qpn: 0x%x is not a QPN of flow '%s' (0x%x..0x%x, 0x%x..0x%x)", q, fl->name,
				       fl->src_qpn, fl->src_qpn + fl->qps - 1, fl->dst_qpn, fl->dst_qpn + fl->qps - 1);
	}
	/* An RNR NAK on a request is followed by its resend, which the same
	 * fault hits again unless something bounds it; with rnr_retry 7 (IBA:
	 * retry without limit) the QP would retry forever and the run never
	 * end. */
	if (f->action == GEN_FAULT_RNR && !f->count && !f->transmission && f->probability >= 1 && f->every <= 1 &&
	    !f->until_ns) {
		for (uint32_t i = 0; i < s->n_flows; i++) {
			const struct gen_flow *g = &s->flows[i];
			if ((fl && g != fl) || g->transport != GEN_RC || g->rnr_retry != 7 ||
			    !(g->op_weight[GEN_OP_SEND] || g->op_weight[GEN_OP_SEND_IMM] ||
			      g->op_weight[GEN_OP_SEND_INV] || g->op_weight[GEN_OP_WRITE_IMM]))
				continue;
			return sc_fail(c, n->start_mark,
				       "fault: rnr hits every resend of a request it hits and flow '%s' retries RNR "
				       "without limit (rnr_retry 7): the run would never end; give the fault a count, "
				       "transmission, every, until or a probability below 1, or the flow an rnr_retry below 7",
				       g->name);
		}
	}
	if (f->until_ns && f->until_ns <= f->after_ns)
		return sc_fail(c, sc_get(c, n, "until")->start_mark,
			       "until: expected a time after 'after' (%llu ns), got %llu ns",
			       (unsigned long long)f->after_ns, (unsigned long long)f->until_ns);
	return 0;
}

static int read_fault(struct sc_ctx *c, const yaml_node_t *n, const struct gen_scenario *s, struct gen_fault *f)
{
	static const char *const dirs[] = { "any", "request", "response", NULL };
	yaml_node_t *v;
	uint64_t u;
	unsigned e;
	*f = (struct gen_fault){ .flow = -1, .qpn = -1, .psn_lo = -1, .psn_hi = -1, .opcode = -1, .probability = 1,
				 .line = (uint32_t)n->start_mark.line + 1 };
	if (sc_check_map(c, n, "fault", fault_keys))
		return -1;
	if (!(v = sc_get(c, n, "action")))
		return sc_fail(c, n->start_mark, "fault: expected an action (drop, ecn_mark, corrupt, rnr or bad_rkey)");
	if (sc_enum(c, "action", v, action_names, "drop, ecn_mark, corrupt, rnr or bad_rkey", &e))
		return -1;
	f->action = (enum gen_fault_action)e;
	if ((v = sc_get(c, n, "flow")) && find_flow(c, v, s, &f->flow))
		return -1;
	if ((v = sc_get(c, n, "qpn"))) {
		if (sc_uint(c, "qpn", v, 0, 0xFFFFFF, 1, &u))
			return -1;
		f->qpn = (int64_t)u;
	}
	if ((v = sc_get(c, n, "psn")) && read_psn(c, v, f))
		return -1;
	if ((v = sc_get(c, n, "opcode")) && read_opcode(c, v, &f->opcode))
		return -1;
	if ((v = sc_get(c, n, "dir"))) {
		if (sc_enum(c, "dir", v, dirs, "any, request or response", &e))
			return -1;
		f->dir = (enum gen_dir)e;
	}
	if ((v = sc_get(c, n, "transmission"))) {
		if (sc_uint(c, "transmission", v, 0, UINT32_MAX, 0, &u))
			return -1;
		f->transmission = (uint32_t)u;
	}
	if ((v = sc_get(c, n, "probability")) && sc_probability(c, "probability", v, &f->probability))
		return -1;
	if (read_dur(c, n, "after", &f->after_ns) || read_dur(c, n, "until", &f->until_ns) ||
	    read_u64(c, n, "every", UINT64_MAX, &f->every) || read_u64(c, n, "count", UINT64_MAX, &f->count))
		return -1;
	return check_fault(c, n, s, f);
}

static int read_faults(struct sc_ctx *c, const yaml_node_t *n, struct gen_scenario *s)
{
	if (n->type != YAML_SEQUENCE_NODE)
		return sc_expected(c, "faults", n, "a sequence of faults");
	size_t cnt = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	if (cnt > SC_MAX_FAULTS)
		return sc_fail(c, n->start_mark, "faults: expected at most %u faults, got %zu", SC_MAX_FAULTS, cnt);
	if (cnt && !(s->faults = calloc(cnt, sizeof(*s->faults))))
		return sc_fail(c, n->start_mark, "out of memory");
	for (uint32_t i = 0; i < cnt; i++) {
		if (read_fault(c, sc_node(c, n->data.sequence.items.start[i]), s, &s->faults[i]))
			return -1;
		s->n_faults = i + 1;
	}
	return 0;
}

static const char *const top_keys[] = { "name",  "duration", "packets",  "line_rate", "link_delay",
					"seed",  "hosts",    "defaults", "flows",     "faults",
					"congestion", NULL };

/* The scenario's name when the file gives none: the file's, without
 * directories and extension. */
static void name_from_file(const char *file, char *out, size_t cap)
{
	const char *b = strrchr(file, '/');
	b = b ? b + 1 : file;
	size_t n = strcspn(b, ".");
	if (n == 0)
		n = strlen(b);
	if (n >= cap)
		n = cap - 1;
	memcpy(out, b, n);
	out[n] = 0;
}

static int read_root(struct sc_ctx *c, const yaml_node_t *root, struct gen_scenario *s)
{
	yaml_node_t *v;
	if (!root || (root->type == YAML_SCALAR_NODE && root->data.scalar.length == 0))
		return sc_fail(c, root ? root->start_mark : mark0(),
			       "empty scenario: expected a mapping with hosts and flows");
	if (root->type != YAML_MAPPING_NODE) {
		char got[64];
		return sc_fail(c, root->start_mark, "expected a mapping with hosts and flows, got %s",
			       sc_got(root, got, sizeof(got)));
	}
	if (sc_check_map(c, root, "scenario", top_keys))
		return -1;
	if ((v = sc_get(c, root, "name")) && sc_name(c, "name", v, s->name, sizeof(s->name)))
		return -1;
	if (read_dur(c, root, "duration", &s->duration_ns) || read_u64(c, root, "packets", UINT64_MAX, &s->packets) ||
	    read_dur(c, root, "link_delay", &s->link_delay_ns) || read_u64(c, root, "seed", UINT64_MAX, &s->seed))
		return -1;
	if ((v = sc_get(c, root, "line_rate")) && sc_bitrate(c, "line_rate", v, &s->line_rate_gbps))
		return -1;
	if (!(v = sc_get(c, root, "hosts")))
		return sc_fail(c, root->start_mark, "scenario: expected hosts (a sequence of at least two hosts)");
	if (read_hosts(c, v, s))
		return -1;
	if (!(v = sc_get(c, root, "flows")))
		return sc_fail(c, root->start_mark, "scenario: expected flows (a sequence of at least one flow)");
	/* the flows' checks need the loop's mode (cm with a real responder),
	 * which sc_congestion() reads (and checks) after them */
	const yaml_node_t *cc = sc_get(c, root, "congestion"), *mode;
	if (cc && cc->type == YAML_MAPPING_NODE && (mode = sc_get(c, cc, "mode")) && mode->type == YAML_SCALAR_NODE)
		c->closed_loop = strcmp((const char *)mode->data.scalar.value, "closed_loop") == 0;
	if (sc_flows(c, sc_get(c, root, "defaults"), v, s))
		return -1;
	if ((v = sc_get(c, root, "faults")) && read_faults(c, v, s))
		return -1;
	return sc_congestion(c, root, s);
}

int gen_scenario_parse(const char *text, size_t len, const char *name, struct gen_scenario *out, char *err,
		       size_t errcap)
{
	char file[256];
	size_t k = 0;
	/* The name starts every message line: keep it to one line. */
	for (const char *p = name ? name : "scenario"; *p && k + 1 < sizeof(file); p++)
		file[k++] = (unsigned char)*p < 0x20 ? '?' : *p;
	file[k] = 0;
	char dummy[1];
	struct sc_ctx c = { .file = file, .err = err && errcap ? err : dummy, .errcap = err && errcap ? errcap : 1 };
	c.err[0] = 0;
	if (len > SC_MAX_FILE) {
		snprintf(c.err, c.errcap, "%s: larger than 16 MiB: not a scenario file", file);
		return -1;
	}
	if (prescan(&c, text, len))
		return -1;
	yaml_parser_t p;
	yaml_document_t doc;
	if (!yaml_parser_initialize(&p))
		return sc_fail(&c, mark0(), "out of memory");
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	if (!yaml_parser_load(&p, &doc)) {
		yaml_problem(&c, &p, text, len);
		yaml_parser_delete(&p);
		return -1;
	}
	yaml_parser_delete(&p);
	c.doc = &doc;
	struct gen_scenario s = {
		.line_rate_gbps = 100,
		.link_delay_ns = 1000,
		.seed = 1,
	};
	name_from_file(file, s.name, sizeof(s.name));
	int rc = read_root(&c, yaml_document_get_root_node(&doc), &s);
	yaml_document_delete(&doc);
	if (rc) {
		gen_scenario_free(&s);
		return -1;
	}
	*out = s;
	return 0;
}

int gen_scenario_load(const char *path, struct gen_scenario *out, char *err, size_t errcap)
{
	char dummy[1];
	if (!err || !errcap)
		err = dummy, errcap = 1;
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		snprintf(err, errcap, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fileno(fp), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		snprintf(err, errcap, "%s: not a regular file", path);
		fclose(fp);
		return -1;
	}
	/* Read at most one byte past the limit: a pipe has no size to ask. */
	size_t cap = 64 * 1024, len = 0;
	char *buf = malloc(cap);
	while (buf) {
		if (len == cap) {
			if (cap > SC_MAX_FILE)
				break;
			size_t ncap = cap * 2 > SC_MAX_FILE + 1 ? SC_MAX_FILE + 1 : cap * 2;
			char *nb = realloc(buf, ncap);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap = ncap;
		}
		size_t r = fread(buf + len, 1, cap - len, fp);
		len += r;
		if (r == 0)
			break;
	}
	int rerr = ferror(fp);
	fclose(fp);
	if (!buf) {
		snprintf(err, errcap, "%s: out of memory", path);
		return -1;
	}
	if (rerr) {
		snprintf(err, errcap, "%s: read error", path);
		free(buf);
		return -1;
	}
	int rc = gen_scenario_parse(buf, len, path, out, err, errcap);
	free(buf);
	return rc;
}

void gen_scenario_free(struct gen_scenario *s)
{
	if (!s)
		return;
	free(s->hosts);
	free(s->flows);
	free(s->faults);
	memset(s, 0, sizeof(*s));
}

/* The built-in scenario, in the file format so that it reads like a
 * sample and goes through the same checks. Bounded to 20,000 packets of at
 * most ~1.1 kB: a pcap of ~20 MB. */
static const char default_yaml[] =
	"name: default\n"
	"duration: 10ms\n"
	"packets: 20000\n"
	"line_rate: 100Gbps\n"
	"hosts:\n"
	"  - {name: a, mac: \"02:00:00:00:00:01\", ip: 10.0.0.1}\n"
	"  - {name: b, mac: \"02:00:00:00:00:02\", ip: 10.0.0.2}\n"
	"flows:\n"
	"  - name: mix\n"
	"    from: a\n"
	"    to: b\n"
	"    transport: rc\n"
	"    ops: {write: 2, read: 1, send: 1}\n"
	"    size: {choice: {64: 1, 4096: 2, 16KiB: 1}}\n"
	"    mtu: 1024\n"
	"    rate: 10Gbps\n"
	"    qps: 4\n";

int gen_scenario_default(struct gen_scenario *out)
{
	char err[256];
	return gen_scenario_parse(default_yaml, sizeof(default_yaml) - 1, "default", out, err, sizeof(err));
}
