/* SPDX-License-Identifier: BSD-3-Clause */
/* Typed readers of YAML scalars for the scenario parser: integers, units,
 * rates, addresses and byte patterns, each with its one-line error.
 *
 * Numbers are parsed by hand rather than with strtoull/strtod: those accept
 * signs, leading spaces, "inf", "nan" and hex floats, and wrap silently, all
 * of which a scenario file should reject with a message. */
#include "scenario_int.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int sc_failv(struct sc_ctx *c, yaml_mark_t m, const char *fmt, va_list ap)
{
	if (c->failed)
		return -1;
	c->failed = 1;
	int n = snprintf(c->err, c->errcap, "%s:%zu:%zu: ", c->file, m.line + 1, m.column + 1);
	if (n >= 0 && (size_t)n < c->errcap)
		vsnprintf(c->err + n, c->errcap - (size_t)n, fmt, ap);
	return -1;
}

int sc_fail(struct sc_ctx *c, yaml_mark_t m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sc_failv(c, m, fmt, ap);
	va_end(ap);
	return -1;
}

const char *sc_got(const yaml_node_t *n, char *buf, size_t cap)
{
	if (!n)
		return "nothing";
	if (n->type == YAML_MAPPING_NODE)
		return "a mapping";
	if (n->type == YAML_SEQUENCE_NODE)
		return "a sequence";
	if (n->type != YAML_SCALAR_NODE || n->data.scalar.length == 0)
		return "nothing";
	/* The error is one line: control bytes and newlines are escaped, and a
	 * long value is cut so that the line stays readable. */
	size_t o = 0;
	const unsigned char *s = n->data.scalar.value;
	size_t len = n->data.scalar.length;
	for (size_t i = 0; i < len && o + 8 < cap; i++) {
		if (i == 40) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		if (s[i] < 0x20 || s[i] == 0x7f)
			o += (size_t)snprintf(buf + o, cap - o, "\\x%02x", s[i]);
		else
			buf[o++] = (char)s[i];
	}
	buf[o] = 0;
	return buf;
}

int sc_expected(struct sc_ctx *c, const char *key, const yaml_node_t *n, const char *fmt, ...)
{
	char what[256], got[64];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	yaml_mark_t m = n ? n->start_mark : (yaml_mark_t){ 0 };
	return sc_fail(c, m, "%s: expected %s, got %s", key, what, sc_got(n, got, sizeof(got)));
}

yaml_node_t *sc_node(struct sc_ctx *c, yaml_node_item_t i)
{
	return yaml_document_get_node(c->doc, i);
}

const char *sc_text(struct sc_ctx *c, const char *key, const yaml_node_t *n, const char *what)
{
	if (!n || n->type != YAML_SCALAR_NODE || n->data.scalar.length == 0) {
		sc_expected(c, key, n, "%s", what);
		return NULL;
	}
	/* libyaml keeps NUL bytes that an escape ("\0") put in a quoted scalar;
	 * C string handling below would silently cut there. */
	if (strlen((const char *)n->data.scalar.value) != n->data.scalar.length) {
		sc_expected(c, key, n, "%s", what);
		return NULL;
	}
	return (const char *)n->data.scalar.value;
}

static unsigned edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned row[33];
	if (la > 32 || lb > 32)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned diag = row[0];
		row[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned up = row[j];
			unsigned best = diag + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char *sc_suggest(const char *word, const char *const *names)
{
	const char *best = NULL;
	unsigned bd = 3; /* more than two edits away is a different word */
	for (; *names; names++) {
		unsigned d = edit_distance(word, *names);
		/* ... and so is one where most letters changed ("x" for "w"). */
		if (d < bd && 2 * d < strlen(word)) {
			bd = d;
			best = *names;
		}
	}
	return best;
}

int sc_check_map(struct sc_ctx *c, const yaml_node_t *n, const char *what, const char *const *known)
{
	char got[64];
	if (!n || n->type != YAML_MAPPING_NODE)
		return sc_fail(c, n ? n->start_mark : (yaml_mark_t){ 0 }, "%s: expected a mapping, got %s", what,
			       sc_got(n, got, sizeof(got)));
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = sc_node(c, p->key);
		const char *name = sc_text(c, what, k, "a key name");
		if (!name)
			return -1;
		size_t i = 0;
		while (known[i] && strcmp(known[i], name) != 0)
			i++;
		if (!known[i]) {
			const char *s = sc_suggest(name, known);
			if (s)
				return sc_fail(c, k->start_mark, "%s: unknown key '%s' (did you mean '%s'?)", what,
					       sc_got(k, got, sizeof(got)), s);
			return sc_fail(c, k->start_mark, "%s: unknown key '%s'", what, sc_got(k, got, sizeof(got)));
		}
		for (yaml_node_pair_t *q = n->data.mapping.pairs.start; q < p; q++) {
			yaml_node_t *k2 = sc_node(c, q->key);
			if (k2->type == YAML_SCALAR_NODE && strcmp((const char *)k2->data.scalar.value, name) == 0)
				return sc_fail(c, k->start_mark, "%s: duplicate key '%s' (first given at line %zu)",
					       what, name, k2->start_mark.line + 1);
		}
	}
	return 0;
}

