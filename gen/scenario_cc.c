/* SPDX-License-Identifier: BSD-3-Clause */
/* The `congestion:` section of a scenario: the mode, the simulated switch
 * port, the DCQCN reaction point, the notification point, PFC behaviour and
 * the simulator's output files (README-congestion.md, "Scenario keys").
 *
 * Values land in the models' own structs of cc.h (struct cc_sw_params,
 * cc_dcqcn_params, cc_np_params) in their units: bits per second, bytes,
 * nanoseconds, fractions. The DCQCN and NP parameters start from a named
 * preset (cc_dcqcn_preset, cc_np_preset) and every key given overrides one
 * field. Checks across keys (kmin <= kmax, xon < xoff, keys that only mean
 * something in one mode) point at the key or value that broke them. */
#include "scenario_int.h"

#include <stdio.h>
#include <string.h>

/* The sizes a port model can be asked for: beyond these the descriptor
 * pool alone (cc_sw_new: 2 * buffer / 64 descriptors) takes gigabytes. */
#define CC_MAX_BUFFER (1ull << 30)
#define CC_MAX_PACKETS (1u << 26)
/* The NP key table is 2 * max_keys slots of ~48 bytes: 100 MB at most. */
#define CC_MAX_NP_KEYS (1u << 20)
/* A 12 MB shared buffer: Broadcom Trident2's, the switch of the DCQCN
 * paper's testbed and HPCC's default topology. */
#define CC_DEFAULT_BUFFER 12000000u

static const char *const cc_keys[] = { "mode", "switch", "dcqcn", "np", "pfc", "outputs", NULL };
static const char *const sw_keys[] = { "link_rate",	"buffer",	"scheduler",  "pause_quanta",
				       "pause_refresh", "storm_refresh", "max_packets", "priorities",
				       "storms",	"seed",		NULL };
static const char *const prio_keys[] = { "lossless", "ecn", "kmin", "kmax", "pmax", "xoff", "xon", NULL };
static const char *const storm_keys[] = { "priority", "start", "duration", NULL };
static const char *const dcqcn_keys[] = { "preset",	   "g",		    "alpha_init",     "alpha_period",
					  "timer",	   "byte_counter", "fast_recovery", "rate_ai",
					  "rate_hai",	   "min_rate",	    "min_dec_factor", "reduce_period",
					  NULL };
static const char *const np_keys[] = { "preset", "interval", "mode", "defer", "behaviour", "fast_interval",
				       "max_keys", NULL };
static const char *const pfc_keys[] = { "response", "ignore", NULL };
static const char *const out_keys[] = { "fct", "pfc", "qlen", "qlen_interval", "format", NULL };

static const char *const mode_names[] = { [GEN_CC_OFF] = "off", [GEN_CC_SIMULATED] = "simulated",
					  [GEN_CC_CLOSED_LOOP] = "closed_loop", NULL };
_Static_assert(sizeof(mode_names) / sizeof(mode_names[0]) == GEN_CC_MODES + 1, "mode_names: every value, then NULL");
static const char *const preset_names[] = { "paper", "mlx5", NULL };

/* The key node of key in a checked mapping (for messages about the key). */
static const yaml_node_t *key_of(struct sc_ctx *c, const yaml_node_t *map, const char *key)
{
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = sc_node(c, p->key);
		if (k->type == YAML_SCALAR_NODE && strcmp((const char *)k->data.scalar.value, key) == 0)
			return k;
	}
	return NULL;
}

static int opt_bytes(struct sc_ctx *c, const yaml_node_t *map, const char *key, uint64_t min, uint64_t max,
		     uint64_t *out)
{
	yaml_node_t *v = sc_get(c, map, key);
	return v ? sc_bytes_si(c, key, v, min, max, out) : 0;
}

