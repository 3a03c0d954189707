/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire_io: records from capture files (pcap and pcapng, regular files
 * read in place through a ring, standard input and pipes through libpcap).
 *
 * A source yields cap_records: the bytes, the timestamp, the link type of
 * the record's interface and where in the file it lies. Errors come back as
 * -1 with one line in s->err naming the file, the packet and the byte
 * offset; s->failure says whether the file could not be opened or a record
 * was damaged, and the tool decides what exit status each deserves. */
#ifndef ROCEWIRE_IO_SOURCE_H
#define ROCEWIRE_IO_SOURCE_H

#include <stdint.h>
#include <stdio.h>

#include "pcap_lazy.h"
#include "pcapfile.h"
#include "readring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Why an open or a read failed (s->failure). */
enum cap_source_failure {
	CAP_SOURCE_OK = 0,
	CAP_SOURCE_OPEN,        /* the file cannot be opened or is not a capture */
	CAP_SOURCE_READ,        /* a record is damaged or the file ends inside one */
};

struct cap_source;

struct cap_record {
	uint64_t index;         /* 1-based packet number within its source */
	int64_t ts_sec;
	uint32_t ts_nsec;
	uint32_t caplen;
	uint32_t wirelen;       /* never below caplen */
	int linktype;           /* RW_LINKTYPE_*: the record's interface's */
	const uint8_t *data;
	struct cap_source *src; /* for cap_record_offset(); NULL for live records */
	long offset;            /* offline: the record's byte offset, or -1: ask src */
	/* With src: a pcapng record's interface, numbered from 0 in its section
	 * (as Wireshark's frame.interface_id), or -1 (pcap, or read by libpcap,
	 * which does not say). */
	int32_t iface;
};

/* Where records come from: a pcap or pcapng file, or "-" for stdin
 * (cap_offline_open). A regular file is read into a ring and parsed in place
 * by pcapfile.c, each record's offset exact, with no copy of its own and no
 * system call per record, pcapng as its standard defines it (records of
 * several interfaces and link types); what that reader leaves (standard
 * input, pipes, and from where they start, pcap records libpcap reads
 * differently and records over 128 KiB) is read by libpcap through stdio.
 * Live sources fill the records alone, with no source (messages then give
 * the packet number only). */
struct cap_source {
	const char *name;
	pcap_t *pcap;           /* libpcap reads the file (or reads on) */
	FILE *fp;
	char *iobuf;            /* stdio buffer of fp */
	int fd;                 /* the file pcapfile.c reads, or -1 */
	int own;                /* pcapfile.c reads it (through ring) */
	struct cap_readring ring;
	struct cap_pcapfile pf;
	int linktype;           /* the file's (pcapng: records carry their own) */
	int pcapng;
	uint64_t index;         /* records returned so far */
	long pos;               /* file position after the last record; -1 unknown */
	long size;              /* size of a regular file; -1 unknown */
	long rec_start;         /* position before the current record */
	char err[512];          /* the one-line message when open/next fail */
	enum cap_source_failure failure; /* what the failure was */
	int cut;                /* the failure was a file ending inside a record */
};

/* 0 when open; -1 with s->err (a full line naming the file) and s->err_status. */
int cap_offline_open(struct cap_source *s, const char *path);
/* 1: *r holds the next record; 0: end of file; -1: read error, s->err holds
 * the line (file, packet number, byte offset, what was expected). */
int cap_source_next(struct cap_source *s, struct cap_record *r);
/* pcapfile.c reads the source: cap_source_next_own() may run on another
 * thread than the one that opened it (the read-decode pipeline). */
static inline int cap_source_own(const struct cap_source *s)
{
	return s->own && s->pcap == NULL;
}
/* Like cap_source_next() for such a source, but answers -2 where libpcap
 * must read on (cap_source_next() then does so, on the opening thread),
 * and -3 when blocks it skipped filled the ring up to keep (call again once
 * keep has moved). keep: the offset of the oldest record still in use (its
 * bytes stay in the ring); the source's own position when none is. */
int cap_source_next_own(struct cap_source *s, struct cap_record *r, uint64_t keep);
/* The ring's size: four times the longest record, so that the file is read
 * in large steps while records behind are still in use. Before
 * cap_source_next_own(), pos + CAP_PF_MAX_SPAN <= keep + this must hold
 * (the pipeline waits for the consumer until it does). */
#define CAP_SOURCE_RING_ROOM (4 * CAP_PF_MAX_SPAN)
/* Byte offset of the current record in its file, or -1 when unknown (a pipe). */
long cap_record_offset(const struct cap_record *r);
void cap_source_close(struct cap_source *s);

#ifdef __cplusplus
}
#endif

#endif
