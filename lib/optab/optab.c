/* SPDX-License-Identifier: BSD-3-Clause */
/* The option tables of rocewire-gen and rocewire-verbs (optab.h). */
#include "optab.h"

#include <getopt.h>
#include <stdarg.h>
#include <string.h>

#define OPTAB_MAX 96  /* rows of one table, section titles included */
#define OPTAB_LONG 1000 /* getopt's value of row i: OPTAB_LONG + i */

int rw_opt_fail(struct rw_optctx *c, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(c->err, c->errlen, "--%s: ", c->name);

	if (n < 0 || (size_t)n >= c->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

void rw_optab_usage(FILE *f, const struct rw_opt *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char left[64];
		const char *h = t[i].help;

		if (!h) {
			fprintf(f, "%s%s:\n", i ? "\n" : "", t[i].name);
			continue;
		}
		if (t[i].shortc)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", t[i].shortc, t[i].name,
				 t[i].arg ? " " : "", t[i].arg ? t[i].arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", t[i].name, t[i].arg ? " " : "",
				 t[i].arg ? t[i].arg : "");
		if (strlen(left) >= 24)
			fprintf(f, "  %s\n%27s", left, "");
		else
			fprintf(f, "  %-24s ", left);
		for (const char *nl; (nl = strchr(h, '\n')); h = nl + 1)
			fprintf(f, "%.*s\n%27s", (int)(nl - h), h, "");
		fprintf(f, "%s\n", h);
	}
}

void rw_optab_list(FILE *f, const struct rw_opt *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].help)
			fprintf(f, "--%s%s\n", t[i].name, t[i].arg ? "=" : "");
}

/* The row getopt_long's answer ch names: a long option's own value, or the
 * first row with that short letter. */
static const struct rw_opt *row_of(const struct rw_opt *t, size_t n, int ch)
{
	if (ch >= OPTAB_LONG && ch < OPTAB_LONG + (int)n)
		return &t[ch - OPTAB_LONG];
	for (size_t i = 0; i < n; i++)
		if (t[i].help && t[i].shortc == ch)
			return &t[i];
	return NULL;
}

int rw_optab_parse(const struct rw_opt *t, size_t n, const char *flags, int argc, char **argv,
		   struct rw_optctx *c)
{
	struct option lo[OPTAB_MAX + 1];
	char shorts[3 * OPTAB_MAX + 8];
	size_t nl = 0, ns = 0;

	if (n > OPTAB_MAX) {
		snprintf(c->err, c->errlen, "option table of %zu rows, at most %d", n, OPTAB_MAX);
		return -1;
	}
	for (; *flags; flags++)
		shorts[ns++] = *flags;
	shorts[ns++] = ':'; /* a missing argument answers ':' */
	for (size_t i = 0; i < n; i++) {
		if (!t[i].help)
			continue;
		lo[nl++] = (struct option){t[i].name, t[i].arg ? required_argument : no_argument, NULL,
					   OPTAB_LONG + (int)i};
		if (t[i].shortc) {
			shorts[ns++] = (char)t[i].shortc;
			if (t[i].arg)
				shorts[ns++] = ':';
		}
	}
	lo[nl] = (struct option){NULL, 0, NULL, 0};
	shorts[ns] = '\0';
	opterr = 0;
	for (;;) {
		int ch = getopt_long(argc, argv, shorts, lo, NULL);
		const struct rw_opt *r;

		if (ch == -1)
			return 0;
		if (ch == ':') {
			snprintf(c->err, c->errlen, "option '%s' needs a value (see --help)", argv[optind - 1]);
			return -1;
		}
		r = row_of(t, n, ch);
		if (!r) {
			snprintf(c->err, c->errlen, "unknown option '%s' (see --help)", argv[optind - 1]);
			return -1;
		}
		if (!r->fn)
			return r->shortc;
		c->name = r->name;
		if (r->fn(c, optarg) != 0)
			return -1;
	}
}
