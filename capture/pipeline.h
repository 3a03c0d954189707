/* SPDX-License-Identifier: BSD-3-Clause */
/* The offline read-decode pipeline: a reader thread reads a capture file
 * (pcapfile.c through its ring) and decodes every record with
 * rw_packet_decode() (ICRC included) into a ring of slots; the thread that
 * called cap_pipe_next() takes them in capture order and runs everything
 * else (the analysis engine, the report, the printers, every message), so
 * output stays what a single thread would write. One producer, one
 * consumer, no lock: each side owns one index, publishes it in batches, and
 * sleeps on a futex only when the ring is full (reader) or empty
 * (consumer).
 *
 * Without per-packet printers (-q, --report, --html) a slot is a struct
 * cap_packed (packed.h: the fields the engine and the report read, two
 * cache lines) and the consumer unpacks it into a struct rw_packet of its
 * own; with them, a slot holds the record and the whole decoded packet. */
#ifndef ROCEWIRE_CAP_PIPELINE_H
#define ROCEWIRE_CAP_PIPELINE_H

#include <stdint.h>

#include "cap.h"

/* A record and its decoded packet, whole. */
struct cap_pipe_slot {
	_Alignas(64) struct cap_record rec; /* slots on cache lines of their own */
	struct rw_packet pkt;
};

struct cap_pipe;

/* The CPUs this process may run on: the reader thread needs a second one
 * (when it pays is rocewire-cap's choice: use_reader in main.c). */
int cap_pipe_cpus(void);

/* Starts the reader on a source pcapfile.c reads (cap_source_own); it stops after
 * `limit` records when limit is not 0. With retain, a record's bytes (its
 * data, the packet's payload and options pointers) stay readable until the
 * next cap_pipe_next(), and every field of the packet is there; without,
 * only what the analysis engine, the report and the counters read (packed.h)
 * is, and the record holds its index, time, lengths and offset, no data
 * (a packet that did not decode fully comes whole, with its record): the
 * reader then never waits for room in the source's ring. NULL when no thread
 * can be had: read the source on this thread then. */
struct cap_pipe *cap_pipe_start(struct cap_source *src, const struct rw_decode_cfg *cfg,
				uint64_t limit, int retain);
/* The next decoded packet, with its record in *rec and its time in
 * nanoseconds since 1970 in *ts_ns, valid until the next call; NULL at the
 * end, with *rc as cap_source_next_own() answered: 0 (end of file or
 * limit), -1 (a read error, in the source's err), -2 (libpcap must read on:
 * call cap_source_next() after cap_pipe_stop()). */
const struct rw_packet *cap_pipe_next(struct cap_pipe *p, const struct cap_record **rec,
				      uint64_t *ts_ns, int *rc);
/* Whether the reader counts what it hands out for the summary (with
 * retain, where the printers keep the consuming thread the busier);
 * without, the caller counts each packet (cap_stats_add): that thread has
 * the time, and the reader then does only what must be done where the
 * bytes are. */
int cap_pipe_counts(const struct cap_pipe *p);
/* Stops the reader (at any point), adds the counters it kept for the
 * records it handed out, if it kept them (all but .packets, which the
 * consumer counts as it takes them: see cap_dissect_counted), into st, and
 * frees the pipe. */
void cap_pipe_stop(struct cap_pipe *p, struct cap_stats *st);

#endif
