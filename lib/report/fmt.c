/* SPDX-License-Identifier: BSD-3-Clause */
/* Text formatting helpers that are too large to inline, and timestamps. */
#include <time.h>

#include <rocewire.h>

#include "fmt.h"

const char cap_digits2[200] = "00010203040506070809"
			      "10111213141516171819"
			      "20212223242526272829"
			      "30313233343536373839"
			      "40414243444546474849"
			      "50515253545556575859"
			      "60616263646566676869"
			      "70717273747576777879"
			      "80818283848586878889"
			      "90919293949596979899";

const char cap_hexdig[16] = "0123456789abcdef";

char cap_octet_dot[256][4];
/* "hh:" for every byte: MACs and byte fields are written 4 bytes at a time. */
static char octet_hex_colon[256][4];
uint8_t cap_octet_len[256];

void cap_fmt_init(void)
{
	for (unsigned i = 0; i < 256; i++) {
		char *e = fmt_u32(cap_octet_dot[i], i);
		*e++ = '.';
		cap_octet_len[i] = (uint8_t)(e - cap_octet_dot[i]);
		octet_hex_colon[i][0] = cap_hexdig[i >> 4];
		octet_hex_colon[i][1] = cap_hexdig[i & 0xF];
		octet_hex_colon[i][2] = ':';
	}
}

char *fmt_ipv6(char *p, const uint8_t a[16])
{
	uint16_t w[8];
	int best = -1, best_len = 0;

	for (int i = 0; i < 8; i++)
		w[i] = (uint16_t)(a[2 * i] << 8 | a[2 * i + 1]);
	/* RFC 5952 4.2: the longest run of two or more zero groups, the first
	 * one when runs tie, becomes "::". */
	for (int i = 0; i < 8;) {
		int j = i;
		while (j < 8 && w[j] == 0)
			j++;
		if (j - i > best_len && j - i >= 2) {
			best = i;
			best_len = j - i;
		}
		i = j > i ? j : i + 1;
	}
	/* RFC 5952 5: IPv4-mapped addresses keep the dotted quad. */
	if (best == 0 && best_len == 5 && w[5] == 0xFFFF) {
		p = FMT_LIT(p, "::ffff:");
		return fmt_ipv4(p, (uint32_t)a[12] << 24 | (uint32_t)a[13] << 16 |
					   (uint32_t)a[14] << 8 | a[15]);
	}
	for (int i = 0; i < 8; i++) {
		if (i == best) {
			p = FMT_LIT(p, "::");
			i += best_len - 1;
			continue;
		}
		if (i > 0 && i != best + best_len)
			*p++ = ':';
		unsigned n = w[i] >= 0x1000 ? 4 : w[i] >= 0x100 ? 3 : w[i] >= 0x10 ? 2 : 1;
		p = fmt_hexw(p, w[i], n);
	}
	return p;
}

char *fmt_mac(char *p, const uint8_t m[6])
{
	return fmt_hexbytes(p, m, 6);
}

char *fmt_hexbytes(char *p, const uint8_t *b, size_t n)
{
	if (n == 0)
		return p;
	/* Each byte stores 4 (its "hh:" and a byte the next one overwrites);
	 * the last ':' is taken back. The caller's buffer has room for the
	 * fourth byte, as for cap_octet_dot's. */
	for (size_t i = 0; i < n; i++, p += 3)
		memcpy(p, octet_hex_colon[b[i]], 4);
	return p - 1;
}

/* Length of the UTF-8 sequence at s when it is valid and prints (not a C1
 * control), else 0. Stops at a NUL: it is never a continuation byte. */
static size_t utf8_printable(const unsigned char *s)
{
	unsigned c = s[0];
	size_t n = c >= 0xC2 && c <= 0xDF   ? 2
		   : c >= 0xE0 && c <= 0xEF ? 3
		   : c >= 0xF0 && c <= 0xF4 ? 4
					    : 0;

	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	/* RFC 3629 4: overlong forms, surrogates, above U+10FFFF; then C1,
	 * which terminals may act on as they do on ESC. */
	if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] >= 0xA0) ||
	    (c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] >= 0x90) || (c == 0xC2 && s[1] < 0xA0))
		return 0;
	return n;
}

