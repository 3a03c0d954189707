/* SPDX-License-Identifier: BSD-3-Clause */
/* The deterministic data pattern rocewire-verbs writes and checks.
 *
 * A message is named by (qp, iter): the QP index inside the run (0..qps-1,
 * not the QPN, so that the pattern survives a replay onto other QPNs) and the
 * iteration number (0..iters-1). Its bytes are a stream of 64-bit words, each
 * stored big-endian so that a hex dump of a capture reads naturally:
 *
 *   word 0      = 0x5257 << 48 | (qp & 0xffff) << 32 | (iter & 0xffffffff)
 *                 ("RW", QP index, iteration: a header a person can read)
 *   word w >= 1 = splitmix64_mix(word0 + w * 0x9e3779b97f4a7c15)
 *
 * splitmix64_mix is the finalizer of Vigna's SplitMix64 generator; with the
 * header as seed, words 1, 2, ... are exactly SplitMix64's outputs 1, 2, ...
 * A message of n bytes is the first n bytes of the stream (a message shorter
 * than 8 bytes carries a truncated header).
 *
 * Atomics use one 64-bit word per QP, kept in host byte order because the
 * responder adds and compares it as a native integer:
 *   A(qp, 0)     = word0(qp, 0)
 *   A(qp, i + 1) = A(qp, i) + word1(qp, i)      (mod 2^64)
 * FETCH_AND_ADD i adds word1(qp, i); COMPARE_AND_SWAP i compares with
 * A(qp, i) and swaps in A(qp, i + 1). Either way the original value returned
 * by operation i is A(qp, i) and the word ends at A(qp, iters).
 *
 * Nothing here allocates or depends on libibverbs, so the generator and the
 * tests can use it. */
#ifndef RWV_PATTERN_H
#define RWV_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#define RWV_PAT_MAGIC 0x5257u
#define RWV_PAT_GOLDEN 0x9e3779b97f4a7c15ull

/* SplitMix64's output function (Vigna, splitmix64.c). */
uint64_t rwv_splitmix64_mix(uint64_t z);

/* Word w of message (qp, iter), as a number (stored big-endian). */
uint64_t rwv_pat_word(uint32_t qp, uint64_t iter, uint64_t w);

/* Writes the first n bytes of message (qp, iter) to buf. */
void rwv_pat_fill(uint8_t *buf, size_t n, uint32_t qp, uint64_t iter);

/* Returns n when buf holds the first n bytes of message (qp, iter), else the
 * offset of the first byte that differs (and its expected value in *want). */
size_t rwv_pat_check(const uint8_t *buf, size_t n, uint32_t qp, uint64_t iter,
		     uint8_t *want);

/* Reads the header of a message of n >= 8 bytes: returns 0 and fills qp and
 * iter when the magic is there, -1 otherwise (or when n < 8). */
int rwv_pat_identify(const uint8_t *buf, size_t n, uint32_t *qp, uint64_t *iter);

/* A user-given byte string repeated: byte o of a message is hex[o % len]. */
struct rwv_fixed_pat {
	uint8_t bytes[256];
	size_t len;
};

/* Parses hex digits (optional 0x prefix; ':' '-' ' ' separators allowed) into
 * p. Returns 0, or -1 with a reason in why. */
int rwv_fixed_pat_parse(const char *text, struct rwv_fixed_pat *p, char *why,
			size_t whylen);
void rwv_fixed_pat_fill(uint8_t *buf, size_t n, const struct rwv_fixed_pat *p);
size_t rwv_fixed_pat_check(const uint8_t *buf, size_t n,
			   const struct rwv_fixed_pat *p, uint8_t *want);

/* The atomic sequence above. */
uint64_t rwv_atomic_initial(uint32_t qp);
uint64_t rwv_atomic_add(uint32_t qp, uint64_t iter);
static inline uint64_t rwv_atomic_next(uint32_t qp, uint64_t iter, uint64_t a)
{
	return a + rwv_atomic_add(qp, iter);
}

#endif
