/* SPDX-License-Identifier: BSD-3-Clause */
/* The hand-over between the pipeline's two threads (pipeline.c): each side
 * publishes an index (how far it got) and, with nothing to do, waits for
 * the other's to move. It spins a little, then sleeps on a futex(2) word
 * the other side changes when it wakes it: when the index reaches what the
 * sleeper asked for (need), or at once when the waker is about to wait
 * itself (a forced wake-up: then any progress must end the wait, or both
 * sleep). Kept apart so that tests/unit/test_handoff.c can race the two
 * halves against each other without a capture. */
#ifndef CAP_HANDOFF_H
#define CAP_HANDOFF_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

/* One side's sleep: the index value it waits for, and a word to sleep on
 * that the other side changes when it wakes it. */
struct cap_sleeper {
	_Atomic int asleep;
	_Atomic uint32_t need;
	_Atomic uint32_t word;
};

static inline void cap_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* Wakes the other side if it sleeps and idx has reached what it waits for
 * (always when force is set). The sequentially consistent store of the
 * index (by the caller) and load of asleep pair with the sleeper's store of
 * asleep and re-check of the index: one of the two sees the other. */
static inline void cap_wake(struct cap_sleeper *w, uint32_t idx, int force)
{
	if (!atomic_load(&w->asleep))
		return;
	if (!force && (int32_t)(idx - atomic_load(&w->need)) < 0)
		return;
	atomic_store(&w->asleep, 0);
	atomic_fetch_add(&w->word, 1);
	syscall(SYS_futex, (uint32_t *)&w->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Waits until *idx moves away from old, or *quit is set: polls spins
 * times, then sleeps until the other side wakes it (at need, or forced).
 * Returns *idx. */
static inline uint32_t cap_await(_Atomic uint32_t *idx, uint32_t old, uint32_t need,
				 _Atomic int *quit, struct cap_sleeper *w, int spins)
{
	uint32_t v;
	for (int i = 0; i < spins; i++) {
		v = atomic_load_explicit(idx, memory_order_acquire);
		if (v != old || atomic_load_explicit(quit, memory_order_acquire))
			return v;
		cap_cpu_relax();
	}
	atomic_store(&w->need, need);
	for (;;) {
		uint32_t word = atomic_load(&w->word);
		atomic_store(&w->asleep, 1);
		/* Any progress since old ends the wait here, not only need: a
		 * waker that published before it saw asleep set skipped its
		 * wake-up, and if that was a forced one (the waker now waits
		 * for this side) nothing else would come. Checking for need
		 * alone lost such wake-ups: both threads slept for good. */
		v = atomic_load(idx);
		if (v != old || atomic_load(quit)) {
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

#endif