char *cap_esc(char *buf, size_t cap, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t o = 0;

	if (!cap)
		return buf;
	while (*u) {
		size_t n = *u >= 0x80 ? utf8_printable(u) : 1;
		char esc[4];
		const char *from = (const char *)u;
		if (n == 0 || *u < 0x20 || *u == 0x7F) {
			esc[0] = '\\';
			esc[1] = 'x';
			esc[2] = cap_hexdig[*u >> 4];
			esc[3] = cap_hexdig[*u & 0xF];
			from = esc;
			n = 4;
			u++;
		} else if (*u == '\\') {
			esc[0] = esc[1] = '\\';
			from = esc;
			n = 2;
			u++;
		} else {
			u += n;
		}
		if (o + n >= cap)
			break;
		memcpy(buf + o, from, n);
		o += n;
	}
	buf[o] = '\0';
	return buf;
}

/* Floor modulo: 0 <= result < m for any sec, without overflow. */
static uint32_t mod_floor(int64_t sec, uint32_t m)
{
	int64_t r = sec % (int64_t)m;
	return (uint32_t)(r < 0 ? r + (int64_t)m : r);
}

/* Any int64 second and any nanosecond count, without signed overflow:
 * sources give 0 <= nsec < 10^9, but a clock or a file may not. */
char *cap_fmt_time_local(struct cap_clock *c, char *p, int64_t sec, uint32_t nsec)
{
	if (nsec >= 1000000000u && sec <= INT64_MAX - nsec / 1000000000u) {
		sec += nsec / 1000000000u;
		nsec %= 1000000000u;
	}
	nsec %= 1000000000u;
	/* The window is [base, base + 900): compared as an unsigned distance,
	 * which no second overflows. */
	if (!c->valid || (uint64_t)sec - (uint64_t)c->base >= 900u) {
		time_t t = (time_t)sec;
		struct tm tm;

		if (localtime_r(&t, &tm) == NULL)
			tm.tm_gmtoff = 0; /* beyond the calendar: UTC */
		c->gmtoff = tm.tm_gmtoff;
		c->base = (int64_t)((uint64_t)sec - mod_floor(sec, 900));
		c->valid = 1;
	}
	uint32_t s = (mod_floor(sec, 86400) + mod_floor(c->gmtoff, 86400)) % 86400;
	memcpy(p, cap_digits2 + 2 * (s / 3600), 2);
	p[2] = ':';
	memcpy(p + 3, cap_digits2 + 2 * (s / 60 % 60), 2);
	p[5] = ':';
	memcpy(p + 6, cap_digits2 + 2 * (s % 60), 2);
	p[8] = '.';
	return fmt_u32w(p + 9, nsec, 9);
}

char *cap_fmt_time_epoch(char *p, int64_t sec, uint32_t nsec)
{
	if (nsec >= 1000000000u && sec <= INT64_MAX - nsec / 1000000000u) {
		sec += nsec / 1000000000u;
		nsec %= 1000000000u;
	}
	nsec %= 1000000000u;
	if (sec < 0) {
		/* pcap timestamps are unsigned; a negative one comes only from
		 * a live clock set before 1970. Keep the text honest. The
		 * magnitude in unsigned arithmetic: -INT64_MIN does not fit. */
		uint64_t whole = 0 - (uint64_t)sec;
		if (nsec) {
			whole -= 1;
			nsec = 1000000000u - nsec;
		}
		*p++ = '-';
		p = fmt_u64(p, whole);
	} else {
		p = fmt_u64(p, (uint64_t)sec);
	}
	*p++ = '.';
	return fmt_u32w(p, nsec, 9);
}
