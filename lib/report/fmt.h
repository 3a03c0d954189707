/* SPDX-License-Identifier: BSD-3-Clause */
/* Hand-rolled text formatting for the per-packet path.
 *
 * Each function writes at p and returns the position after what it wrote;
 * the caller has reserved the room (cap_out_begin). No terminating NUL. These
 * replace printf, whose format parsing and locale handling cost more per
 * packet than decoding the packet does. */
#ifndef ROCEWIRE_CAP_FMT_H
#define ROCEWIRE_CAP_FMT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

extern const char cap_digits2[200]; /* "00" "01" ... "99" */
extern const char cap_hexdig[16];

/* Short copies of a length known only at run time (names, addresses): GCC
 * inlines memcpy() there as `rep movsq`, whose start-up cost is most of a
 * line's formatting time; 8-byte moves with an overlapping tail are not. */
static inline char *fmt_mem_short(char *p, const char *s, size_t n) /* n < 8 */
{
	if (n >= 4) {
		memcpy(p, s, 4);
		memcpy(p + n - 4, s + n - 4, 4);
	} else {
		for (size_t i = 0; i < n; i++)
			p[i] = s[i];
	}
	return p + n;
}

static inline char *fmt_mem_var(char *p, const char *s, size_t n)
{
	if (n < 8)
		return fmt_mem_short(p, s, n);
	for (size_t i = 0; i + 8 <= n; i += 8)
		memcpy(p + i, s + i, 8);
	memcpy(p + n - 8, s + n - 8, 8);
	return p + n;
}

/* The digits of a number (1 to 20 bytes): fmt_mem_var's moves with a
 * bound GCC can see (its loop, for any n, makes -O3 warn of writes past
 * small buffers that never happen). */
static inline char *fmt_digits(char *p, const char *s, size_t n)
{
	if (n < 8)
		return fmt_mem_short(p, s, n);
	memcpy(p, s, 8);
	if (n > 16)
		memcpy(p + 8, s + 8, 8);
	memcpy(p + n - 8, s + n - 8, 8);
	return p + n;
}

static inline char *fmt_mem(char *p, const void *s, size_t n)
{
	if (!__builtin_constant_p(n))
		return fmt_mem_var(p, s, n);
	memcpy(p, s, n);
	return p + n;
}

/* A string literal: its length is known at compile time. */
#define FMT_LIT(p, s) fmt_mem((p), "" s, sizeof(s) - 1)

static inline char *fmt_str(char *p, const char *s)
{
	return fmt_mem(p, s, strlen(s));
}

static inline char *fmt_chr(char *p, char c)
{
	*p = c;
	return p + 1;
}

static inline char *fmt_u32(char *p, uint32_t v)
{
	char tmp[10];
	char *e = tmp + sizeof(tmp), *q = e;

	while (v >= 100) {
		uint32_t r = v % 100;
		v /= 100;
		q -= 2;
		memcpy(q, cap_digits2 + 2 * r, 2);
	}
	if (v >= 10) {
		q -= 2;
		memcpy(q, cap_digits2 + 2 * v, 2);
	} else {
		*--q = (char)('0' + v);
	}
	return fmt_digits(p, q, (size_t)(e - q));
}

static inline char *fmt_u64(char *p, uint64_t v)
{
	char tmp[20];
	char *e = tmp + sizeof(tmp), *q = e;

	if (v <= UINT32_MAX)
		return fmt_u32(p, (uint32_t)v);
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		q -= 2;
		memcpy(q, cap_digits2 + 2 * r, 2);
	}
	if (v >= 10) {
		q -= 2;
		memcpy(q, cap_digits2 + 2 * v, 2);
	} else {
		*--q = (char)('0' + v);
	}
	return fmt_digits(p, q, (size_t)(e - q));
}