yaml_node_t *sc_get(struct sc_ctx *c, const yaml_node_t *map, const char *key)
{
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = sc_node(c, p->key);
		if (k->type == YAML_SCALAR_NODE && strcmp((const char *)k->data.scalar.value, key) == 0)
			return sc_node(c, p->value);
	}
	return NULL;
}

static int digit_val(int ch, int base)
{
	int v = ch >= '0' && ch <= '9' ? ch - '0'
		: ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
		: ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
					  : 99;
	return v < base ? v : -1;
}

/* Digits of one base with '_' allowed between them (YAML 1.1 and most
 * languages let engineers write 100_000). Stops at the first other
 * character; *end points there. */
static int parse_digits(const char *s, int base, uint64_t *out, const char **end)
{
	uint64_t v = 0;
	int any = 0, over = 0;
	const char *p = s;
	for (;; p++) {
		if (*p == '_' && any && digit_val(p[1], base) >= 0)
			continue;
		int d = digit_val(*p, base);
		if (d < 0)
			break;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			over = 1;
		else
			v = v * (uint64_t)base + (uint64_t)d;
		any = 1;
	}
	*end = p;
	*out = v;
	return !any ? -1 : over ? -2 : 0;
}

int sc_parse_uint(const char *s, uint64_t *out)
{
	int base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, s += 2;
	else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
		base = 2, s += 2;
	const char *end;
	int r = parse_digits(s, base, out, &end);
	if (r == 0 && *end)
		return -1;
	return r;
}

static void fmt_bound(char *buf, size_t cap, uint64_t v, int hex)
{
	snprintf(buf, cap, hex && v > 9 ? "0x%llx" : "%llu", (unsigned long long)v);
}

int sc_uint(struct sc_ctx *c, const char *key, const yaml_node_t *n, uint64_t min, uint64_t max, int hex,
	    uint64_t *out)
{
	char lo[24], hi[24];
	fmt_bound(lo, sizeof(lo), min, hex);
	fmt_bound(hi, sizeof(hi), max, hex);
	const char *s = sc_text(c, key, n, "an integer");
	if (!s)
		return -1;
	uint64_t v;
	int r = sc_parse_uint(s, &v);
	if (r == -1) {
		if (s[0] == '-')
			return sc_expected(c, key, n, "an integer %s..%s (not negative)", lo, hi);
		return sc_expected(c, key, n, "an integer %s..%s", lo, hi);
	}
	if (r == -2 || v < min || v > max)
		return sc_expected(c, key, n, "%s..%s", lo, hi);
	*out = v;
	return 0;
}

/* A decimal with an optional fraction ("1.25"), kept exact as an integer
 * and its count of fraction digits, and the unit text that follows
 * (spaces between them allowed). */
struct decimal {
	uint64_t ip, fp;
	unsigned fd;
	const char *unit;
};

static int parse_decimal(const char *s, struct decimal *d)
{
	const char *end;
	int r = parse_digits(s, 10, &d->ip, &end);
	if (r)
		return r;
	d->fp = 0;
	d->fd = 0;
	if (*end == '.') {
		const char *f = end + 1;
		r = parse_digits(f, 10, &d->fp, &end);
		if (r == -1)
			return -1;
		unsigned fd = 0;
		for (const char *p = f; p < end; p++)
			fd += *p != '_';
		/* Nine fraction digits reach nanoseconds of seconds and bytes
		 * of GiB; more cannot change a whole result. */
		if (r == -2 || fd > 9)
			return -1;
		d->fd = fd;
	}
	while (*end == ' ')
		end++;
	d->unit = end;
	return 0;
}

