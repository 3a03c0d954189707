/* SPDX-License-Identifier: BSD-3-Clause */
/* Records of the capture to replay: streamed through capture's offline
 * source (its ring reader, libpcap for the rest), or preloaded into memory
 * (--preload) so that a replay, and every loop of it, reads no file. */
#ifndef RWREPLAY_READER_H
#define RWREPLAY_READER_H

#include <stddef.h>
#include <stdint.h>

struct rp_rec {
	uint64_t index;         /* 1-based frame number in the file */
	uint64_t ts_ns;         /* since 1970 */
	uint32_t caplen, wirelen;
	const uint8_t *data;
};

struct rp_pre {
	uint64_t off, ts_ns;
	uint32_t caplen, wirelen;
};

struct cap_source;

struct rp_reader {
	const char *path;
	int linktype;
	struct cap_source *src;  /* streaming */
	int preload;
	uint8_t *mem;            /* preloaded frames, back to back */
	size_t mem_len, mem_cap;
	struct rp_pre *idx;
	uint64_t n, cap_n, pos;
	char err[600];
};

/* 0, or -1 with r->err (one line naming the file and the record). */
int rp_reader_open(struct rp_reader *r, const char *path, int preload);
/* 1 a record, 0 the end, -1 with r->err. */
int rp_reader_next(struct rp_reader *r, struct rp_rec *rec);
/* Back to the first record (a streamed file is opened again). */
int rp_reader_rewind(struct rp_reader *r);
void rp_reader_close(struct rp_reader *r);

#endif
