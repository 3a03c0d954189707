/* See pipeline.h.
 *
 * The ring holds RING slots (a record and its decoded packet, 640 bytes;
 * 2.5 MiB on huge pages): large, because every sleep and wake-up is a
 * context switch, and those cost tens of microseconds on this project's
 * machine (a VM): with 512 slots a 200k-packet file took 1,700 of them.
 * Each index lives on its own cache line
 * and is published every BATCH slots, so the line moves between cores once
 * per batch, not once per packet. A side that finds nothing to do spins a
 * little (the other side is usually a few hundred nanoseconds away), then
 * sleeps on a futex(2) word until the other side has made enough progress
 * for it to do a long stretch of work: the reader, usually the faster side,
 * sleeps until half the ring is free, so the consumer, whose work bounds the
 * rate, pays one wake-up system call per 2048 packets. (Polling with short
 * naps instead cost more CPU on this project's machine, where each timer
 * wake-up is a trip through the hypervisor.) */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pipeline.h"

#define RING 1024u  /* slots, a power of two */
#define BATCH 16u   /* slots per publication */
#define SPINS 100   /* polls before sleeping (the cores may be shared) */
#define PREFETCH_SLOTS 4 /* the consumer asks for this slot ahead */

/* One side's sleep: the index value it waits for, and a word to sleep on
 * that the other side changes when it wakes it. */
struct sleeper {
	_Atomic int asleep;
	_Atomic uint32_t need;
	_Atomic uint32_t word;
};

