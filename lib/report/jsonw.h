/* SPDX-License-Identifier: BSD-3-Clause */
/* A streaming JSON writer: values go out as they are made, so a document of
 * any size costs one buffer, not a tree (the per-QP report has a member per
 * flow, hundreds of thousands of them).
 *
 * The bytes are those jansson's json_dumpf() writes for the same values in
 * the same order, with JSON_INDENT(indent) | JSON_REAL_PRECISION(prec), or
 * JSON_COMPACT when indent is 0: the report's document kept its exact form
 * when it stopped being a jansson tree. That means jansson's choices:
 * "key": value with one space, an empty container as {} or [], reals as
 * "%.<prec>g" with ".0" added when that looks like an integer and the
 * exponent's '+' and leading zeros dropped (1e-05 -> 1e-5), \uXXXX in upper
 * case for control characters. Strings are copied as given otherwise: the
 * caller makes them valid UTF-8.
 *
 * print_json.c's writer (jw_value) is the other half of the same idea: it
 * walks a jansson tree, compact, because the per-packet objects are kept
 * and updated in place; this one needs no tree at all. Both format with
 * fmt.h; their string escapes differ only in the case of \u00xx digits.
 *
 * Header-only (static inline) so that every program that links the capture
 * sources picks it up with fmt.h, without another object to list. Errors
 * stick: after a failed write nothing more is written and jw_end() reports
 * it. */
#ifndef ROCEWIRE_CAP_JSONW_H
#define ROCEWIRE_CAP_JSONW_H

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"

#define JW_DEPTH 16
#define JW_BUF 65536
/* Room asked for one member: separator, indentation, key and a value that
 * is not a long string (those are written in pieces). */
#define JW_ITEM 512

struct jw {
	FILE *f;
	int err;                /* errno of the first failed write, 0 */
	unsigned indent, prec;
	unsigned depth;         /* containers open */
	uint8_t has[JW_DEPTH];  /* the container at that depth has a member */
	size_t n;               /* bytes in buf */
	char buf[JW_BUF];
};

static inline void jw_init(struct jw *w, FILE *f, unsigned indent, unsigned prec)
{
	w->f = f;
	w->err = 0;
	w->indent = indent > 8 ? 8 : indent;
	w->prec = prec ? prec : 17; /* jansson's default */
	w->depth = 0;
	w->n = 0;
}

static inline void jw_flush(struct jw *w)
{
	if (w->n && !w->err && fwrite(w->buf, 1, w->n, w->f) != w->n)
		w->err = errno ? errno : EIO;
	w->n = 0;
}

/* Where `need` (at most JW_BUF) bytes may be written; jw__done() says how
 * many were. */
static inline char *jw__room(struct jw *w, size_t need)
{
	if (JW_BUF - w->n < need)
		jw_flush(w);
	return w->buf + w->n;
}

static inline void jw__done(struct jw *w, char *e)
{
	w->n = (size_t)(e - w->buf);
}

static inline char *jw__newline(const struct jw *w, char *o, unsigned depth)
{
	if (!w->indent)
		return o;
	*o++ = '\n';
	memset(o, ' ', (size_t)w->indent * depth);
	return o + w->indent * depth;
}

/* A string's escapes as jansson writes them (RFC 8259 7 requires these;
 * jansson names \b \f \n \r \t and writes other controls as \u00XX). */
static inline char *jw__esc(char *o, unsigned char ch)
{
	static const char named[] = "btn\0fr"; /* 0x08 .. 0x0d */
	*o++ = '\\';
	if (ch == '"' || ch == '\\') {
		*o++ = (char)ch;
	} else if (ch >= 0x08 && ch <= 0x0d && named[ch - 0x08]) {
		*o++ = named[ch - 0x08];
	} else {
		o = FMT_LIT(o, "u00");
		*o++ = "0123456789ABCDEF"[ch >> 4];
		*o++ = "0123456789ABCDEF"[ch & 0xF];
	}
	return o;
}