static int opt_dur(struct sc_ctx *c, const yaml_node_t *map, const char *key, uint64_t *out)
{
	yaml_node_t *v = sc_get(c, map, key);
	return v ? sc_duration(c, key, v, 0, out) : 0;
}

static int opt_bps(struct sc_ctx *c, const yaml_node_t *map, const char *key, int zero_ok, double *out)
{
	yaml_node_t *v = sc_get(c, map, key);
	return v ? sc_bps(c, key, v, zero_ok, out) : 0;
}

static int opt_frac(struct sc_ctx *c, const yaml_node_t *map, const char *key, double *out)
{
	yaml_node_t *v = sc_get(c, map, key);
	return v ? sc_fraction(c, key, v, out) : 0;
}

static int opt_bool(struct sc_ctx *c, const yaml_node_t *map, const char *key, uint8_t *out)
{
	yaml_node_t *v = sc_get(c, map, key);
	return v ? sc_bool(c, key, v, out) : 0;
}

/* ---- the switch port -------------------------------------------------- */

/* Keys that mean nothing unless another key says so: an error where they
 * are given, as a transport-only key on another transport. */
static int needs(struct sc_ctx *c, const yaml_node_t *map, const char *key, int ok, const char *why)
{
	const yaml_node_t *k = key_of(c, map, key);
	if (k && !ok)
		return sc_fail(c, k->start_mark, "%s: %s", key, why);
	return 0;
}

static int read_prio(struct sc_ctx *c, const yaml_node_t *n, uint8_t p, struct cc_sw_prio *pr)
{
	char what[24], why[80];
	snprintf(what, sizeof(what), "priority %u", p);
	if (sc_check_map(c, n, what, prio_keys))
		return -1;
	if (opt_bool(c, n, "lossless", &pr->lossless) || opt_bool(c, n, "ecn", &pr->ecn) ||
	    opt_bytes(c, n, "kmin", 0, CC_MAX_BUFFER, &pr->kmin) || opt_bytes(c, n, "kmax", 0, CC_MAX_BUFFER, &pr->kmax) ||
	    opt_frac(c, n, "pmax", &pr->pmax) || opt_bytes(c, n, "xoff", 1, CC_MAX_BUFFER, &pr->xoff) ||
	    opt_bytes(c, n, "xon", 0, CC_MAX_BUFFER, &pr->xon))
		return -1;
	snprintf(why, sizeof(why), "applies when ecn is true (priority %u has ecn: false)", p);
	if (needs(c, n, "kmin", pr->ecn, why) || needs(c, n, "kmax", pr->ecn, why) ||
	    needs(c, n, "pmax", pr->ecn, why))
		return -1;
	snprintf(why, sizeof(why), "applies to lossless priorities only (priority %u is lossy)", p);
	if (needs(c, n, "xoff", pr->lossless, why) || needs(c, n, "xon", pr->lossless, why))
		return -1;
	/* 802.1Qbb: a lossless class without thresholds would never pause
	 * its senders, only grow without bound. */
	if (pr->lossless && (!sc_get(c, n, "xoff") || !sc_get(c, n, "xon")))
		return sc_fail(c, n->start_mark, "priority %u: lossless needs xoff and xon (bytes of its queue)", p);
	if (pr->kmin > pr->kmax) {
		/* The one given last in the mapping's terms: kmax if given. */
		yaml_node_t *v = sc_get(c, n, "kmax");
		if (v)
			return sc_fail(c, v->start_mark, "kmax: expected at least kmin (%llu bytes), got %llu bytes",
				       (unsigned long long)pr->kmin, (unsigned long long)pr->kmax);
		return sc_fail(c, sc_get(c, n, "kmin")->start_mark,
			       "kmin: expected at most kmax (%llu bytes), got %llu bytes", (unsigned long long)pr->kmax,
			       (unsigned long long)pr->kmin);
	}
	if (pr->lossless && pr->xon >= pr->xoff)
		return sc_fail(c, sc_get(c, n, "xon")->start_mark,
			       "xon: expected less than xoff (%llu bytes), got %llu bytes", (unsigned long long)pr->xoff,
			       (unsigned long long)pr->xon);
	return 0;
}

