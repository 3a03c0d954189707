/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading a queue-length trace (qlen.h). */
#include "qlen.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A number after `key` in a JSON Lines object; -1 when absent or not one. */
static int json_u64(const char *line, const char *key, uint64_t *v)
{
	char pat[32];
	snprintf(pat, sizeof(pat), "\"%s\"", key);
	const char *p = strstr(line, pat);
	if (!p)
		return -1;
	p += strlen(pat);
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p++ != ':')
		return -1;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(p, &end, 10);
	if (end == p || errno || *p == '-')
		return -1;
	*v = x;
	return 0;
}

static int csv_row(const char *line, uint64_t *t, uint64_t *prio, uint64_t *bytes)
{
	char *end;
	const char *p = line;
	uint64_t *out[3] = { t, prio, bytes };
	for (int i = 0; i < 3; i++) {
		if (*p == '-' || *p < '0' || *p > '9')
			return -1;
		errno = 0;
		*out[i] = strtoull(p, &end, 10);
		if (errno)
			return -1;
		p = end;
		if (i < 2 && *p++ != ',')
			return -1;
	}
	return *p == '\0' || *p == '\n' || *p == '\r' ? 0 : -1;
}

int cap_qlen_load(const char *path, const char *shown, struct cap_qlen *q, char *err, size_t errcap)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t cap = 0, lineno = 0;
	int jsonl = -1;

	memset(q, 0, sizeof(*q));
	if (!f) {
		snprintf(err, errcap, "--qlen %s: %s", shown, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		uint64_t t, prio, bytes;
		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, errcap, "--qlen %s:%zu: line too long for a queue-length record", shown, lineno);
			goto fail;
		}
		if (jsonl < 0) {
			jsonl = line[0] == '{';
			if (!jsonl) {
				if (strncmp(line, "time_ns,prio,bytes", 18) != 0) {
					snprintf(err, errcap,
						 "--qlen %s:1: expected the header time_ns,prio,bytes or a JSON object",
						 shown);
					goto fail;
				}
				continue;
			}
		}
		if (line[0] == '\n')
			continue;
		if (jsonl ? (json_u64(line, "time_ns", &t) || json_u64(line, "prio", &prio) ||
			     json_u64(line, "bytes", &bytes))
			  : csv_row(line, &t, &prio, &bytes)) {
			snprintf(err, errcap, "--qlen %s:%zu: expected %s", shown, lineno,
				 jsonl ? "{\"time_ns\": N, \"prio\": N, \"bytes\": N}" : "time_ns,prio,bytes (integers)");
			goto fail;
		}
		if (prio > 7) {
			snprintf(err, errcap, "--qlen %s:%zu: priority %" PRIu64 " is not 0..7", shown, lineno, prio);
			goto fail;
		}
		if (q->n && t < q->t_ns[q->n - 1]) {
			snprintf(err, errcap, "--qlen %s:%zu: time %" PRIu64 " before the line above", shown, lineno, t);
			goto fail;
		}
		if (q->n && t == q->t_ns[q->n - 1]) {
			q->bytes[q->n - 1] += bytes;
		} else {
			if (q->n == cap) {
				size_t nc = cap ? cap * 2 : 4096;
				uint64_t *a = realloc(q->t_ns, nc * sizeof(*a));
				if (a)
					q->t_ns = a;
				uint64_t *b = a ? realloc(q->bytes, nc * sizeof(*b)) : NULL;
				if (!a || !b) {
					snprintf(err, errcap, "--qlen %s: out of memory at line %zu", shown, lineno);
					goto fail;
				}
				q->bytes = b;
				cap = nc;
			}
			q->t_ns[q->n] = t;
			q->bytes[q->n++] = bytes;
		}
		if (q->bytes[q->n - 1] > q->max)
			q->max = q->bytes[q->n - 1];
	}
	if (ferror(f)) {
		snprintf(err, errcap, "--qlen %s: %s", shown, strerror(errno ? errno : EIO));
		goto fail;
	}
	fclose(f);
	return 0;
fail:
	fclose(f);
	cap_qlen_free(q);
	return -1;
}

void cap_qlen_free(struct cap_qlen *q)
{
	free(q->t_ns);
	free(q->bytes);
	memset(q, 0, sizeof(*q));
}
