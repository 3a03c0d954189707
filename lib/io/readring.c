/* SPDX-License-Identifier: BSD-3-Clause */
/* See readring.h. The ring is a memfd mapped at base and again right after
 * it (the "magic ring buffer"): byte i of the ring is at base + i and
 * base + size + i. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "readring.h"

/* One read() at most this large: the bytes just read are still in the
 * cache when the decoder reaches them. */
#define READ_CHUNK ((uint64_t)64 << 10)

int cap_readring_open(struct cap_readring *r, int fd, uint64_t file_size, uint64_t ring_size)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->file_size = file_size;
	r->size = ring_size;
	int mfd = memfd_create("rocewire-read", MFD_CLOEXEC);
	if (mfd < 0)
		return -1;
	uint8_t *va = MAP_FAILED;
	if (ftruncate(mfd, (off_t)ring_size) == 0)
		va = mmap(NULL, 2 * ring_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (va != MAP_FAILED &&
	    (mmap(va, ring_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, mfd, 0) == MAP_FAILED ||
	     mmap(va + ring_size, ring_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, mfd, 0) ==
		     MAP_FAILED)) {
		munmap(va, 2 * ring_size);
		va = MAP_FAILED;
	}
	int saved = errno;
	close(mfd); /* the mappings keep it */
	if (va == MAP_FAILED) {
		errno = saved;
		return -1;
	}
	r->base = va;
	return 0;
}

int cap_readring_fill(struct cap_readring *r, uint64_t want, uint64_t keep)
{
	if (want > r->file_size)
		want = r->file_size;
	/* Reading past keep + size would write over bytes still in use. */
	if (r->filled > keep + r->size)
		return -1;
	while (r->filled < want) {
		uint64_t room = keep + r->size - r->filled;
		uint64_t n = r->file_size - r->filled;
		if (n > READ_CHUNK)
			n = READ_CHUNK;
		if (n > room)
			n = room;
		if (n == 0)
			return -1; /* the caller asked for more than the ring holds */
		ssize_t got = pread(r->fd, r->base + (r->filled & (r->size - 1)), n, (off_t)r->filled);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			/* The file is shorter than it was (or unreadable):
			 * it ends here. */
			r->err = got < 0 ? errno : 0;
			r->file_size = r->filled;
			return -1;
		}
		r->filled += (uint64_t)got;
	}
	return 0;
}

void cap_readring_skip(struct cap_readring *r, uint64_t to)
{
	if (to > r->file_size)
		to = r->file_size;
	if (to > r->filled)
		r->filled = to;
}

int cap_readring_pread(const struct cap_readring *r, uint64_t off, void *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t k = pread(r->fd, (uint8_t *)buf + got, n - got, (off_t)(off + got));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		got += (size_t)k;
	}
	return 0;
}

void cap_readring_close(struct cap_readring *r)
{
	if (r->base)
		munmap(r->base, 2 * r->size);
	r->base = NULL;
}
