/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading NIC counter snapshots (counters.h names the four forms). A file is
 * one form: the first line that says which decides, and a later line of
 * another form is an error rather than a guess. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"

/* Snapshot files are a few hundred lines; anything near this is not one. */
#define SNAP_MAX_BYTES (16u << 20)
#define SNAP_MAX_COUNTERS 65536u

static const char *const format_keys[RW_CTR_FMT_COUNT] = {
	[RW_CTR_FMT_SYSFS] = "sysfs",
	[RW_CTR_FMT_PLAIN] = "plain",
	[RW_CTR_FMT_ETHTOOL] = "ethtool",
	[RW_CTR_FMT_RDMA] = "rdma",
};
_Static_assert(sizeof(format_keys) / sizeof(format_keys[0]) == RW_CTR_FMT_COUNT, "one key per format");

const char *rw_ctr_format_key(enum rw_ctr_format f)
{
	return (unsigned)f < RW_CTR_FMT_COUNT ? format_keys[f] : "?";
}

static int fail(char *err, size_t errn, const char *where, unsigned line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line)
		snprintf(err, errn, "%s:%u: %s", where, line, msg);
	else
		snprintf(err, errn, "%s: %s", where, msg);
	return -1;
}

/* A piece of the file quoted in a message: at most 40 bytes, control and
 * other unprintable bytes as '?' (the message goes to a terminal). */
#define SNIP 48
static const char *snip(char out[SNIP], const char *b, const char *e)
{
	size_t n = 0;
	for (; b < e && n < 40; b++)
		out[n++] = isprint((unsigned char)*b) ? *b : '?';
	if (b < e) {
		memcpy(out + n, "...", 3);
		n += 3;
	}
	out[n] = '\0';
	return out;
}

