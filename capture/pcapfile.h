/* SPDX-License-Identifier: BSD-3-Clause */
/* A reader of pcap and pcapng files read into a ring of memory (readring.h):
 * records come out as pointers into the ring, with no copy of their own and
 * no system call per record, each with its exact byte offset.
 *
 * It reads the files that libpcap reads the same way, and only those: the
 * classic format 2.4 (microsecond or nanosecond magic, either byte order)
 * and pcapng 1.0 sections with Interface Description Blocks and Enhanced
 * Packet Blocks, of the link types rocewire decodes. Anything else (other
 * versions, Simple or obsolete Packet Blocks, a second section, malformed
 * blocks or options, oversized records) is answered CAP_PF_OTHER at the
 * record where it appears, and the caller hands the rest of the file to
 * libpcap, whose messages then stay the ones users know. A file cut short
 * is answered here, in the words rocewire-cap has always used.
 *
 * Timestamps are exact for every resolution and offset pcapng allows; a
 * time outside 1970-01-01 .. 2554-07-21 UTC (what 64 bits of nanoseconds
 * since 1970 hold, the clock of the analysis engine) is an error. */
#ifndef ROCEWIRE_CAP_PCAPFILE_H
#define ROCEWIRE_CAP_PCAPFILE_H

#include <stddef.h>
#include <stdint.h>

enum {
	CAP_PF_RECORD = 1,
	CAP_PF_END = 0,
	CAP_PF_ERROR = -1, /* f->err says what, at f->err_offset */
	CAP_PF_OTHER = -2, /* not read here: let libpcap read on from this record */
	CAP_PF_AGAIN = -3, /* skipped blocks filled the ring: call again with a later keep */
};

struct cap_pf_record {
	uint64_t offset;        /* of the record header (pcap) or packet block (pcapng) */
	int64_t ts_sec;         /* 0 .. 18446744073 */
	uint32_t ts_nsec;       /* 0 .. 999999999 */
	uint32_t caplen;
	uint32_t len;           /* as the file says (may be below caplen) */
	const uint8_t *data;
};

struct cap_pf_iface {
	uint64_t tsresol;       /* units per second */
	int64_t tsoffset;       /* seconds */
	uint8_t tsresol_opt;    /* if_tsresol as written, for messages */
};

struct cap_readring;

/* The longest record or block read here (128 KiB: any frame but a
 * segmentation-offload super-packet); longer ones are left to libpcap. The
 * caller keeps this much room in the ring past pos. */
#define CAP_PF_MAX_SPAN ((uint64_t)128 << 10)

struct cap_pcapfile {
	struct cap_readring *rr;
	uint64_t keep;          /* file bytes before this are no longer needed */
	uint64_t pos;           /* next record or block */
	int pcapng;
	int big_endian;         /* the file's (section's) byte order */
	int nsec;               /* pcap: nanosecond magic */
	int linktype;
	uint32_t snaplen;       /* pcap: the header's; pcapng: the first IDB's */
	/* pcapng: the interfaces of the section */
	struct cap_pf_iface *ifs;
	uint32_t n_ifs, cap_ifs;
	char err[256];
	uint64_t err_offset;
	int err_cut;            /* the error is a file that ends inside a record */
};

/* 1: the file starts as this reader expects (f is ready, f->linktype one of
 * rocewire's); 0: leave the whole file to libpcap; -1: out of memory. */
int cap_pcapfile_open(struct cap_pcapfile *f, struct cap_readring *rr);
/* CAP_PF_RECORD with *r, CAP_PF_END, CAP_PF_ERROR or CAP_PF_OTHER. After
 * CAP_PF_OTHER the position stays at that record: asking again answers the
 * same. r->data stays valid until the ring is refilled past it: set keep
 * to the offset of the oldest record still in use before calling. */
int cap_pcapfile_next(struct cap_pcapfile *f, struct cap_pf_record *r);
void cap_pcapfile_close(struct cap_pcapfile *f);
/* Classic pcap: the 8 timestamp bytes that start a record header of this
 * file (its byte order and resolution) for ns nanoseconds since 1970, for a
 * writer that retimes records in place (rocewire-gen's restamp). */
void cap_pcapfile_ts_bytes(const struct cap_pcapfile *f, uint64_t ns, uint8_t out[8]);

/* Seconds and nanoseconds from a raw time in units of 1/tsresol plus an
 * offset in seconds; 0, or -1 when the time is outside 1970 .. 2554 (what
 * the engine's 64-bit nanosecond clock holds). */
int cap_pf_time(uint64_t t, uint64_t tsresol, int64_t tsoffset, int64_t *sec, uint32_t *nsec);

#endif
