/* SPDX-License-Identifier: BSD-3-Clause */
/* See pipeline.h.
 *
 * What crosses from one core to the other is what costs here: on the
 * project's machine (a VM on a 2-core slice of an EPYC) a cache line
 * written on one core and read on the other costs about what decoding a
 * small header does, and the 640-byte slots (a record and a whole struct
 * rw_packet) of the first version of this pipeline made two threads slower
 * than one. So without per-packet printers a slot is the 128 bytes of
 * struct cap_packed (packed.h): the reader decodes into a struct rw_packet
 * that stays in its cache and packs what the consumer reads; the consumer
 * unpacks into one that stays in its own. A packet that did not decode fully
 * is copied whole into a side slot of the same index (rare: those pages are
 * not touched otherwise).
 *
 * The rings are large. Every sleep and wake-up is a context switch, and
 * those cost tens of microseconds on that machine; and the two sides' rates
 * vary along a file (the engine meets new flows and faults in their memory,
 * the reader crosses the file's pages), so the more one side may run ahead,
 * the less either waits: PACKED_RING packed slots (8 MiB, on huge pages)
 * ran --report on 200k packets in 52-55 ms where 8192 (1 MiB) took 63-68
 * and 2048 75-78 (a small ring's lines are also still in the consumer's
 * cache when the reader writes them again, and must be taken back from
 * it). WHOLE_RING whole slots (2.5 MiB) for the printers: larger ones did
 * not help there. Each index lives on its own cache line and is published
 * every BATCH slots, so the line moves between cores once per batch, not
 * once per packet. A side that finds nothing to do spins a little (the
 * other side is usually a few hundred nanoseconds away), then sleeps on a
 * futex(2) word until the other side has made enough progress for it to do
 * a long stretch of work: the reader until half the ring is free, the
 * consumer until CONSUMER_WAIT slots are filled. (Polling with short naps
 * instead cost more CPU on this project's machine, where each timer wake-up
 * is a trip through the hypervisor.) */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "handoff.h"
#include "packed.h"
#include "pipeline.h"

#define WHOLE_RING 1024u   /* slots of a ring of whole packets, a power of two */
#define PACKED_RING 65536u /* slots of a ring of packed ones */
#define CONSUMER_WAIT 4096u /* slots an idle consumer sleeps for (at most a quarter ring) */
#define BATCH 16u   /* slots per publication */
#define SPINS 100   /* polls before sleeping (the cores may be shared) */
#define PREFETCH_SLOTS 4 /* the consumer asks for this slot ahead (whole packets) */
#define PREFETCH_PACKED 8 /* the same for packed ones */

struct cap_pipe {
	/* written by the reader */
	_Alignas(64) _Atomic uint32_t head;     /* slots filled */
	_Atomic int done;                        /* head is final; end_rc says why */
	int end_rc;
	/* written by the consumer */
	_Alignas(64) _Atomic uint32_t tail;     /* slots released */
	_Atomic int stop;
	struct cap_sleeper consumer_sleep;
	struct cap_sleeper reader_sleep;
	/* the consumer's own */
	_Alignas(64) uint32_t next;              /* next slot to hand out */
	uint32_t seen_head;
	/* set once, read by both: written before the reader starts, on lines
	 * neither side writes afterwards (a counter of the reader's next to
	 * what the consumer reads for every packet made a cache line move
	 * between the cores twice per packet) */
	_Alignas(64) struct cap_source *src;
	const struct rw_decode_cfg *cfg;
	uint64_t limit;
	int retain;             /* records' bytes stay readable until released */
	uint32_t ring;          /* slots, a power of two */
	uint64_t first_index;   /* the source's index before the first record */
	struct cap_packed *packed; /* without retain: the ring */
	struct cap_pipe_slot *slots; /* with retain the ring; without, whole packets by index */
	pthread_t thread;
	void *map;              /* the ring's mapping */
	size_t map_len;
	void *side_map;         /* the side slots' mapping (without retain) */
	size_t side_len;
	/* the reader's own: its counts of what it decoded (with retain), and
	 * (without) the packet it decodes into, in its cache only */
	_Alignas(64) struct cap_stats stats;
	_Alignas(64) struct cap_record rrec;
	struct rw_packet rpkt;
	/* the consumer's (without retain), in its cache only */
	_Alignas(64) struct cap_record crec;
	struct rw_packet cpkt;
};

static uint64_t ts_of(const struct cap_record *r)
{
	return r->ts_sec > 0 ? (uint64_t)r->ts_sec * 1000000000u + r->ts_nsec : r->ts_nsec;
}

/* Reads and decodes one record into slot i (and counts it, with retain):
 * 1, or what cap_source_next_own() answered. */