static const uint64_t pow10_u64[] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000 };

/* d times mult, exactly: -1 when not whole, -2 on overflow. */
static int scale_decimal(const struct decimal *d, uint64_t mult, uint64_t *out)
{
	if (d->ip && mult > UINT64_MAX / d->ip)
		return -2;
	uint64_t v = d->ip * mult;
	uint64_t den = pow10_u64[d->fd];
	/* fp < 10^9 and mult <= 2^30 or 10^9: the product fits in 64 bits. */
	uint64_t f = d->fp * mult;
	if (f % den)
		return -1;
	if (v > UINT64_MAX - f / den)
		return -2;
	*out = v + f / den;
	return 0;
}

static double decimal_double(const struct decimal *d)
{
	return (double)d->ip + (double)d->fp / (double)pow10_u64[d->fd];
}

struct unit {
	const char *name;
	uint64_t mult;
};

static const struct unit *find_unit(const struct unit *u, const char *s)
{
	for (; u->name; u++)
		if (strcasecmp(u->name, s) == 0)
			return u;
	return NULL;
}

int gen_parse_duration(const char *s, uint64_t bare_ns, uint64_t *out)
{
	static const struct unit units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "\xc2\xb5s", 1000 }, { "ms", 1000000 }, { "s", 1000000000 }, { NULL, 0 },
	};
	struct decimal d;
	if (parse_decimal(s, &d))
		return -1;
	uint64_t mult;
	if (!*d.unit) {
		if (!bare_ns && (d.ip || d.fp))
			return -1;
		mult = bare_ns ? bare_ns : 1;
	} else {
		const struct unit *u = find_unit(units, d.unit);
		/* Case matters for time: "Ms" or "NS" is a typo, not a unit. */
		if (!u || strcmp(u->name, d.unit) != 0)
			return -1;
		mult = u->mult;
	}
	int r = scale_decimal(&d, mult, out);
	return r == -1 ? -2 : r == -2 ? -3 : 0;
}

int sc_duration(struct sc_ctx *c, const char *key, const yaml_node_t *n, uint64_t bare_ns, uint64_t *out)
{
	const char *expect = bare_ns ? "a duration (a number of milliseconds, or with ns, us, ms or s)"
				     : "a duration with a unit (ns, us, ms or s), e.g. 10ms";
	const char *s = sc_text(c, key, n, expect);
	if (!s)
		return -1;
	switch (gen_parse_duration(s, bare_ns, out)) {
	case 0:
		return 0;
	case -2:
		return sc_expected(c, key, n, "a whole number of nanoseconds");
	case -3:
		return sc_expected(c, key, n, "a duration below 584 years");
	default:
		return sc_expected(c, key, n, "%s", expect);
	}
}

static int bytes_with(struct sc_ctx *c, const char *key, const yaml_node_t *n, uint64_t min, uint64_t max,
		      const struct unit *units, int exact, const char *expect, uint64_t *out)
{
	char lo[24], hi[24];
	fmt_bound(lo, sizeof(lo), min, 0);
	fmt_bound(hi, sizeof(hi), max, 0);
	const char *s = sc_text(c, key, n, expect);
	if (!s)
		return -1;
	uint64_t v;
	/* Hex sizes (0x1000) are common for buffer lengths. */
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (sc_parse_uint(s, &v) == -1)
			return sc_expected(c, key, n, "%s", expect);
		if (sc_parse_uint(s, &v) == -2 || v < min || v > max)
			return sc_expected(c, key, n, "%s..%s bytes", lo, hi);
		*out = v;
		return 0;
	}
	struct decimal d;
	const struct unit *u = NULL;
	if (parse_decimal(s, &d) || (*d.unit && !(u = find_unit(units, d.unit))))
		return sc_expected(c, key, n, "%s", expect);
	/* With decimal units in the table, "Mb" is megabits to many: the
	 * case must be as written (and SI's own "kB"). */
	if (exact && u && strcmp(u->name, d.unit) != 0 && strcmp(d.unit, "kB") != 0)
		return sc_expected(c, key, n, "%s", expect);
	int r = scale_decimal(&d, u ? u->mult : 1, &v);
	if (r == -1)
		return sc_expected(c, key, n, "a whole number of bytes");
	if (r == -2 || v < min || v > max)
		return sc_expected(c, key, n, "%s..%s bytes", lo, hi);
	*out = v;
	return 0;
}

