/* SPDX-License-Identifier: BSD-3-Clause */
/* Deterministic data pattern of rocewire-verbs; the definition is in pattern.h
 * and README.md (section "Data pattern"). */
#include "pattern.h"

#include <stdio.h>
#include <string.h>

#include "rocewire/wire.h"

uint64_t rwv_splitmix64_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t pat_header(uint32_t qp, uint64_t iter)
{
	return (uint64_t)RWV_PAT_MAGIC << 48 | (uint64_t)(qp & 0xffffu) << 32 |
	       (iter & 0xffffffffull);
}

uint64_t rwv_pat_word(uint32_t qp, uint64_t iter, uint64_t w)
{
	uint64_t h = pat_header(qp, iter);
	return w == 0 ? h : rwv_splitmix64_mix(h + w * RWV_PAT_GOLDEN);
}

void rwv_pat_fill(uint8_t *buf, size_t n, uint32_t qp, uint64_t iter)
{
	uint64_t h = pat_header(qp, iter);
	uint64_t state = h;
	size_t o = 0;
	uint8_t tail[8];

	if (n >= 8) {
		rw_put_be64(buf, h);
		o = 8;
	}
	for (; o + 8 <= n; o += 8) {
		state += RWV_PAT_GOLDEN;
		rw_put_be64(buf + o, rwv_splitmix64_mix(state));
	}
	if (o < n) {
		uint64_t v = o == 0 ? h : rwv_splitmix64_mix(state + RWV_PAT_GOLDEN);
		rw_put_be64(tail, v);
		memcpy(buf + o, tail, n - o);
	}
}

size_t rwv_pat_check(const uint8_t *buf, size_t n, uint32_t qp, uint64_t iter,
		     uint8_t *want)
{
	uint64_t h = pat_header(qp, iter);
	uint64_t state = h;
	uint8_t w[8];

	for (size_t o = 0; o < n; o += 8) {
		uint64_t v;
		size_t k = n - o < 8 ? n - o : 8;
		if (o == 0) {
			v = h;
		} else {
			state += RWV_PAT_GOLDEN;
			v = rwv_splitmix64_mix(state);
		}
		/* Compare the whole word at once, and only on a mismatch find the byte. */
		rw_put_be64(w, v);
		if (memcmp(buf + o, w, k) != 0) {
			for (size_t b = 0; b < k; b++) {
				if (buf[o + b] != w[b]) {
					if (want)
						*want = w[b];
					return o + b;
				}
			}
		}
	}
	return n;
}

int rwv_pat_identify(const uint8_t *buf, size_t n, uint32_t *qp, uint64_t *iter)
{
	if (n < 8)
		return -1;
	uint64_t h = rw_get_be64(buf);
	if ((h >> 48) != RWV_PAT_MAGIC)
		return -1;
	*qp = (uint32_t)(h >> 32) & 0xffffu;
	*iter = h & 0xffffffffull;
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int rwv_fixed_pat_parse(const char *text, struct rwv_fixed_pat *p, char *why,
			size_t whylen)
{
	const char *s = text;
	int hi = -1;

	p->len = 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; *s; s++) {
		if (*s == ':' || *s == '-' || *s == ' ')
			continue;
		int v = hexval(*s);
		if (v < 0) {
			snprintf(why, whylen, "'%c' at offset %zu is not a hex digit", *s,
				 (size_t)(s - text));
			return -1;
		}
		if (hi < 0) {
			hi = v;
			continue;
		}
		if (p->len >= sizeof(p->bytes)) {
			snprintf(why, whylen, "longer than %zu bytes", sizeof(p->bytes));
			return -1;
		}
		p->bytes[p->len++] = (uint8_t)(hi << 4 | v);
		hi = -1;
	}
	if (hi >= 0) {
		snprintf(why, whylen, "odd number of hex digits");
		return -1;
	}
	if (p->len == 0) {
		snprintf(why, whylen, "no hex digits");
		return -1;
	}
	return 0;
}

void rwv_fixed_pat_fill(uint8_t *buf, size_t n, const struct rwv_fixed_pat *p)
{
	for (size_t o = 0; o < n; o++)
		buf[o] = p->bytes[o % p->len];
}

size_t rwv_fixed_pat_check(const uint8_t *buf, size_t n,
			   const struct rwv_fixed_pat *p, uint8_t *want)
{
	for (size_t o = 0; o < n; o++) {
		if (buf[o] != p->bytes[o % p->len]) {
			if (want)
				*want = p->bytes[o % p->len];
			return o;
		}
	}
	return n;
}

uint64_t rwv_atomic_initial(uint32_t qp)
{
	return rwv_pat_word(qp, 0, 0);
}

uint64_t rwv_atomic_add(uint32_t qp, uint64_t iter)
{
	return rwv_pat_word(qp, iter, 1);
}
