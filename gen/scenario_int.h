/* SPDX-License-Identifier: BSD-3-Clause */
/* Inside the scenario parser: the shared context and the typed readers of
 * YAML scalars. Not for other layers: they see only scenario.h.
 *
 * Every reader takes the key it reads for the message, checks the node's
 * kind and its text, and on a mismatch records ONE error line
 * "FILE:LINE:COLUMN: key: expected ..., got ..." at the node's mark and
 * returns -1. The first error wins; callers just unwind. */
#ifndef RWGEN_SCENARIO_INT_H
#define RWGEN_SCENARIO_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

#include "scenario.h"

/* Bounds that keep a hostile or mistaken file from costing more than a
 * real scenario ever needs. */
#define SC_MAX_FILE (16u << 20)
#define SC_MAX_DEPTH 16
#define SC_MAX_NODES 500000u
#define SC_MAX_HOSTS 256u
#define SC_MAX_FLOWS 1024u
#define SC_MAX_FAULTS 1024u
#define SC_MAX_QPS 65536u
#define SC_MAX_TOTAL_QPS 65536u /* all flows together */
#define SC_MAX_MSG (1ull << 31) /* IBA 9.4: a message is at most 2^31 bytes */

struct sc_ctx {
	const char *file;
	char *err;
	size_t errcap;
	int failed;
	yaml_document_t *doc;
	int closed_loop; /* congestion: {mode: closed_loop}, known before the flows are read */
};

#if defined(__GNUC__)
#define SC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SC_PRINTF(a, b)
#endif

/* Records the error (the first one only) and returns -1. */
int sc_fail(struct sc_ctx *c, yaml_mark_t m, const char *fmt, ...) SC_PRINTF(3, 4);
int sc_failv(struct sc_ctx *c, yaml_mark_t m, const char *fmt, va_list ap);
/* "what" the node is, for "got ...": the scalar's text (escaped, cut at
 * 40 characters), "a mapping", "a sequence" or "nothing". */
const char *sc_got(const yaml_node_t *n, char *buf, size_t cap);
int sc_expected(struct sc_ctx *c, const char *key, const yaml_node_t *n, const char *fmt, ...) SC_PRINTF(4, 5);

yaml_node_t *sc_node(struct sc_ctx *c, yaml_node_item_t i);
/* The scalar's text, NUL-terminated by libyaml; NULL (and an error) when
 * the node is not a non-empty scalar. */
const char *sc_text(struct sc_ctx *c, const char *key, const yaml_node_t *n, const char *what);

/* A mapping whose keys are all scalars from known[] (NULL-terminated), none
 * given twice. what names the mapping in messages ("flow", "host"). */
int sc_check_map(struct sc_ctx *c, const yaml_node_t *n, const char *what, const char *const *known);
/* The value of key in a checked mapping, or NULL. */
yaml_node_t *sc_get(struct sc_ctx *c, const yaml_node_t *map, const char *key);
/* Edit distance suggestion for an unknown word among names, or NULL. */
const char *sc_suggest(const char *word, const char *const *names);

/* Integers: decimal, 0x hex or 0b binary, '_' between digits. */
int sc_uint(struct sc_ctx *c, const char *key, const yaml_node_t *n, uint64_t min, uint64_t max, int hex,
	    uint64_t *out);
int sc_parse_uint(const char *s, uint64_t *out); /* 0, or -1 malformed, -2 overflow */
/* A duration: a decimal number and ns, us, ms or s; bare numbers only as 0
 * unless bare_ns (the nanoseconds a bare number counts) is not 0. */
int sc_duration(struct sc_ctx *c, const char *key, const yaml_node_t *n, uint64_t bare_ns, uint64_t *out);
/* Bytes: a number, optionally with B, KiB, MiB or GiB. */
int sc_bytes(struct sc_ctx *c, const char *key, const yaml_node_t *n, uint64_t min, uint64_t max, uint64_t *out);
/* The same with decimal KB, MB, GB as well (the congestion section). */
int sc_bytes_si(struct sc_ctx *c, const char *key, const yaml_node_t *n, uint64_t min, uint64_t max, uint64_t *out);
/* A bit rate in b/s, exact for its text; 0 (bare or with a unit) only with zero_ok. */
int sc_bps(struct sc_ctx *c, const char *key, const yaml_node_t *n, int zero_ok, double *bps);
/* A number in [0, 1] or a percentage: shares, gains, marking probabilities. */
int sc_fraction(struct sc_ctx *c, const char *key, const yaml_node_t *n, double *out);
int sc_bool(struct sc_ctx *c, const char *key, const yaml_node_t *n, uint8_t *out);
/* A file name to write (at most cap - 1 bytes, no control bytes). */
int sc_path(struct sc_ctx *c, const char *key, const yaml_node_t *n, char *out, size_t cap);
/* A bit rate with bps, Kbps, Mbps, Gbps or Tbps, in Gb/s. */
int sc_bitrate(struct sc_ctx *c, const char *key, const yaml_node_t *n, double *gbps);
int sc_rate(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_rate *out);
int sc_probability(struct sc_ctx *c, const char *key, const yaml_node_t *n, double *out);
int sc_mac(struct sc_ctx *c, const char *key, const yaml_node_t *n, uint8_t mac[6]);
int sc_ip(struct sc_ctx *c, const char *key, const yaml_node_t *n, uint8_t *af, uint8_t ip[16]);
int sc_gid(struct sc_ctx *c, const char *key, const yaml_node_t *n, uint8_t gid[16]);
int sc_pattern(struct sc_ctx *c, const char *key, const yaml_node_t *n, uint8_t *pat, uint16_t *len);
/* One of names[] (NULL-terminated, case-insensitive); *idx its index. */
int sc_enum(struct sc_ctx *c, const char *key, const yaml_node_t *n, const char *const *names, const char *expect,
	    unsigned *idx);
int sc_name(struct sc_ctx *c, const char *key, const yaml_node_t *n, char *out, size_t cap);

/* The flows and their defaults (scenario_flow.c). */
int sc_flows(struct sc_ctx *c, const yaml_node_t *defaults, const yaml_node_t *flows, struct gen_scenario *s);
/* The root's `congestion:` section (scenario_cc.c) onto s->cc: the models'
 * defaults and mode off when the file has none. Needs line_rate and seed
 * read first. */
int sc_congestion(struct sc_ctx *c, const yaml_node_t *root, struct gen_scenario *s);

#endif