int sc_bytes(struct sc_ctx *c, const char *key, const yaml_node_t *n, uint64_t min, uint64_t max, uint64_t *out)
{
	/* Binary prefixes only: "4KB" is 4000 to some and 4096 to others, so
	 * the file must say which. */
	static const struct unit units[] = {
		{ "B", 1 }, { "KiB", 1ull << 10 }, { "MiB", 1ull << 20 }, { "GiB", 1ull << 30 }, { NULL, 0 },
	};
	return bytes_with(c, key, n, min, max, units, 0, "a size in bytes (optionally B, KiB, MiB or GiB)", out);
}

int sc_bytes_si(struct sc_ctx *c, const char *key, const yaml_node_t *n, uint64_t min, uint64_t max, uint64_t *out)
{
	/* Switch buffers and DCQCN's thresholds are given in decimal units
	 * (the paper's Kmin 5 KB is 5000 bytes, its B of 10 MB 10^7), so the
	 * congestion section takes both kinds, each meaning what it says. */
	static const struct unit units[] = {
		{ "B", 1 },	       { "KB", 1000 },	       { "MB", 1000000 },	    { "GB", 1000000000 },
		{ "KiB", 1ull << 10 }, { "MiB", 1ull << 20 }, { "GiB", 1ull << 30 }, { NULL, 0 },
	};
	return bytes_with(c, key, n, min, max, units, 1, "a size in bytes (optionally B, KB, MB, GB, KiB, MiB or GiB)",
			  out);
}

static const struct unit bit_units[] = {
	{ "bps", 1 }, { "Kbps", 1000 }, { "Mbps", 1000000 }, { "Gbps", 1000000000 }, { "Tbps", 1000000000000ull },
	{ NULL, 0 },
};

/* Any case but a capital B before "ps": 10GBps is bytes per second,
 * eight times what the unit would be taken for. */
static const struct unit *bit_unit(const char *s)
{
	size_t len = strlen(s);
	if (len >= 3 && s[len - 3] == 'B')
		return NULL;
	return find_unit(bit_units, s);
}

/* A bit rate in b/s, exact for the decimal text (40Mbps is 4e7, not
 * 0.04 * 1e9); above 0, or at least 0 with zero_ok. */
int sc_bps(struct sc_ctx *c, const char *key, const yaml_node_t *n, int zero_ok, double *bps)
{
	const char *expect = "a bit rate with bps, Kbps, Mbps, Gbps or Tbps, e.g. 100Gbps";
	const char *s = sc_text(c, key, n, expect);
	if (!s)
		return -1;
	struct decimal d;
	const struct unit *u;
	if (parse_decimal(s, &d))
		return sc_expected(c, key, n, "%s", expect);
	if (!(u = bit_unit(d.unit))) {
		/* A bare 0 needs no unit. */
		if (!(zero_ok && !*d.unit && d.ip == 0 && d.fp == 0))
			return sc_expected(c, key, n, "%s", expect);
		*bps = 0;
		return 0;
	}
	double v = (double)d.ip * (double)u->mult + (double)d.fp * (double)u->mult / (double)pow10_u64[d.fd];
	/* 1.6 Tb/s is the fastest Ethernet port defined today. */
	if ((zero_ok ? !(v >= 0) : !(v > 0)) || v > 1600e9)
		return sc_expected(c, key, n, "%s",
				   zero_ok ? "a bit rate of at most 1600Gbps" : "a bit rate above 0 and at most 1600Gbps");
	*bps = v;
	return 0;
}

int sc_bitrate(struct sc_ctx *c, const char *key, const yaml_node_t *n, double *gbps)
{
	const char *expect = "a bit rate with bps, Kbps, Mbps, Gbps or Tbps, e.g. 100Gbps";
	const char *s = sc_text(c, key, n, expect);
	if (!s)
		return -1;
	struct decimal d;
	const struct unit *u;
	if (parse_decimal(s, &d) || !(u = bit_unit(d.unit)))
		return sc_expected(c, key, n, "%s", expect);
	double v = decimal_double(&d) * (double)u->mult / 1e9;
	/* 1.6 Tb/s is the fastest Ethernet port defined today. */
	if (!(v > 0) || v > 1600)
		return sc_expected(c, key, n, "a bit rate above 0 and at most 1600Gbps");
	*gbps = v;
	return 0;
}