/* Adds value to the counter of that name (links of an rdma snapshot add up). */
static int put(struct rw_ctr_snapshot *s, const char *name, size_t nlen, uint64_t value)
{
	for (size_t i = 0; i < s->n; i++)
		if (strlen(s->v[i].name) == nlen && memcmp(s->v[i].name, name, nlen) == 0) {
			s->v[i].value += value;
			return 0;
		}
	if (s->n == s->cap) {
		if (s->cap >= SNAP_MAX_COUNTERS)
			return -1;
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct rw_ctr_value *v = realloc(s->v, cap * sizeof(*v));
		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	memcpy(s->v[s->n].name, name, nlen);
	s->v[s->n].name[nlen] = '\0';
	s->v[s->n].value = value;
	s->n++;
	return 0;
}

/* A decimal counter value filling [b, e) exactly; 0 or -1. */
static int parse_u64(const char *b, const char *e, uint64_t *out)
{
	uint64_t v = 0;
	if (b == e)
		return -1;
	for (const char *c = b; c < e; c++) {
		if (*c < '0' || *c > '9')
			return -1;
		unsigned d = (unsigned)(*c - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static const char *skip_blank(const char *b, const char *e)
{
	while (b < e && (*b == ' ' || *b == '\t'))
		b++;
	return b;
}

static const char *trim_end(const char *b, const char *e)
{
	while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	return e;
}

static int name_ok(const char *b, const char *e)
{
	if (b == e || (size_t)(e - b) >= RW_CTR_NAME_MAX)
		return 0;
	for (const char *c = b; c < e; c++)
		if (!isprint((unsigned char)*c))
			return 0;
	return 1;
}

/* The form a line shows, or -1 when it shows none (blank). */
static int line_format(const char *b, const char *e)
{
	const char *t = skip_blank(b, e);
	if (t == e)
		return -1;
	if (e - t >= 5 && memcmp(t, "link ", 5) == 0)
		return RW_CTR_FMT_RDMA;
	if (e - t >= 15 && memcmp(t, "NIC statistics:", 15) == 0)
		return RW_CTR_FMT_ETHTOOL;
	const char *colon = memchr(t, ':', (size_t)(e - t));
	if (colon && memchr(t, '/', (size_t)(colon - t)))
		return RW_CTR_FMT_SYSFS;
	if (colon)
		return RW_CTR_FMT_ETHTOOL; /* "     rx_prio3_pause: 0" */
	return RW_CTR_FMT_PLAIN;
}

/* One "name value name value ..." run of an rdma line (after "link DEV/PORT"). */
static int rdma_pairs(struct rw_ctr_snapshot *s, const char *t, const char *e, const char *where, unsigned ln,
		      char *err, size_t errn)
{
	char s1[SNIP], s2[SNIP];
	for (;;) {
		t = skip_blank(t, e);
		if (t == e)
			return 0;
		const char *ne = t;
		while (ne < e && *ne != ' ' && *ne != '\t')
			ne++;
		const char *vb = skip_blank(ne, e);
		const char *ve = vb;
		while (ve < e && *ve != ' ' && *ve != '\t')
			ve++;
		uint64_t v;
		if (!name_ok(t, ne))
			return fail(err, errn, where, ln, "a counter name was expected (rdma statistic show output)");
		if (vb == ve)
			return fail(err, errn, where, ln, "counter '%s' has no value", snip(s1, t, ne));
		if (parse_u64(vb, ve, &v) != 0)
			return fail(err, errn, where, ln, "counter '%s': '%s' is not a count", snip(s1, t, ne),
				    snip(s2, vb, ve));
		if (put(s, t, (size_t)(ne - t), v) != 0)
			return fail(err, errn, where, ln, "too many counters (or no memory)");
		t = ve;
	}
}

static void add_link(struct rw_ctr_snapshot *s, const char *b, const char *e)
{
	size_t have = strlen(s->links), n = (size_t)(e - b);
	if (have + n + 2 > sizeof(s->links))
		return; /* the names are a courtesy: the values are summed anyway */
	if (have)
		s->links[have++] = ',';
	memcpy(s->links + have, b, n);
	s->links[have + n] = '\0';
}

static int parse_line(struct rw_ctr_snapshot *s, const char *b, const char *e, const char *where, unsigned ln,
		      int *in_link, char *err, size_t errn)
{
	char s1[SNIP], s2[SNIP];
	const char *t = skip_blank(b, e);
	e = trim_end(t, e);
	switch (s->format) {
	case RW_CTR_FMT_RDMA:
		if (e - t >= 5 && memcmp(t, "link ", 5) == 0) {
			const char *lb = skip_blank(t + 5, e), *le = lb;
			while (le < e && *le != ' ' && *le != '\t')
				le++;
			if (lb == le || !memchr(lb, '/', (size_t)(le - lb)))
				return fail(err, errn, where, ln, "'link' is not followed by DEVICE/PORT");
			add_link(s, lb, le);
			*in_link = 1;
			return rdma_pairs(s, le, e, where, ln, err, errn);
		}
		if (t > b && *in_link) /* a wrapped line of the same link */
			return rdma_pairs(s, t, e, where, ln, err, errn);
		return fail(err, errn, where, ln, "not a 'link DEVICE/PORT name value ...' line; "
				     "the file started as rdma statistic show output");
	case RW_CTR_FMT_ETHTOOL: {
		if (e - t >= 15 && memcmp(t, "NIC statistics:", 15) == 0)
			return 0;
		const char *colon = memchr(t, ':', (size_t)(e - t));
		if (!colon)
			return fail(err, errn, where, ln, "'name: value' expected (ethtool -S output)");
		const char *ne = trim_end(t, colon), *vb = skip_blank(colon + 1, e);
		uint64_t v;
		if (!name_ok(t, ne))
			return fail(err, errn, where, ln, "a counter name was expected before ':'");
		if (parse_u64(vb, e, &v) != 0)
			return fail(err, errn, where, ln, "counter '%s': '%s' is not a count", snip(s1, t, ne),
				    snip(s2, vb, e));
		return put(s, t, (size_t)(ne - t), v) ? fail(err, errn, where, ln, "too many counters (or no memory)") : 0;
	}
	case RW_CTR_FMT_SYSFS: {
		/* the value follows the last ':' (a path may hold none other) */
		const char *colon = NULL;
		for (const char *c = t; c < e; c++)
			if (*c == ':')
				colon = c;
		if (!colon)
			return fail(err, errn, where, ln, "'PATH:VALUE' expected (grep . .../hw_counters/*)");
		const char *nb = colon;
		while (nb > t && nb[-1] != '/')
			nb--;
		uint64_t v;
		if (!name_ok(nb, colon))
			return fail(err, errn, where, ln, "no counter name at the end of the path");
		if (parse_u64(colon + 1, e, &v) != 0)
			return fail(err, errn, where, ln, "counter '%s': '%s' is not a count", snip(s1, nb, colon),
				    snip(s2, colon + 1, e));
		/* hw_counters/lifespan is how long the kernel caches the values,
		 * in milliseconds: a setting, not a count */
		if (colon - nb == 8 && memcmp(nb, "lifespan", 8) == 0)
			return 0;
		return put(s, nb, (size_t)(colon - nb), v) ? fail(err, errn, where, ln, "too many counters (or no memory)") : 0;
	}
	case RW_CTR_FMT_PLAIN:
	default: {
		const char *vb = e;
		while (vb > t && vb[-1] != ' ' && vb[-1] != '\t')
			vb--;
		const char *ne = trim_end(t, vb);
		uint64_t v;
		if (ne == t)
			return fail(err, errn, where, ln, "'NAME VALUE' expected");
		if (!name_ok(t, ne))
			return fail(err, errn, where, ln, "a counter name was expected");
		if (parse_u64(vb, e, &v) != 0)
			return fail(err, errn, where, ln, "counter '%s': '%s' is not a count", snip(s1, t, ne),
				    snip(s2, vb, e));
		return put(s, t, (size_t)(ne - t), v) ? fail(err, errn, where, ln, "too many counters (or no memory)") : 0;
	}
	}
}

int rw_ctr_parse(const char *text, size_t len, const char *where, struct rw_ctr_snapshot *s, char *err,
		 size_t errn)
{
	memset(s, 0, sizeof(*s));
	if (memchr(text, '\0', len))
		return fail(err, errn, where, 0, "a binary file, not a counter snapshot");
	int known = 0, in_link = 0;
	unsigned ln = 0;
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		ln++;
		int f = line_format(p, le);
		if (f >= 0) {
			if (!known) {
				s->format = (enum rw_ctr_format)f;
				known = 1;
			}
			if (parse_line(s, p, le, where, ln, &in_link, err, errn) != 0) {
				rw_ctr_free(s);
				return -1;
			}
		}
		p = nl ? nl + 1 : end;
	}
	if (s->n == 0) {
		rw_ctr_free(s);
		return fail(err, errn, where, 0, "no counters: expected ethtool -S, rdma statistic show, "
					      "'grep . .../hw_counters/*' or 'NAME VALUE' lines");
	}
	return 0;
}

int rw_ctr_load(const char *path, const char *shown, struct rw_ctr_snapshot *s, char *err, size_t errn)
{
	memset(s, 0, sizeof(*s));
	FILE *f = fopen(path, "rb");
	if (!f)
		return fail(err, errn, shown, 0, "cannot read the counter snapshot: %s", strerror(errno));
	char *buf = malloc(SNAP_MAX_BYTES);
	if (!buf) {
		fclose(f);
		return fail(err, errn, shown, 0, "no memory to read the counter snapshot");
	}
	size_t n = fread(buf, 1, SNAP_MAX_BYTES, f);
	int rerr = ferror(f) ? errno : 0;
	int more = !rerr && n == SNAP_MAX_BYTES && fgetc(f) != EOF;
	fclose(f);
	int rc;
	if (rerr)
		rc = fail(err, errn, shown, 0, "cannot read the counter snapshot: %s", strerror(rerr ? rerr : EIO));
	else if (more)
		rc = fail(err, errn, shown, 0, "larger than %u MiB: not a counter snapshot", SNAP_MAX_BYTES >> 20);
	else
		rc = rw_ctr_parse(buf, n, shown, s, err, errn);
	free(buf);
	return rc;
}

void rw_ctr_free(struct rw_ctr_snapshot *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

const struct rw_ctr_value *rw_ctr_find(const struct rw_ctr_snapshot *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i].name, name) == 0)
			return &s->v[i];
	return NULL;
}

struct rw_ctr_delta *rw_ctr_diff(const struct rw_ctr_snapshot *before, const struct rw_ctr_snapshot *after,
				 size_t *n)
{
	*n = 0;
	size_t cap = before->n + after->n;
	if (cap == 0)
		return NULL;
	struct rw_ctr_delta *d = calloc(cap, sizeof(*d));
	if (!d) {
		errno = ENOMEM;
		return NULL;
	}
	size_t k = 0;
	for (size_t i = 0; i < before->n; i++) {
		const struct rw_ctr_value *a = rw_ctr_find(after, before->v[i].name);
		struct rw_ctr_delta *x = &d[k++];
		x->name = before->v[i].name;
		x->before = before->v[i].value;
		if (!a) {
			x->state = RW_CTR_D_ONLY_BEFORE;
			continue;
		}
		x->after = a->value;
		if (a->value < x->before)
			x->state = RW_CTR_D_BACKWARDS;
		else
			x->delta = a->value - x->before;
	}
	for (size_t i = 0; i < after->n; i++) {
		if (rw_ctr_find(before, after->v[i].name))
			continue;
		struct rw_ctr_delta *x = &d[k++];
		x->name = after->v[i].name;
		x->after = after->v[i].value;
		x->state = RW_CTR_D_ONLY_AFTER;
	}
	*n = k;
	return d;
}

const char *rw_ctr_delta_why(enum rw_ctr_delta_state st)
{
	switch (st) {
	case RW_CTR_D_ONLY_BEFORE:
		return "absent from the after snapshot";
	case RW_CTR_D_ONLY_AFTER:
		return "absent from the before snapshot";
	case RW_CTR_D_BACKWARDS:
		return "went backwards between the snapshots (reset or wrapped)";
	default:
		return NULL;
	}
}