struct cap_pipe {
	/* written by the reader */
	_Alignas(64) _Atomic uint32_t head;     /* slots filled */
	_Atomic int done;                        /* head is final; end_rc says why */
	int end_rc;
	/* written by the consumer */
	_Alignas(64) _Atomic uint32_t tail;     /* slots released */
	_Atomic int stop;
	struct sleeper consumer_sleep;
	struct sleeper reader_sleep;
	/* the consumer's own */
	_Alignas(64) uint32_t next;              /* next slot to hand out */
	uint32_t seen_head;
	/* set once */
	_Alignas(64) struct cap_source *src;
	const struct rw_decode_cfg *cfg;
	uint64_t limit;
	int retain;             /* records' bytes stay readable until released */
	pthread_t thread;
	struct cap_pipe_slot *slots;
	void *map;              /* the slots' mapping */
	struct cap_stats stats; /* the reader's counts of what it decoded */
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* Wakes the other side if it sleeps and idx has reached what it waits for
 * (always when force is set). The sequentially consistent store of the
 * index (by the caller) and load of asleep pair with the sleeper's store of
 * asleep and re-check of the index: one of the two sees the other. */
static void wake(struct sleeper *w, uint32_t idx, int force)
{
	if (!atomic_load(&w->asleep))
		return;
	if (!force && (int32_t)(idx - atomic_load(&w->need)) < 0)
		return;
	atomic_store(&w->asleep, 0);
	atomic_fetch_add(&w->word, 1);
	syscall(SYS_futex, (uint32_t *)&w->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Waits until *idx moves away from old, or *quit is set; spins first, then
 * sleeps until the other side wakes it: when *idx reaches need, or at once
 * when it is about to wait too (forced; any progress then ends the wait).
 * Returns *idx. */
static uint32_t await(_Atomic uint32_t *idx, uint32_t old, uint32_t need, _Atomic int *quit,
		      struct sleeper *w)
{
	uint32_t v;
	for (int i = 0; i < SPINS; i++) {
		v = atomic_load_explicit(idx, memory_order_acquire);
		if (v != old || atomic_load_explicit(quit, memory_order_acquire))
			return v;
		cpu_relax();
	}
	atomic_store(&w->need, need);
	for (;;) {
		uint32_t word = atomic_load(&w->word);
		atomic_store(&w->asleep, 1);
		v = atomic_load(idx);
		if ((int32_t)(v - need) >= 0 || atomic_load(quit)) {
			atomic_store(&w->asleep, 0);
			return v;
		}
		syscall(SYS_futex, (uint32_t *)&w->word, FUTEX_WAIT_PRIVATE, word, NULL, NULL, 0);
		/* Woken: take whatever progress there is (a forced wake-up
		 * comes before need is reached: the other side waits too). */
		v = atomic_load(idx);
		if (v != old || atomic_load(quit)) {
			atomic_store(&w->asleep, 0);
			return v;
		}
	}
}

static void *reader(void *arg)
{
	struct cap_pipe *p = arg;
	uint32_t head = 0, tail = 0;
	uint64_t n = 0;
	int rc;

	for (;;) {
		if (head - tail == RING) {
			atomic_store(&p->head, head);
			wake(&p->consumer_sleep, head, 0);
			/* Sleeping, wait for half the ring. */
			tail = await(&p->tail, tail, tail + RING / 2, &p->stop, &p->reader_sleep);
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
							     : (uint64_t)p->slots[tail & (RING - 1)].rec.offset;
		if (pos + CAP_PF_MAX_SPAN > keep + CAP_SOURCE_RING_ROOM) {
			tail = atomic_load_explicit(&p->tail, memory_order_acquire);
			keep = head == tail ? pos : (uint64_t)p->slots[tail & (RING - 1)].rec.offset;
			if (pos + CAP_PF_MAX_SPAN > keep + CAP_SOURCE_RING_ROOM) {
				atomic_store(&p->head, head);
				wake(&p->consumer_sleep, head, 1);
				/* need <= head: the consumer can reach it */
				uint32_t need = head - tail > 4 * BATCH ? tail + 4 * BATCH : head;
				tail = await(&p->tail, tail, need, &p->stop, &p->reader_sleep);
				if (atomic_load_explicit(&p->stop, memory_order_acquire))
					return NULL;
				continue;
			}
		}
		struct cap_pipe_slot *s = &p->slots[head & (RING - 1)];
		rc = cap_source_next_own(p->src, &s->rec, keep);
		if (rc == -3) { /* skipped blocks filled the ring: wait for room */
			atomic_store(&p->head, head);
			wake(&p->consumer_sleep, head, 1);
			if (head != tail)
				tail = await(&p->tail, tail, tail + 1, &p->stop, &p->reader_sleep);
			if (atomic_load_explicit(&p->stop, memory_order_acquire))
				return NULL;
			continue;
		}
		if (rc != 1)
			break;
		rw_packet_decode(p->cfg, s->rec.linktype, s->rec.data, s->rec.caplen,
				 s->rec.wirelen, &s->pkt);
		cap_stats_add(&p->stats, &s->pkt, &s->rec);
		head++;
		n++;
		if (head % BATCH == 0) {
			/* Sequentially consistent: the load of asleep in wake()
			 * must not pass this store (see wake). */
			atomic_store(&p->head, head);
			wake(&p->consumer_sleep, head, 0);
		}
	}
	/* The final head, then done: a consumer that sees done sees it. */
	p->end_rc = rc;
	atomic_store(&p->head, head);
	atomic_store(&p->done, 1);
	wake(&p->consumer_sleep, head, 1);
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

#define SLOTS_BYTES (((size_t)RING * sizeof(struct cap_pipe_slot) + HUGE - 1) & ~(HUGE - 1))
#define HUGE ((size_t)2 << 20)

struct cap_pipe *cap_pipe_start(struct cap_source *src, const struct rw_decode_cfg *cfg,
				uint64_t limit, int retain)
{
	struct cap_pipe *p = aligned_alloc(64, (sizeof(*p) + 63) & ~(size_t)63);
	if (!p)
		return NULL;
	memset(p, 0, sizeof(*p));
	/* Huge pages when the system gives them: a fault per 2 MiB, not per
	 * 4 KiB, and few TLB entries. */
	void *m = mmap(NULL, SLOTS_BYTES + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (m == MAP_FAILED) {
		free(p);
		return NULL;
	}
	p->map = m;
	p->slots = (struct cap_pipe_slot *)(((uintptr_t)m + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
	(void)madvise(p->slots, SLOTS_BYTES, MADV_HUGEPAGE);
	p->src = src;
	p->cfg = cfg;
	p->limit = limit;
	p->retain = retain;
	if (pthread_create(&p->thread, NULL, reader, p) != 0) {
		munmap(p->map, SLOTS_BYTES + HUGE);
		free(p);
		return NULL;
	}
	return p;
}

struct cap_pipe_slot *cap_pipe_next(struct cap_pipe *p, int *rc)
{
	uint32_t t = p->next;

	/* Slots before t are done with: hand them back in batches. */
	if (t % BATCH == 0) {
		atomic_store(&p->tail, t);
		wake(&p->reader_sleep, t, 0);
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
			 * sleeping, wait for a quarter of the ring. */
			atomic_store(&p->tail, t);
			wake(&p->reader_sleep, t, 0);
			p->seen_head = await(&p->head, t, t + RING / 4, &p->done, &p->consumer_sleep);
		}
	}
	p->next = t + 1;
	/* The slots were written on the other core: ask for a later one's
	 * lines now, so that they are here when the engine reads them. */
	const char *ahead = (const char *)&p->slots[(t + PREFETCH_SLOTS) & (RING - 1)];
	for (size_t o = 0; o < sizeof(struct cap_pipe_slot); o += 64)
		__builtin_prefetch(ahead + o);
	return &p->slots[t & (RING - 1)];
}

/* Every counter of struct cap_stats but packets (the consumer's) and the
 * per-capture ones: a field added there must be added here. */
_Static_assert(sizeof(struct cap_stats) ==
		       sizeof(const char *) + (4 + RW_CARRIER_COUNT + 256 + 3 + 3 + 1 +
					       CAP_ERR_KINDS * CAP_ERR_PLACES + 1) * sizeof(uint64_t),
	       "struct cap_stats changed: merge the new counter in cap_pipe_stop");

static void stats_merge(struct cap_stats *to, const struct cap_stats *from)
{
	to->bytes += from->bytes;
	for (int i = 0; i < RW_CARRIER_COUNT; i++)
		to->carrier[i] += from->carrier[i];
	for (int i = 0; i < 256; i++)
		to->opcode[i] += from->opcode[i];
	for (int i = 0; i < 3; i++) {
		to->icrc[i] += from->icrc[i];
		to->vcrc[i] += from->vcrc[i];
	}
	to->decode_errors += from->decode_errors;
	for (int k = 0; k < CAP_ERR_KINDS; k++)
		for (int i = 0; i < CAP_ERR_PLACES; i++)
			to->errors[k][i] += from->errors[k][i];
	to->truncated += from->truncated;
}

void cap_pipe_stop(struct cap_pipe *p, struct cap_stats *st)
{
	if (!p)
		return;
	atomic_store(&p->stop, 1);
	wake(&p->reader_sleep, 0, 1);
	pthread_join(p->thread, NULL);
	stats_merge(st, &p->stats);
	munmap(p->map, SLOTS_BYTES + HUGE);
	free(p);
}