int sc_rate(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_rate *out)
{
	static const struct unit pps_units[] = {
		{ "pps", 1 }, { "Kpps", 1000 }, { "Mpps", 1000000 }, { "Gpps", 1000000000 }, { NULL, 0 },
	};
	const char *expect = "a rate: line, a percentage (50%), a bit rate (10Gbps) or a packet rate (2Mpps)";
	const char *s = sc_text(c, key, n, expect);
	if (!s)
		return -1;
	if (strcasecmp(s, "line") == 0) {
		*out = (struct gen_rate){ .unit = GEN_RATE_LINE, .value = 0 };
		return 0;
	}
	struct decimal d;
	if (parse_decimal(s, &d))
		return sc_expected(c, key, n, "%s", expect);
	double v = decimal_double(&d);
	const struct unit *u;
	if (strcmp(d.unit, "%") == 0) {
		if (!(v > 0) || v > 100)
			return sc_expected(c, key, n, "a percentage above 0 and at most 100%%");
		*out = (struct gen_rate){ .unit = GEN_RATE_PCT, .value = v };
	} else if ((u = bit_unit(d.unit))) {
		v = v * (double)u->mult / 1e9;
		if (!(v > 0) || v > 1600)
			return sc_expected(c, key, n, "a bit rate above 0 and at most 1600Gbps");
		*out = (struct gen_rate){ .unit = GEN_RATE_GBPS, .value = v };
	} else if ((u = find_unit(pps_units, d.unit))) {
		v *= (double)u->mult;
		/* A packet every picosecond is far beyond any port. */
		if (!(v >= 1) || v > 1e12)
			return sc_expected(c, key, n, "a packet rate of 1pps to 1000Gpps");
		*out = (struct gen_rate){ .unit = GEN_RATE_PPS, .value = v };
	} else {
		return sc_expected(c, key, n, "%s", expect);
	}
	return 0;
}

/* A number or a percentage in [0, 1]; zero_ok says whether 0 is allowed. */
static int read_unit_interval(struct sc_ctx *c, const char *key, const yaml_node_t *n, int zero_ok,
			      const char *expect, double *out)
{
	const char *s = sc_text(c, key, n, expect);
	if (!s)
		return -1;
	struct decimal d;
	if (parse_decimal(s, &d) || (*d.unit && strcmp(d.unit, "%") != 0))
		return sc_expected(c, key, n, "%s", expect);
	double v = decimal_double(&d);
	if (*d.unit)
		v /= 100;
	if (!(zero_ok ? v >= 0 : v > 0) || v > 1)
		return sc_expected(c, key, n, "%s", expect);
	*out = v;
	return 0;
}

int sc_probability(struct sc_ctx *c, const char *key, const yaml_node_t *n, double *out)
{
	return read_unit_interval(c, key, n, 0, "a probability above 0 and at most 1 (0.01 or 1%)", out);
}

int sc_fraction(struct sc_ctx *c, const char *key, const yaml_node_t *n, double *out)
{
	return read_unit_interval(c, key, n, 1, "a number from 0 to 1 (0.5 or 50%)", out);
}

int sc_bool(struct sc_ctx *c, const char *key, const yaml_node_t *n, uint8_t *out)
{
	static const char *const names[] = { "false", "true", NULL };
	unsigned i;
	if (sc_enum(c, key, n, names, "true or false", &i))
		return -1;
	*out = (uint8_t)i;
	return 0;
}

int sc_path(struct sc_ctx *c, const char *key, const yaml_node_t *n, char *out, size_t cap)
{
	const char *expect = "a file name";
	const char *s = sc_text(c, key, n, expect);
	if (!s)
		return -1;
	size_t len = strlen(s);
	if (len >= cap)
		return sc_expected(c, key, n, "a file name of at most %zu bytes", cap - 1);
	/* The name goes into error lines and rename(2): one line, no
	 * control bytes, not a directory. */
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return sc_expected(c, key, n, "a file name without control characters");
	if (s[len - 1] == '/')
		return sc_expected(c, key, n, "a file name, not a directory");
	memcpy(out, s, len + 1);
	return 0;
}

static int hex_byte(const char *p)
{
	int hi = digit_val(p[0], 16), lo = hi < 0 ? -1 : digit_val(p[1], 16);
	return lo < 0 ? -1 : hi << 4 | lo;
}