/* Writes s (n bytes) escaped at o, which has room for 6n. */
static inline char *jw__escaped(char *o, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch < 0x20 || ch == '"' || ch == '\\')
			o = jw__esc(o, ch);
		else
			*o++ = (char)ch;
	}
	return o;
}

/* The same, quoted (room for 6n + 2). */
static inline char *jw__string(char *o, const char *s, size_t n)
{
	*o++ = '"';
	o = jw__escaped(o, s, n);
	*o++ = '"';
	return o;
}

/* Starts a member: the comma after the previous one, the line break and
 * indentation, and the key (NULL in an array and at the top). Returns where
 * the value goes, with JW_ITEM bytes of room less the key. Keys are short
 * (ours are literals). */
static inline char *jw__member(struct jw *w, const char *key)
{
	size_t klen = key ? strlen(key) : 0;
	char *o = jw__room(w, JW_ITEM + 6 * klen);
	if (w->depth) {
		if (w->has[w->depth - 1])
			*o++ = ',';
		w->has[w->depth - 1] = 1;
		o = jw__newline(w, o, w->depth);
	}
	if (key) {
		o = jw__string(o, key, klen);
		*o++ = ':';
		if (w->indent)
			*o++ = ' ';
	}
	return o;
}

static inline void jw_open(struct jw *w, const char *key, char bracket)
{
	char *o = jw__member(w, key);
	*o++ = bracket;
	jw__done(w, o);
	if (w->depth < JW_DEPTH)
		w->has[w->depth] = 0;
	w->depth++;
}

static inline void jw_close(struct jw *w, char bracket)
{
	char *o = jw__room(w, JW_ITEM);
	w->depth--;
	if (w->depth < JW_DEPTH && w->has[w->depth])
		o = jw__newline(w, o, w->depth);
	*o++ = bracket;
	jw__done(w, o);
}

static inline void jw_obj(struct jw *w, const char *key)
{
	jw_open(w, key, '{');
}

static inline void jw_obj_end(struct jw *w)
{
	jw_close(w, '}');
}

static inline void jw_arr(struct jw *w, const char *key)
{
	jw_open(w, key, '[');
}

static inline void jw_arr_end(struct jw *w)
{
	jw_close(w, ']');
}

/* jansson's json_int_t is long long: what does not fit is written as it
 * would be, negative. */
static inline void jw_int(struct jw *w, const char *key, int64_t v)
{
	char *o = jw__member(w, key);
	if (v < 0) {
		*o++ = '-';
		o = fmt_u64(o, (uint64_t)0 - (uint64_t)v);
	} else {
		o = fmt_u64(o, (uint64_t)v);
	}
	jw__done(w, o);
}

static inline void jw_uint(struct jw *w, const char *key, uint64_t v)
{
	jw_int(w, key, (int64_t)v);
}

static inline void jw_bool(struct jw *w, const char *key, int v)
{
	char *o = jw__member(w, key);
	o = v ? FMT_LIT(o, "true") : FMT_LIT(o, "false");
	jw__done(w, o);
}

static inline void jw_null(struct jw *w, const char *key)
{
	char *o = jw__member(w, key);
	o = FMT_LIT(o, "null");
	jw__done(w, o);
}

static inline void jw_strn(struct jw *w, const char *key, const char *s, size_t n)
{
	char *o = jw__member(w, key);
	if (6 * n + 2 <= JW_ITEM) {
		jw__done(w, jw__string(o, s, n));
		return;
	}
	/* A long string (a file name) goes in pieces. Only ASCII bytes are
	 * escaped, so a piece may end inside a UTF-8 sequence. */
	*o++ = '"';
	jw__done(w, o);
	while (n) {
		size_t k = n < JW_ITEM / 8 ? n : JW_ITEM / 8;
		jw__done(w, jw__escaped(jw__room(w, 6 * k), s, k));
		s += k;
		n -= k;
	}
	o = jw__room(w, 1);
	*o++ = '"';
	jw__done(w, o);
}