static int fill(struct cap_pipe *p, uint32_t i, uint64_t keep)
{
	struct cap_pipe_slot *s = &p->slots[i];
	if (!p->packed) {
		int rc = cap_source_next_own(p->src, &s->rec, keep);
		if (rc != 1)
			return rc;
		rw_packet_decode(p->cfg, s->rec.linktype, s->rec.data, s->rec.caplen, s->rec.wirelen,
				 &s->pkt);
		cap_stats_add(&p->stats, &s->pkt, &s->rec);
		return 1;
	}
	struct cap_record *r = &p->rrec;
	int rc = cap_source_next_own(p->src, r, keep);
	if (rc != 1)
		return rc;
	rw_packet_decode(p->cfg, r->linktype, r->data, r->caplen, r->wirelen, &p->rpkt);
	if (cap_packed_pack(&p->packed[i], &p->rpkt, r->caplen, ts_of(r), r->offset)) {
		s->rec = *r;
		s->rec.data = NULL; /* not kept: the reader reads on */
		s->pkt = p->rpkt;
		s->pkt.payload = NULL;
		s->pkt.ipv4.options = NULL;
	}
	return 1;
}

static void *reader(void *arg)
{
	struct cap_pipe *p = arg;
	const uint32_t ring = p->ring;
	uint32_t head = 0, tail = 0;
	uint64_t n = 0;
	int rc;

	for (;;) {
		if (head - tail == ring) {
			atomic_store(&p->head, head);
			cap_wake(&p->consumer_sleep, head, 0);
			/* Sleeping, wait for half the ring. */
			tail = cap_await(&p->tail, tail, tail + ring / 2, &p->stop, &p->reader_sleep, SPINS);
			if (atomic_load_explicit(&p->stop, memory_order_acquire))
				return NULL;
			continue;
		}
		if (p->limit && n == p->limit) {
			rc = 0;
			break;
		}
		/* The oldest record in use keeps its bytes in the source's
		 * ring: wait for the consumer if the next record might not
		 * fit behind it. */
		uint64_t pos = p->src->pf.pos;
		uint64_t keep = head == tail || !p->retain ? pos
							     : (uint64_t)p->slots[tail & (ring - 1)].rec.offset;
		if (pos + CAP_PF_MAX_SPAN > keep + CAP_SOURCE_RING_ROOM) {
			tail = atomic_load_explicit(&p->tail, memory_order_acquire);
			keep = head == tail ? pos : (uint64_t)p->slots[tail & (ring - 1)].rec.offset;
			if (pos + CAP_PF_MAX_SPAN > keep + CAP_SOURCE_RING_ROOM) {
				atomic_store(&p->head, head);
				cap_wake(&p->consumer_sleep, head, 1);
				/* need <= head: the consumer can reach it */
				uint32_t need = head - tail > 4 * BATCH ? tail + 4 * BATCH : head;
				tail = cap_await(&p->tail, tail, need, &p->stop, &p->reader_sleep, SPINS);
				if (atomic_load_explicit(&p->stop, memory_order_acquire))
					return NULL;
				continue;
			}
		}
		rc = fill(p, head & (ring - 1), keep);
		if (rc == -3) { /* skipped blocks filled the ring: wait for room */
			atomic_store(&p->head, head);
			cap_wake(&p->consumer_sleep, head, 1);
			if (head != tail)
				tail = cap_await(&p->tail, tail, tail + 1, &p->stop, &p->reader_sleep, SPINS);
			if (atomic_load_explicit(&p->stop, memory_order_acquire))
				return NULL;
			continue;
		}
		if (rc != 1)
			break;
		head++;
		n++;
		if (head % BATCH == 0) {
			/* Sequentially consistent: the load of asleep in cap_wake()
			 * must not pass this store (see wake). */
			atomic_store(&p->head, head);
			cap_wake(&p->consumer_sleep, head, 0);
		}
	}
	/* The final head, then done: a consumer that sees done sees it. */
	p->end_rc = rc;
	atomic_store(&p->head, head);
	atomic_store(&p->done, 1);
	cap_wake(&p->consumer_sleep, head, 1);
	return NULL;
}