static int read_prios(struct sc_ctx *c, const yaml_node_t *n, struct cc_sw_params *sw)
{
	if (!n || n->type != YAML_MAPPING_NODE)
		return sc_expected(c, "priorities", n, "a mapping of priority (0..7) to its settings");
	const yaml_node_t *seen[CC_SW_PRIOS] = { 0 };
	for (yaml_node_pair_t *q = n->data.mapping.pairs.start; q < n->data.mapping.pairs.top; q++) {
		yaml_node_t *k = sc_node(c, q->key);
		uint64_t p;
		if (sc_uint(c, "priorities", k, 0, CC_SW_PRIOS - 1, 0, &p))
			return -1;
		if (seen[p])
			return sc_fail(c, k->start_mark, "priorities: duplicate priority %u (first given at line %zu)",
				       (unsigned)p, seen[p]->start_mark.line + 1);
		seen[p] = k;
		if (read_prio(c, sc_node(c, q->value), (uint8_t)p, &sw->prio[p]))
			return -1;
	}
	return 0;
}

static int read_storms(struct sc_ctx *c, const yaml_node_t *n, struct gen_congestion *cc)
{
	if (n->type != YAML_SEQUENCE_NODE)
		return sc_expected(c, "storms", n, "a sequence of storms ({priority, start, duration})");
	size_t cnt = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	if (cnt > GEN_CC_STORMS)
		return sc_fail(c, n->start_mark, "storms: expected at most %d storms, got %zu", GEN_CC_STORMS, cnt);
	for (size_t i = 0; i < cnt; i++) {
		yaml_node_t *e = sc_node(c, n->data.sequence.items.start[i]), *v;
		struct gen_cc_storm *st = &cc->storms[i];
		uint64_t u;
		*st = (struct gen_cc_storm){ .line = (uint32_t)e->start_mark.line + 1 };
		if (sc_check_map(c, e, "storm", storm_keys))
			return -1;
		if (!(v = sc_get(c, e, "priority")) || !sc_get(c, e, "duration"))
			return sc_fail(c, e->start_mark, "storm: expected priority and duration");
		if (sc_uint(c, "priority", v, 0, CC_SW_PRIOS - 1, 0, &u) || opt_dur(c, e, "start", &st->start_ns) ||
		    opt_dur(c, e, "duration", &st->duration_ns))
			return -1;
		st->prio = (uint8_t)u;
		v = sc_get(c, e, "duration");
		if (st->duration_ns == 0)
			return sc_expected(c, "duration", v, "a duration above 0");
		if (st->start_ns + st->duration_ns < st->start_ns)
			return sc_fail(c, v->start_mark, "duration: start + duration passes 584 years");
		cc->n_storms = (uint32_t)i + 1;
	}
	return 0;
}

