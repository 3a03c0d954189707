/* SPDX-License-Identifier: BSD-3-Clause */
/* A reader of pcap and pcapng files read into a ring of memory (readring.h):
 * records come out as pointers into the ring, with no copy of their own and
 * no system call per record, each with its exact byte offset.
 *
 * Classic pcap 2.4 (microsecond or nanosecond magic, either byte order) is
 * read as libpcap reads it; a record libpcap would read differently (one
 * longer than the file's snapshot length) or longer than the ring holds
 * (CAP_PF_MAX_SPAN) is answered CAP_PF_OTHER, and the caller hands the rest
 * of the file to libpcap.
 *
 * pcapng is read as draft-ietf-opsawg-pcapng defines it, which is more than
 * libpcap 1.10 reads: every section (each with its own byte order, each
 * starting its interfaces from 0), every interface with its own link type,
 * snapshot length and time base (if_tsresol, if_tsoffset), Enhanced, Simple
 * and obsolete Packet Blocks, and every other block (name resolution,
 * statistics, secrets, journal, custom, unknown types) skipped by its
 * length. A record carries its interface's link type: one file may mix
 * Ethernet with InfiniBand or ERF, as `dumpcap -i eth2 -i ib0` writes. Only a
 * packet block longer than the ring holds (CAP_PF_MAX_SPAN) is left to
 * libpcap (CAP_PF_OTHER), and only in a file libpcap can read. A damaged
 * block is an error that says what was expected; a file cut short is
 * answered in the words rocewire-cap has always used.
 *
 * Timestamps are exact for every resolution and offset pcapng allows; a
 * time outside 1970-01-01 .. 2554-07-21 UTC (what 64 bits of nanoseconds
 * since 1970 hold, the clock of the analysis engine) is an error. A Simple
 * Packet Block has no timestamp: its records carry 0 (1970-01-01), as
 * libpcap gives them. */
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
	int linktype;           /* its interface's (pcapng) or the file's (pcap) */
	uint32_t iface;         /* pcapng: its interface, numbered from 0 in its section */
	const uint8_t *data;
};

/* A pcapng interface (Interface Description Block, 4.2). */
struct cap_pf_iface {
	uint64_t tsresol;       /* units per second */
	int64_t tsoffset;       /* seconds */
	uint32_t linktype;
	uint32_t snaplen;       /* 0: no limit */
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
	/* pcap: the file's link type. pcapng: the first link type rocewire
	 * decodes among the interfaces described before the first packet, or
	 * -1 when there are none; records carry their own. */
	int linktype;
	uint32_t snaplen;       /* pcap: the header's; pcapng: the first IDB's */
	/* pcapng: the interfaces of the current section (reset by each SHB) */
	struct cap_pf_iface *ifs;
	uint32_t n_ifs, cap_ifs;
	uint64_t sections;      /* pcapng: Section Header Blocks read */
	/* pcapng: why libpcap, which reads on after CAP_PF_OTHER, cannot read
	 * this file (NULL: it can). Set from the first IDB and SHB that make it
	 * so; libpcap 1.10 takes one byte order, link type and snapshot length
	 * per file. */
	const char *libpcap_refuses;
	int first_big_endian;
	int have_first_if;
	uint32_t first_if_linktype, first_if_snaplen;
	char err[256];
	uint64_t err_offset;
	int err_cut;            /* the error is a file that ends inside a record */
};

/* 1: the file starts as this reader expects (f is ready; pcap: f->linktype
 * one of rocewire's; pcapng: one of the interfaces described before the
 * first packet is of one of them, or none is described); 0: leave the whole
 * file to libpcap (whose message then says what is wrong with its start);
 * -1: out of memory. */
int cap_pcapfile_open(struct cap_pcapfile *f, struct cap_readring *rr);
/* CAP_PF_RECORD with *r, CAP_PF_END, CAP_PF_ERROR, CAP_PF_OTHER or
 * CAP_PF_AGAIN. After
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
