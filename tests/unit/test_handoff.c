/* SPDX-License-Identifier: BSD-3-Clause */
/* The pipeline's hand-over (capture/handoff.h) raced against itself.
 *
 * Two threads pass a turn back and forth, as the capture's reader and
 * consumer do when the reader must wait for room: each, on its turn,
 * publishes one step of progress, wakes the other by force (it is about to
 * wait itself) and waits for the other's index to move, asking for far
 * more progress (need) than the other will make — the consumer's "a
 * stretch of work". Every wait goes to sleep at once (no spinning), so the
 * race between a sleeper getting ready and the forced wake-up is met on
 * most turns. A lost wake-up leaves both asleep for good: a watchdog sees
 * the turns stop and fails the test (the rocewire-cap hang this was found
 * by: both threads in FUTEX_WAIT, the reader's forced wake-up lost while
 * the consumer re-checked for need). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

#include "handoff.h"

#define TURNS 200000u

struct side {
	_Atomic uint32_t idx;
	struct cap_sleeper sleep;
};

struct race {
	struct side s[2];
	_Atomic int quit;
};

struct player {
	struct race *r;
	int me;
};

static void *play(void *arg)
{
	struct player *pl = arg;
	struct race *r = pl->r;
	struct side *me = &r->s[pl->me], *other = &r->s[!pl->me];
	uint32_t seen = 0; /* where both start (not a load: the other may have moved) */

	for (uint32_t turn = 0; turn < TURNS && !atomic_load(&r->quit); turn++) {
		/* Side 1 moves first; then each moves once the other did. */
		if (pl->me == 0 || turn > 0)
			seen = cap_await(&other->idx, seen, seen + 1000, &r->quit, &other->sleep, 0);
		atomic_store(&me->idx, atomic_load(&me->idx) + 1);
		cap_wake(&me->sleep, atomic_load(&me->idx), 1);
	}
	return NULL;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void test_forced_wake_not_lost(void **state)
{
	static struct race r;
	struct player p0 = {&r, 0}, p1 = {&r, 1};
	pthread_t t0, t1;
	(void)state;

	assert_int_equal(pthread_create(&t0, NULL, play, &p0), 0);
	assert_int_equal(pthread_create(&t1, NULL, play, &p1), 0);
	/* The turns must keep moving: 3 s without one is a hang. */
	uint32_t last = 0;
	double since = now_s();
	int hung = 0;
	for (;;) {
		uint32_t a = atomic_load(&r.s[0].idx), b = atomic_load(&r.s[1].idx);
		if (a >= TURNS && b >= TURNS)
			break;
		if (a + b != last) {
			last = a + b;
			since = now_s();
		} else if (now_s() - since > 3.0) {
			hung = 1;
			break;
		}
		struct timespec nap = {0, 2000000};
		nanosleep(&nap, NULL);
	}
	if (hung) {
		print_error("both sides asleep after %u turns of %u\n", last, 2 * TURNS);
		/* let them go, to join them */
		atomic_store(&r.quit, 1);
		for (int k = 0; k < 2; k++) {
			atomic_store(&r.s[k].idx, atomic_load(&r.s[k].idx) + 1);
			cap_wake(&r.s[k].sleep, 0, 1);
		}
	}
	pthread_join(t0, NULL);
	pthread_join(t1, NULL);
	assert_false(hung);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forced_wake_not_lost),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