int sc_mac(struct sc_ctx *c, const char *key, const yaml_node_t *n, uint8_t mac[6])
{
	const char *expect = "a MAC address like \"02:00:00:00:00:01\"";
	const char *s = sc_text(c, key, n, expect);
	if (!s)
		return -1;
	if (strlen(s) != 17)
		return sc_expected(c, key, n, "%s", expect);
	uint8_t m[6];
	for (int i = 0; i < 6; i++) {
		int b = hex_byte(s + 3 * i);
		if (b < 0 || (i < 5 && s[3 * i + 2] != ':' && s[3 * i + 2] != '-'))
			return sc_expected(c, key, n, "%s", expect);
		m[i] = (uint8_t)b;
	}
	/* Frames from a group address are invalid (IEEE 802.3 3.2.3). */
	if (m[0] & 1)
		return sc_expected(c, key, n, "a unicast MAC address (the first byte's low bit clear)");
	memcpy(mac, m, 6);
	return 0;
}

int sc_ip(struct sc_ctx *c, const char *key, const yaml_node_t *n, uint8_t *af, uint8_t ip[16])
{
	const char *expect = "an IPv4 or IPv6 address";
	const char *s = sc_text(c, key, n, expect);
	if (!s)
		return -1;
	uint8_t a[16] = { 0 };
	if (inet_pton(AF_INET, s, a) == 1) {
		*af = 4;
	} else if (inet_pton(AF_INET6, s, a) == 1) {
		*af = 6;
	} else {
		return sc_expected(c, key, n, "%s", expect);
	}
	memcpy(ip, a, 16);
	return 0;
}

int sc_gid(struct sc_ctx *c, const char *key, const yaml_node_t *n, uint8_t gid[16])
{
	const char *expect = "a GID in IPv6 notation (fe80::1, ::ffff:10.0.0.1)";
	const char *s = sc_text(c, key, n, expect);
	if (!s)
		return -1;
	uint8_t a[16];
	if (inet_pton(AF_INET6, s, a) != 1)
		return sc_expected(c, key, n, "%s", expect);
	memcpy(gid, a, 16);
	return 0;
}

int sc_pattern(struct sc_ctx *c, const char *key, const yaml_node_t *n, uint8_t *pat, uint16_t *len)
{
	const char *expect = "hex bytes (\"52:57:00:01\", \"deadbeef\") whose count divides 256";
	const char *s = sc_text(c, key, n, expect);
	if (!s)
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	uint8_t tmp[GEN_PATTERN_MAX];
	size_t k = 0;
	for (const char *p = s; *p;) {
		int b = hex_byte(p);
		if (b < 0 || k == GEN_PATTERN_MAX)
			return sc_expected(c, key, n, "%s", expect);
		tmp[k++] = (uint8_t)b;
		p += 2;
		if (*p && (*p == ':' || *p == ' ' || *p == '-') && p[1])
			p++;
	}
	/* Payload pieces start at multiples of the MTU (256 at least): a
	 * pattern whose length divides 256 restarts there, so every packet of
	 * a message carries the same bytes. */
	if (k == 0 || 256 % k)
		return sc_expected(c, key, n, "%s (%zu bytes given)", expect, k);
	memcpy(pat, tmp, k);
	*len = (uint16_t)k;
	return 0;
}

int sc_enum(struct sc_ctx *c, const char *key, const yaml_node_t *n, const char *const *names, const char *expect,
	    unsigned *idx)
{
	const char *s = sc_text(c, key, n, expect);
	*idx = 0; /* on failure too: callers store it (GCC -O3 cannot tell) */
	if (!s)
		return -1;
	for (unsigned i = 0; names[i]; i++) {
		if (strcasecmp(names[i], s) == 0) {
			*idx = i;
			return 0;
		}
	}
	return sc_expected(c, key, n, "%s", expect);
}

int sc_name(struct sc_ctx *c, const char *key, const yaml_node_t *n, char *out, size_t cap)
{
	const char *expect = "a name of letters, digits, '-', '_' or '.'";
	const char *s = sc_text(c, key, n, expect);
	if (!s)
		return -1;
	size_t len = strlen(s);
	if (len >= cap)
		return sc_expected(c, key, n, "a name of at most %zu characters", cap - 1);
	/* Names end up in JSON keys, file names and status lines. */
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("-_.", s[i]))
			return sc_expected(c, key, n, "%s", expect);
	memcpy(out, s, len + 1);
	return 0;
}
