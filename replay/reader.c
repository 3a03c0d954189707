/* SPDX-License-Identifier: BSD-3-Clause */
/* The capture's records, streamed or preloaded. */
#include "reader.h"

#include <stdlib.h>
#include <string.h>

#include "source.h"

static int stream_open(struct rp_reader *r)
{
	r->src = calloc(1, sizeof(*r->src));
	if (!r->src) {
		snprintf(r->err, sizeof(r->err), "out of memory");
		return -1;
	}
	if (cap_offline_open(r->src, r->path) != 0) {
		snprintf(r->err, sizeof(r->err), "%s", r->src->err);
		cap_source_close(r->src);
		free(r->src);
		r->src = NULL;
		return -1;
	}
	r->linktype = r->src->linktype;
	return 0;
}

static void stream_close(struct rp_reader *r)
{
	if (r->src) {
		cap_source_close(r->src);
		free(r->src);
		r->src = NULL;
	}
}

static int stream_next(struct rp_reader *r, struct rp_rec *rec)
{
	struct cap_record cr;
	int rc = cap_source_next(r->src, &cr);
	if (rc < 0) {
		snprintf(r->err, sizeof(r->err), "%s", r->src->err);
		return -1;
	}
	if (rc == 0)
		return 0;
	rec->index = cr.index;
	rec->ts_ns = (uint64_t)cr.ts_sec * 1000000000u + cr.ts_nsec;
	rec->caplen = cr.caplen;
	rec->wirelen = cr.wirelen;
	rec->data = cr.data;
	return 1;
}

static int grow(struct rp_reader *r, size_t add)
{
	if (r->n == r->cap_n) {
		uint64_t c = r->cap_n ? r->cap_n * 2 : 4096;
		struct rp_pre *x = realloc(r->idx, c * sizeof(*x));
		if (!x)
			return -1;
		r->idx = x;
		r->cap_n = c;
	}
	if (r->mem_len + add > r->mem_cap) {
		size_t c = r->mem_cap ? r->mem_cap * 2 : (1u << 20);
		while (c < r->mem_len + add)
			c *= 2;
		uint8_t *m = realloc(r->mem, c);
		if (!m)
			return -1;
		r->mem = m;
		r->mem_cap = c;
	}
	return 0;
}

/* The whole file into memory; a bad record is found before anything is sent. */
static int preload(struct rp_reader *r)
{
	struct rp_rec rec;
	int rc;
	while ((rc = stream_next(r, &rec)) == 1) {
		if (grow(r, rec.caplen) != 0) {
			snprintf(r->err, sizeof(r->err), "%s: out of memory for --preload after %llu frames",
				 r->path, (unsigned long long)r->n);
			return -1;
		}
		r->idx[r->n] = (struct rp_pre){r->mem_len, rec.ts_ns, rec.caplen, rec.wirelen};
		memcpy(r->mem + r->mem_len, rec.data, rec.caplen);
		r->mem_len += rec.caplen;
		r->n++;
	}
	stream_close(r);
	return rc;
}

int rp_reader_open(struct rp_reader *r, const char *path, int pre)
{
	memset(r, 0, sizeof(*r));
	r->path = path;
	r->preload = pre;
	if (stream_open(r) != 0)
		return -1;
	return pre ? preload(r) : 0;
}

int rp_reader_next(struct rp_reader *r, struct rp_rec *rec)
{
	if (!r->preload)
		return stream_next(r, rec);
	if (r->pos == r->n)
		return 0;
	const struct rp_pre *p = &r->idx[r->pos++];
	rec->index = r->pos;
	rec->ts_ns = p->ts_ns;
	rec->caplen = p->caplen;
	rec->wirelen = p->wirelen;
	rec->data = r->mem + p->off;
	return 1;
}

int rp_reader_rewind(struct rp_reader *r)
{
	if (r->preload) {
		r->pos = 0;
		return 0;
	}
	stream_close(r);
	return stream_open(r);
}

void rp_reader_close(struct rp_reader *r)
{
	stream_close(r);
	free(r->mem);
	free(r->idx);
	r->mem = NULL;
	r->idx = NULL;
}
