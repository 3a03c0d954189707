/* The offline read-decode pipeline: a reader thread reads a capture file
 * (pcapfile.c through its ring) and decodes every record with rw_packet_decode() (ICRC included)
 * and counts it for the summary into a ring of slots; the thread that called cap_pipe_next() takes them
 * in capture order and runs everything else (counters, the analysis engine,
 * the report, the printers, every message), so output stays what a single
 * thread would write. One producer, one consumer, no lock: each side owns
 * one index, publishes it in batches, and sleeps on a futex only when the
 * ring is full (reader) or empty (consumer). */
#ifndef ROCEWIRE_CAP_PIPELINE_H
#define ROCEWIRE_CAP_PIPELINE_H

#include <stdint.h>

#include "cap.h"

struct cap_pipe_slot {
	_Alignas(64) struct cap_record rec; /* slots on cache lines of their own */
	struct rw_packet pkt;
};

struct cap_pipe;

/* The CPUs this process may run on: the reader thread needs a second one.
 * (It may lose a little when other work keeps every core busy: handing each
 * decoded packet to the other core costs CPU. On the project's 2-core
 * machine, shared, it was 25-40% faster in most runs and 10% slower in
 * some; whether a core is free, taken from the load average at start,
 * guessed wrong as often as right.) */
int cap_pipe_cpus(void);

/* Starts the reader on a source pcapfile.c reads (cap_source_own); it stops after
 * `limit` records when limit is not 0. With retain, a record's bytes (its
 * data, the packet's payload and options pointers) stay readable until the
 * next cap_pipe_next(); without, only the decoded fields may be used (the
 * analysis engine and the report, which never touch bytes): the reader then
 * never waits for room in the source's ring. NULL when no thread can be
 * had: read the source on this thread then. */
struct cap_pipe *cap_pipe_start(struct cap_source *src, const struct rw_decode_cfg *cfg,
				uint64_t limit, int retain);
/* The next decoded record, valid until the next call; NULL at the end, with
 * *rc as cap_source_next_own() answered: 0 (end of file or limit), -1 (a
 * read error, in the source's err), -2 (libpcap must read on: call
 * cap_source_next() after cap_pipe_stop()). */
struct cap_pipe_slot *cap_pipe_next(struct cap_pipe *p, int *rc);
/* Stops the reader (at any point), adds the counters it kept for the
 * records it handed out (all but .packets, which the consumer counts as it
 * takes them: see cap_dissect_counted) into st, and frees the pipe. */
void cap_pipe_stop(struct cap_pipe *p, struct cap_stats *st);

#endif