static int read_switch(struct sc_ctx *c, const yaml_node_t *n, struct gen_congestion *cc)
{
	static const char *const scheds[] = { [CC_SW_STRICT] = "strict", [CC_SW_ROUND_ROBIN] = "round_robin", NULL };
	_Static_assert(sizeof(scheds) / sizeof(scheds[0]) == CC_SW_SCHEDS + 1, "scheds: every value, then NULL");
	struct cc_sw_params *sw = &cc->sw;
	yaml_node_t *v;
	uint64_t u;
	unsigned e;
	if (sc_check_map(c, n, "switch", sw_keys))
		return -1;
	if (opt_bps(c, n, "link_rate", 0, &sw->link_bps) || opt_bytes(c, n, "buffer", 1, CC_MAX_BUFFER, &sw->buffer) ||
	    opt_dur(c, n, "pause_refresh", &sw->refresh_ns) || opt_dur(c, n, "storm_refresh", &sw->storm_refresh_ns))
		return -1;
	if ((v = sc_get(c, n, "scheduler"))) {
		if (sc_enum(c, "scheduler", v, scheds, "strict or round_robin", &e))
			return -1;
		sw->sched = (enum cc_sw_sched)e;
	}
	if ((v = sc_get(c, n, "pause_quanta"))) {
		/* 0 quanta is XON: "computed" asks for the time to drain
		 * xoff to xon at the link rate (cc_sw_params.pause_quanta 0). */
		const char *s = sc_text(c, "pause_quanta", v, "computed or 1..0xffff");
		if (!s)
			return -1;
		if (strcmp(s, "computed") == 0)
			sw->pause_quanta = 0;
		else if (sc_parse_uint(s, &u) != 0 || u < 1 || u > 0xFFFF)
			return sc_expected(c, "pause_quanta", v, "computed or 1..0xffff");
		else
			sw->pause_quanta = (uint16_t)u;
	}
	if ((v = sc_get(c, n, "max_packets"))) {
		if (sc_uint(c, "max_packets", v, 1, CC_MAX_PACKETS, 0, &u))
			return -1;
		sw->max_packets = (uint32_t)u;
	}
	if ((v = sc_get(c, n, "seed")) && sc_uint(c, "seed", v, 0, UINT64_MAX, 0, &sw->seed))
		return -1;
	if ((v = sc_get(c, n, "priorities")) && read_prios(c, v, sw))
		return -1;
	if ((v = sc_get(c, n, "storms")) && read_storms(c, v, cc))
		return -1;
	return 0;
}

/* ---- reaction and notification points --------------------------------- */

static int read_preset(struct sc_ctx *c, const yaml_node_t *n, char *name, size_t cap)
{
	yaml_node_t *v = sc_get(c, n, "preset");
	unsigned e;
	if (!v)
		return 0;
	if (sc_enum(c, "preset", v, preset_names, "paper or mlx5", &e))
		return -1;
	snprintf(name, cap, "%s", preset_names[e]);
	return 0;
}

static int read_dcqcn(struct sc_ctx *c, const yaml_node_t *n, struct gen_congestion *cc)
{
	struct cc_dcqcn_params *p = &cc->dcqcn;
	yaml_node_t *v;
	uint64_t u;
	if (sc_check_map(c, n, "dcqcn", dcqcn_keys) || read_preset(c, n, cc->dcqcn_preset, sizeof(cc->dcqcn_preset)))
		return -1;
	cc_dcqcn_preset(cc->dcqcn_preset, p);
	if (opt_frac(c, n, "g", &p->g) || opt_frac(c, n, "alpha_init", &p->alpha_init) ||
	    opt_dur(c, n, "alpha_period", &p->alpha_period_ns) || opt_dur(c, n, "timer", &p->timer_ns) ||
	    opt_bytes(c, n, "byte_counter", 0, 1ull << 40, &p->byte_counter) ||
	    opt_bps(c, n, "rate_ai", 1, &p->rai_bps) || opt_bps(c, n, "rate_hai", 1, &p->rhai_bps) ||
	    opt_bps(c, n, "min_rate", 1, &p->rmin_bps) || opt_frac(c, n, "min_dec_factor", &p->min_dec_factor) ||
	    opt_dur(c, n, "reduce_period", &p->reduce_period_ns))
		return -1;
	if ((v = sc_get(c, n, "fast_recovery"))) {
		if (sc_uint(c, "fast_recovery", v, 0, 1000000, 0, &u))
			return -1;
		p->fast_recovery = (uint32_t)u;
	}
	return 0;
}