static inline void jw_str(struct jw *w, const char *key, const char *s)
{
	jw_strn(w, key, s, strlen(s));
}

/* jansson's jsonp_dtostr(): "%.*g", then ".0" when there is neither a '.'
 * nor an 'e', then no '+' and no leading zero in the exponent. Writes at o
 * (room for 40 bytes). Not finite: null (jansson refuses to make such a
 * real, which would drop the key; we never make one). */
static inline char *jw__real(char *o, double v, unsigned prec)
{
	char t[40];
	if (!isfinite(v))
		return FMT_LIT(o, "null");
	int n = snprintf(t, sizeof(t), "%.*g", (int)prec, v);
	if (n <= 0 || (size_t)n >= sizeof(t))
		return FMT_LIT(o, "null");
	char *e = strchr(t, 'e');
	if (!e && !strchr(t, '.')) {
		t[n++] = '.';
		t[n++] = '0';
		t[n] = '\0';
	}
	if (e) {
		char *s = e + 1, *d = s + 1;
		if (*s == '-')
			s++;
		while (*d == '0')
			d++;
		if (d != s) {
			memmove(s, d, (size_t)(t + n - d) + 1);
			n -= (int)(d - s);
		}
	}
	return fmt_mem(o, t, (size_t)n);
}

static inline void jw_real(struct jw *w, const char *key, double v)
{
	jw__done(w, jw__real(jw__member(w, key), v, w->prec));
}

/* m / 10^scale (scale 0..9) as jw_real() writes the double
 * (double)m / 1e<scale>: without snprintf when m has at most `prec`
 * digits, since that double then rounds back to the exact decimal at prec
 * significant digits (its error is below 2^-53 relative, far inside half a
 * unit of the last digit for prec <= 15). Times in ns become us (scale 3)
 * or s (scale 9). */
static inline void jw_dec(struct jw *w, const char *key, uint64_t m, unsigned scale)
{
	static const double p10[10] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
	char *o = jw__member(w, key);
	char d[20];
	unsigned nd = (unsigned)(fmt_u64(d, m) - d);
	if (scale > 9 || nd > w->prec || w->prec > 15) {
		jw__done(w, jw__real(o, (double)m / p10[scale > 9 ? 9 : scale], w->prec));
		return;
	}
	if (m == 0) {
		jw__done(w, FMT_LIT(o, "0.0"));
		return;
	}
	unsigned sd = nd; /* significant digits: without the trailing zeros */
	while (d[sd - 1] == '0')
		sd--;
	int x = (int)nd - 1 - (int)scale; /* decimal exponent of the first digit */
	if (x < -4 || x >= (int)w->prec) {
		/* %g's scientific style: d.ddde-X */
		*o++ = d[0];
		if (sd > 1) {
			*o++ = '.';
			o = fmt_mem(o, d + 1, sd - 1);
		}
		*o++ = 'e';
		if (x < 0)
			*o++ = '-';
		o = fmt_u32(o, (uint32_t)(x < 0 ? -x : x));
	} else if (x < 0) {
		/* 0.000ddd */
		o = FMT_LIT(o, "0.");
		for (int i = -1; i > x; i--)
			*o++ = '0';
		o = fmt_mem(o, d, sd);
	} else {
		/* ddd.ddd, or ddd.0 */
		unsigned ni = (unsigned)x + 1;
		o = fmt_mem(o, d, ni);
		*o++ = '.';
		if (sd > ni)
			o = fmt_mem(o, d + ni, sd - ni);
		else
			*o++ = '0';
	}
	jw__done(w, o);
}

/* A character outside any value (the newline after a document). */
static inline void jw_putc(struct jw *w, char c)
{
	char *o = jw__room(w, 1);
	*o++ = c;
	jw__done(w, o);
}

/* Flushes what is left; 0, or -1 with errno when a write failed. */
static inline int jw_end(struct jw *w)
{
	jw_flush(w);
	if (w->err) {
		errno = w->err;
		return -1;
	}
	return 0;
}

#endif