/* Exactly `width` decimal digits, zero-padded (nanoseconds: width 9). */
static inline char *fmt_u32w(char *p, uint32_t v, unsigned width)
{
	for (unsigned i = width; i > 0; i--) {
		p[i - 1] = (char)('0' + v % 10);
		v /= 10;
	}
	return p + width;
}

/* Lower-case hex of exactly `width` digits, no prefix. */
static inline char *fmt_hexw(char *p, uint64_t v, unsigned width)
{
	for (unsigned i = width; i > 0; i--) {
		p[i - 1] = cap_hexdig[v & 0xF];
		v >>= 4;
	}
	return p + width;
}

/* "0x" and at least `min` hex digits (more when v needs them). */
static inline char *fmt_hex(char *p, uint64_t v, unsigned min)
{
	unsigned n = 1;

	while (n < 16 && (v >> (4 * n)) != 0)
		n++;
	if (n < min)
		n = min;
	*p++ = '0';
	*p++ = 'x';
	return fmt_hexw(p, v, n);
}

/* Tables filled by cap_fmt_init(): "0." .. "255." as 4 bytes each and how
 * many of them to keep. */
extern char cap_octet_dot[256][4];
extern uint8_t cap_octet_len[256];
void cap_fmt_init(void);

/* IPv4 address given in host order. Each octet is a 4-byte copy from a
 * table; the dot after the last one is dropped. */
static inline char *fmt_ipv4(char *p, uint32_t a)
{
	for (int shift = 24; shift >= 0; shift -= 8) {
		unsigned o = (a >> shift) & 0xFF;
		memcpy(p, cap_octet_dot[o], 4);
		p += cap_octet_len[o];
	}
	return p - 1;
}

/* 1 or 0 as text, for single-bit fields. */
static inline char *fmt_bit(char *p, unsigned v)
{
	*p = v ? '1' : '0';
	return p + 1;
}

/* RFC 5952 text form of an IPv6 address or GID (longest zero run as "::"). */
char *fmt_ipv6(char *p, const uint8_t a[16]);
/* aa:bb:cc:dd:ee:ff */
char *fmt_mac(char *p, const uint8_t m[6]);
/* Colon-separated hex bytes (SLL addresses, the CNP's reserved bytes).
 * It stores one byte past the end it returns: room for 3n bytes is needed. */
char *fmt_hexbytes(char *p, const uint8_t *b, size_t n);

/* Text from outside the program (file names, argv, strings read from a
 * capture) made safe for a terminal, as tcpdump escapes what it prints: a
 * control byte (C0, DEL, and C1 written as UTF-8 U+0080-U+009F) or a byte
 * that is not part of valid UTF-8 becomes \xHH, and a backslash \\, so a
 * name cannot move the cursor, set the window title or forge a line, and
 * bash's $'...' turns the text back into the original bytes. Printable
 * UTF-8 is kept. At most cap-1 bytes and a NUL are written (an escape is
 * never cut in half); returns buf. CAP_ESC_SIZE(n) holds any n bytes. */
#define CAP_ESC_SIZE(n) (4 * (n) + 1)
char *cap_esc(char *buf, size_t cap, const char *s);

/* The names of ECN codepoints, ethertypes and IP protocols are proto's
 * (rocewire/fields.h: rw_ecn_name, rw_ethertype_name, rw_ipproto_name), the
 * ones the field tables print. */

/* Local wall-clock time cache: localtime_r() is called only when a timestamp
 * leaves the 15-minute window it was computed for (UTC offsets and DST
 * switches fall on quarter hours). */
struct cap_clock {
	int64_t base;           /* window start, seconds since the epoch */
	long gmtoff;
	int valid;
};

/* "HH:MM:SS.nnnnnnnnn" in local time (TZ honoured). */
char *cap_fmt_time_local(struct cap_clock *c, char *p, int64_t sec, uint32_t nsec);
/* "1700000000.123456789" */
char *cap_fmt_time_epoch(char *p, int64_t sec, uint32_t nsec);

#endif