static int read_np(struct sc_ctx *c, const yaml_node_t *n, struct gen_congestion *cc)
{
	static const char *const modes[] = { [CC_NP_PER_QP] = "qp", [CC_NP_PER_IP_PAIR] = "ip_pair",
					     [CC_NP_PER_DEST_IP] = "dest_ip", NULL };
	_Static_assert(sizeof(modes) / sizeof(modes[0]) == CC_NP_MODES + 1, "modes: every value, then NULL");
	static const char *const behaviours[] = { [CC_NP_COMPLIANT] = "compliant", [CC_NP_EVERY_CE] = "every_ce",
						  [CC_NP_FAST] = "fast", NULL };
	_Static_assert(sizeof(behaviours) / sizeof(behaviours[0]) == CC_NP_BEHAVIOURS + 1, "behaviours: every value, then NULL");
	struct cc_np_params *p = &cc->np;
	yaml_node_t *v;
	uint64_t u;
	unsigned e;
	if (sc_check_map(c, n, "np", np_keys) || read_preset(c, n, cc->np_preset, sizeof(cc->np_preset)))
		return -1;
	cc_np_preset(cc->np_preset, p);
	if (opt_dur(c, n, "interval", &p->interval_ns) || opt_dur(c, n, "fast_interval", &p->fast_interval_ns) ||
	    opt_bool(c, n, "defer", &p->defer))
		return -1;
	if ((v = sc_get(c, n, "mode"))) {
		if (sc_enum(c, "mode", v, modes, "qp, ip_pair or dest_ip", &e))
			return -1;
		p->mode = (enum cc_np_mode)e;
	}
	if ((v = sc_get(c, n, "behaviour"))) {
		if (sc_enum(c, "behaviour", v, behaviours, "compliant, every_ce or fast", &e))
			return -1;
		p->behaviour = (enum cc_np_behaviour)e;
	}
	if ((v = sc_get(c, n, "max_keys"))) {
		if (sc_uint(c, "max_keys", v, 1, CC_MAX_NP_KEYS, 0, &u))
			return -1;
		p->max_keys = (uint32_t)u;
	}
	if (needs(c, n, "fast_interval", p->behaviour == CC_NP_FAST, "applies to behaviour: fast only"))
		return -1;
	if (p->behaviour == CC_NP_FAST) {
		/* fast is a NIC that paces faster than it says: without its
		 * real interval there is nothing to misbehave with. */
		if (!(v = sc_get(c, n, "fast_interval")))
			return sc_fail(c, sc_get(c, n, "behaviour")->start_mark,
				       "behaviour: fast needs fast_interval (the pacing it really applies)");
		if (p->fast_interval_ns >= p->interval_ns)
			return sc_fail(c, v->start_mark,
				       "fast_interval: expected less than interval (%llu ns), got %llu ns",
				       (unsigned long long)p->interval_ns, (unsigned long long)p->fast_interval_ns);
	}
	return 0;
}

/* ---- PFC and outputs -------------------------------------------------- */

static int read_pfc(struct sc_ctx *c, const yaml_node_t *n, struct gen_congestion *cc)
{
	if (sc_check_map(c, n, "pfc", pfc_keys) || opt_dur(c, n, "response", &cc->pfc_response_ns) ||
	    opt_bool(c, n, "ignore", &cc->pfc_ignore))
		return -1;
	cc->sw.response_ns = cc->pfc_response_ns;
	return 0;
}

