/* SPDX-License-Identifier: BSD-3-Clause */
/* A file read into a ring of memory mapped twice in a row, so that any span
 * of it up to the ring's size is contiguous in memory wherever it wraps: a
 * record is read in place, with one copy (the kernel's, in read()) and no
 * page fault once the ring has been through its pages once.
 *
 * Why not mmap(2) the file: measured on the project's machine (a VM whose
 * page-table walks are costly), touching a mapped 78 MB file ran at
 * 1.2-1.4 GB/s, read() into a 512 KiB ring at 7-8 GB/s but into a 4 MiB one
 * at 3 GB/s: every new page costs a TLB miss (and a mapped file a fault per
 * 16 pages). A small ring's pages are few and reused: they stay in the TLB
 * and the bytes just read stay in the cache. */
#ifndef ROCEWIRE_CAP_READRING_H
#define ROCEWIRE_CAP_READRING_H

#include <stddef.h>
#include <stdint.h>

struct cap_readring {
	int fd;
	uint8_t *base;          /* 2 * size bytes of address space, the ring twice */
	uint64_t size;          /* a power of two */
	uint64_t filled;        /* file bytes read so far */
	uint64_t file_size;     /* at open; lowered to filled at an early end of file */
	int err;                /* errno of a failed read(), 0 */
};

/* 0, or -1 with errno (no memfd, no address space). */
int cap_readring_open(struct cap_readring *r, int fd, uint64_t file_size, uint64_t ring_size);
/* Reads until filled >= want (or the end of the file), never past
 * keep + size: bytes before keep are no longer needed. 0, or -1 when the
 * file ended early or a read failed (file_size is then filled). */
int cap_readring_fill(struct cap_readring *r, uint64_t want, uint64_t keep);
/* Bytes [filled, to) will never be asked for (the body of a block skipped
 * unread): the next fill starts at to. Only when to is at most keep + size
 * for the keep of that fill (pcapfile.c checks before every block). */
void cap_readring_skip(struct cap_readring *r, uint64_t to);
/* n bytes at off read from the file itself, not through the ring: the end of
 * a block too long for the ring. 0, or -1 (the file is shorter, or a read
 * failed). */
int cap_readring_pread(const struct cap_readring *r, uint64_t off, void *buf, size_t n);
static inline const uint8_t *cap_readring_at(const struct cap_readring *r, uint64_t off)
{
	return r->base + (off & (r->size - 1));
}
void cap_readring_close(struct cap_readring *r);

#endif