int cap_pipe_cpus(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		return CPU_COUNT(&set);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

#define HUGE ((size_t)2 << 20)

/* n bytes of zeroed memory for a ring, on huge pages when the system gives
 * them (a fault per 2 MiB, not per 4 KiB, and few TLB entries); *map and
 * *len for munmap. */
static void *ring_map(size_t n, int huge, void **map, size_t *len)
{
	size_t l = huge ? ((n + HUGE - 1) & ~(HUGE - 1)) + HUGE : n;
	void *m = mmap(NULL, l, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	*map = m;
	*len = l;
	if (!huge)
		return m;
	void *a = (void *)(((uintptr_t)m + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
	(void)madvise(a, l - HUGE, MADV_HUGEPAGE);
	return a;
}

static void pipe_free(struct cap_pipe *p)
{
	if (p->map)
		munmap(p->map, p->map_len);
	if (p->side_map)
		munmap(p->side_map, p->side_len);
	free(p);
}

struct cap_pipe *cap_pipe_start(struct cap_source *src, const struct rw_decode_cfg *cfg,
				uint64_t limit, int retain)
{
	struct cap_pipe *p = aligned_alloc(64, (sizeof(*p) + 63) & ~(size_t)63);
	if (!p)
		return NULL;
	memset(p, 0, sizeof(*p));
	p->src = src;
	p->cfg = cfg;
	p->limit = limit;
	p->retain = retain;
	p->first_index = src->index;
	if (retain) {
		p->ring = WHOLE_RING;
		p->slots = ring_map((size_t)p->ring * sizeof(*p->slots), 1, &p->map, &p->map_len);
	} else {
		p->ring = PACKED_RING;
		p->packed = ring_map((size_t)p->ring * sizeof(*p->packed), 1, &p->map, &p->map_len);
		/* Whole packets by index: pages touched only by those. */
		p->slots = ring_map((size_t)p->ring * sizeof(*p->slots), 0, &p->side_map,
				    &p->side_len);
		p->crec.linktype = src->linktype;
		p->crec.src = src;
	}
	if (!p->slots || (!retain && !p->packed) ||
	    pthread_create(&p->thread, NULL, reader, p) != 0) {
		pipe_free(p);
		return NULL;
	}
	return p;
}

const struct rw_packet *cap_pipe_next(struct cap_pipe *p, const struct cap_record **rec,
				      uint64_t *ts_ns, int *rc)
{
	uint32_t t = p->next;

	/* Slots before t are done with: hand them back in batches. */
	if (t % BATCH == 0) {
		atomic_store(&p->tail, t);
		cap_wake(&p->reader_sleep, t, 0);
	}
	if (t == p->seen_head) {
		p->seen_head = atomic_load_explicit(&p->head, memory_order_acquire);
		while (t == p->seen_head) {
			if (atomic_load_explicit(&p->done, memory_order_acquire)) {
				p->seen_head = atomic_load_explicit(&p->head, memory_order_acquire);
				if (t != p->seen_head)
					break;
				*rc = p->end_rc;
				return NULL;
			}
			/* Everything taken: let the reader refill all of it, and
			 * sleeping, wait for a stretch of work (CONSUMER_WAIT
			 * slots, or a quarter of a small ring). */
			atomic_store(&p->tail, t);
			cap_wake(&p->reader_sleep, t, 0);
			uint32_t want = p->ring / 4 < CONSUMER_WAIT ? p->ring / 4 : CONSUMER_WAIT;
			p->seen_head = cap_await(&p->head, t, t + want, &p->done, &p->consumer_sleep, SPINS);
		}
	}
	p->next = t + 1;
	uint32_t i = t & (p->ring - 1);
	/* The slots were written on the other core: ask for a later one's
	 * lines now, so that they are here when the engine reads them. */
	if (!p->packed) {
		if ((int32_t)(p->seen_head - (t + PREFETCH_SLOTS)) > 0) {
			const char *ahead = (const char *)&p->slots[(t + PREFETCH_SLOTS) & (p->ring - 1)];
			for (size_t o = 0; o < sizeof(struct cap_pipe_slot); o += 64)
				__builtin_prefetch(ahead + o);
		}
		*rec = &p->slots[i].rec;
		*ts_ns = ts_of(*rec);
		return &p->slots[i].pkt;
	}
	/* Only slots already written: a line asked for before the reader
	 * writes it would have to come back to the reader's core. */
	if ((int32_t)(p->seen_head - (t + PREFETCH_PACKED)) > 0) {
		const char *ahead = (const char *)&p->packed[(t + PREFETCH_PACKED) & (p->ring - 1)];
		__builtin_prefetch(ahead);
		__builtin_prefetch(ahead + 64);
	}
	const struct cap_packed *k = &p->packed[i];
	*ts_ns = k->ts_ns;
	if (k->whole) {
		*rec = &p->slots[i].rec;
		return &p->slots[i].pkt;
	}
	cap_packed_unpack(k, &p->cpkt);
	struct cap_record *r = &p->crec;
	r->index = p->first_index + t + 1;
	r->ts_sec = (int64_t)(k->ts_ns / 1000000000u);
	r->ts_nsec = (uint32_t)(k->ts_ns % 1000000000u);
	r->caplen = r->wirelen = k->wirelen;
	r->offset = (long)k->offset;
	*rec = r;
	return &p->cpkt;
}

int cap_pipe_counts(const struct cap_pipe *p)
{
	return p->retain;
}

void cap_pipe_stop(struct cap_pipe *p, struct cap_stats *st)
{
	if (!p)
		return;
	atomic_store(&p->stop, 1);
	cap_wake(&p->reader_sleep, 0, 1);
	pthread_join(p->thread, NULL);
	cap_stats_merge(st, &p->stats);
	pipe_free(p);
}
