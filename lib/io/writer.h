/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire_io: the capture writer -- pcap or pcapng files, rotation by size
 * (-C) or time (-G), a file written as NAME.XXXXXX.part and renamed when
 * whole, so that no reader sees a half-written capture. */
#ifndef ROCEWIRE_IO_WRITER_H
#define ROCEWIRE_IO_WRITER_H

#include <stdint.h>
#include <stdio.h>

#include "source.h"

#ifdef __cplusplus
extern "C" {
#endif

/* File format written by -w. */
enum cap_wfmt {
	CAP_WFMT_AUTO = 0,      /* pcapng when the name ends in .pcapng, else pcap */
	CAP_WFMT_PCAP,
	CAP_WFMT_PCAPNG,
};

/* What to write: the tool fills it from its options. */
struct cap_writer_cfg {
	const char *pattern;    /* file name or strftime pattern; "-" is stdout */
	enum cap_wfmt fmt;
	uint64_t rotate_bytes;  /* 0: no size rotation */
	uint32_t rotate_secs;   /* 0: no time rotation */
	const char *appl;       /* pcapng shb_userappl, e.g. "rocewire-cap 0.1.0" */
};

/* Capture-side loss, written into pcapng interface statistics blocks. */
struct cap_drops {
	int known;              /* the source can count its losses */
	uint64_t recv;          /* packets that passed the filter (some dropped) */
	uint64_t kernel;        /* dropped by the kernel: capture buffer full */
	uint64_t ifdrop;        /* dropped by the interface / NIC */
};

/* An interface of the file: pcapng writes one IDB each (a pcap file has
 * one link type and snapshot length). */
#define CAP_WRITER_MAX_IFACES 64u
struct cap_writer_iface {
	int linktype;
	uint32_t snaplen;
	const char *name;       /* pcapng if_name, or NULL */
	uint64_t packets;       /* written on it since the capture began */
};

struct cap_writer {
	const char *pattern;    /* as given */
	char appl[64];          /* pcapng shb_userappl */
	int pcapng;
	int to_stdout;
	int nano;
	struct cap_writer_iface ifs[CAP_WRITER_MAX_IFACES]; /* 0: cap_writer_open's */
	unsigned n_ifs;
	uint64_t rotate_bytes;
	uint32_t rotate_secs;
	const struct cap_drops *drops; /* written into pcapng statistics blocks */
	int64_t start_sec;      /* capture start (pcapng isb_starttime) */
	uint32_t start_nsec;

	FILE *fp;               /* NULL between a time rotation and the next packet */
	char *iobuf;            /* records not yet handed to fp (unbuffered) */
	size_t ilen;
	char base[4096];        /* current name before the index suffix */
	char name[4096];        /* current file */
	char part[4112];        /* name + ".XXXXXX.part", written until closed */
	unsigned index;         /* suffix of the current name; 0: none */
	/* -G: when the period began, on the wall clock the strftime name is
	 * made from (the period ends when that clock has moved on by -G
	 * seconds, as tcpdump does, so two periods never share a name) and on
	 * the monotonic clock (a wall clock stepped back cannot hold a period
	 * open for ever). */
	int64_t period_wall;
	int64_t period_mono;
	uint64_t bytes;         /* in the current file */
	uint64_t packets;       /* in the current file */
	uint64_t total_packets;
	unsigned files;         /* files closed */
	char first_name[4096];  /* first file closed, for the closing line */
	int failed;
	char err[8800];
};

/* Opens the first file, with interface 0 of this link type, snapshot
 * length and name; 0, or -1 with w->err. */
int cap_writer_open(struct cap_writer *w, const struct cap_writer_cfg *cfg, int linktype,
		    uint32_t snaplen, int nano, const char *ifname);
/* One more interface for the packets of another port or link type (pcapng;
 * pcap only when both match interface 0's): its number, or -1 with w->err
 * (the writer stays usable). */
int cap_writer_add_iface(struct cap_writer *w, int linktype, uint32_t snaplen, const char *name);
/* Writes one record on interface 0, or on iface, rotating first when -C or
 * -G says so; 0 or -1 (w->err). */
int cap_writer_write(struct cap_writer *w, const struct cap_record *r);
int cap_writer_write_on(struct cap_writer *w, unsigned iface, const struct cap_record *r);
/* Once a second: flushes, and ends a -G period that is over. */
/* Hands what the writer holds to the file or standard output now. */
int cap_writer_flush(struct cap_writer *w);
int cap_writer_tick(struct cap_writer *w);
/* A capture that never started: closes the current file and removes its
 * FILE.XXXXXX.part (nothing renamed, nothing left). */
void cap_writer_discard(struct cap_writer *w);
/* Closes (statistics block, flush, rename FILE.XXXXXX.part to FILE); 0 or -1. */
int cap_writer_close(struct cap_writer *w);

#ifdef __cplusplus
}
#endif

#endif