static int read_outputs(struct sc_ctx *c, const yaml_node_t *n, struct gen_congestion *cc)
{
	static const char *const formats[] = { [GEN_CC_CSV] = "csv", [GEN_CC_JSONL] = "jsonl", NULL };
	_Static_assert(sizeof(formats) / sizeof(formats[0]) == GEN_CC_FORMATS + 1, "formats: every value, then NULL");
	struct gen_congestion_outputs *o = &cc->out;
	static const char *const files[] = { "fct", "pfc", "qlen" };
	char *paths[] = { o->fct, o->pfc, o->qlen };
	yaml_node_t *v;
	unsigned e;
	if (sc_check_map(c, n, "outputs", out_keys))
		return -1;
	for (unsigned i = 0; i < 3; i++) {
		if (!(v = sc_get(c, n, files[i])))
			continue;
		if (sc_path(c, files[i], v, paths[i], GEN_PATH_MAX))
			return -1;
		/* Two writers renaming onto one name: the second would win. */
		for (unsigned j = 0; j < i; j++)
			if (strcmp(paths[j], paths[i]) == 0)
				return sc_fail(c, v->start_mark, "%s: '%s' is already the %s file", files[i], paths[i],
					       files[j]);
	}
	if ((v = sc_get(c, n, "qlen_interval"))) {
		if (sc_duration(c, "qlen_interval", v, 0, &o->qlen_interval_ns))
			return -1;
		if (o->qlen_interval_ns == 0)
			return sc_expected(c, "qlen_interval", v, "a duration above 0");
	}
	if (needs(c, n, "qlen_interval", o->qlen[0] != 0, "applies when qlen names a file"))
		return -1;
	if ((v = sc_get(c, n, "format"))) {
		if (sc_enum(c, "format", v, formats, "csv or jsonl", &e))
			return -1;
		o->format = (enum gen_cc_format)e;
	}
	if (needs(c, n, "qlen", cc->mode != GEN_CC_CLOSED_LOOP,
		  "needs mode simulated (a closed loop has no model queue to sample)"))
		return -1;
	return 0;
}

/* ---- the section ------------------------------------------------------ */

static void cc_defaults(struct gen_scenario *s)
{
	struct gen_congestion *cc = &s->cc;
	memset(cc, 0, sizeof(*cc));
	cc->mode = GEN_CC_OFF;
	cc_sw_defaults(&cc->sw, s->line_rate_gbps * 1e9, CC_DEFAULT_BUFFER, CC_SW_PRIOS);
	cc->sw.seed = s->seed;
	snprintf(cc->dcqcn_preset, sizeof(cc->dcqcn_preset), "paper");
	cc_dcqcn_preset(cc->dcqcn_preset, &cc->dcqcn);
	snprintf(cc->np_preset, sizeof(cc->np_preset), "paper");
	cc_np_preset(cc->np_preset, &cc->np);
	cc->out.qlen_interval_ns = 1000;
	cc->out.format = GEN_CC_CSV;
}

int sc_congestion(struct sc_ctx *c, const yaml_node_t *root, struct gen_scenario *s)
{
	struct gen_congestion *cc = &s->cc;
	yaml_node_t *n = sc_get(c, root, "congestion"), *v;
	unsigned e;
	cc_defaults(s);
	if (!n)
		return 0;
	cc->line = (uint32_t)key_of(c, root, "congestion")->start_mark.line + 1;
	if (sc_check_map(c, n, "congestion", cc_keys))
		return -1;
	/* A section without a mode asks for the one that needs no network. */
	cc->mode = GEN_CC_SIMULATED;
	if ((v = sc_get(c, n, "mode"))) {
		if (sc_enum(c, "mode", v, mode_names, "off, simulated or closed_loop", &e))
			return -1;
		cc->mode = (enum gen_cc_mode)e;
	}
	/* mode: off keeps the rest checked, so that switching a scenario
	 * between modes is a one-word edit. */
	if (needs(c, n, "switch", cc->mode != GEN_CC_CLOSED_LOOP,
		  "applies to mode simulated only (closed_loop's bottleneck is the real network)"))
		return -1;
	static int (*const readers[])(struct sc_ctx *, const yaml_node_t *, struct gen_congestion *) = {
		read_switch, read_dcqcn, read_np, read_pfc, read_outputs,
	};
	static const char *const sections[] = { "switch", "dcqcn", "np", "pfc", "outputs" };
	for (unsigned i = 0; i < sizeof(readers) / sizeof(readers[0]); i++)
		if ((v = sc_get(c, n, sections[i])) && readers[i](c, v, cc))
			return -1;
	return 0;
}
