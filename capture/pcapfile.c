/* SPDX-License-Identifier: BSD-3-Clause */
/* See pcapfile.h. Formats: pcap, https://www.tcpdump.org/manpages/pcap-savefile.5.html
 * and draft-ietf-opsawg-pcap; pcapng, draft-ietf-opsawg-pcapng (sections 4.1
 * SHB, 4.2 IDB, 4.3 EPB, 3.1 block layout).
 *
 * What libpcap 1.10 accepts and refuses was read from its sf-pcap.c and
 * sf-pcapng.c: every check it makes on a record we read is either made here
 * with the same outcome (a file cut short) or answered CAP_PF_OTHER so that
 * libpcap makes it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcapfile.h"
#include "readring.h"
#include "rocewire/link.h"
#include "rocewire/wire.h"

#define PCAP_MAGIC_USEC 0xA1B2C3D4u
#define PCAP_MAGIC_NSEC 0xA1B23C4Du
#define PCAP_FILE_HLEN 24u
#define PCAP_REC_HLEN 16u

#define PCAPNG_SHB 0x0A0D0D0Au
#define PCAPNG_IDB 1u
#define PCAPNG_PB 2u  /* obsolete Packet Block */
#define PCAPNG_SPB 3u
#define PCAPNG_EPB 6u
#define PCAPNG_BOM 0x1A2B3C4Du
#define PCAPNG_SHB_MAX (1u << 20)      /* libpcap: BT_SHB_INSANE_MAX */
#define PCAPNG_BLOCK_MAX (16u << 20)   /* libpcap: INITIAL_MAX_BLOCKSIZE */
#define PCAPNG_EPB_FIXED 20u

/* libpcap's MAXIMUM_SNAPLEN, the largest record it reads for our link types
 * without looking further. */
#define MAX_SNAPLEN 262144u

/* 2^64 ns after 1970 is 2554-07-21T23:34:33.709551616Z. */
#define MAX_SEC 18446744073LL
#define MAX_NSEC_AT_MAX_SEC 709551615u

static inline const uint8_t *at(const struct cap_pcapfile *f, uint64_t off)
{
	return cap_readring_at(f->rr, off);
}

/* Bytes [.., end) of the file in the ring (fewer when the file ends
 * before). The caller keeps room for CAP_PF_MAX_SPAN bytes past pos. */
static inline void need(struct cap_pcapfile *f, uint64_t end)
{
	if (end > f->rr->filled)
		(void)cap_readring_fill(f->rr, end, f->keep);
}

static inline uint64_t left(const struct cap_pcapfile *f)
{
	return f->rr->file_size - f->pos;
}

static inline __attribute__((always_inline)) uint16_t get16(const struct cap_pcapfile *f, const uint8_t *p)
{
	return f->big_endian ? rw_get_be16(p) : (uint16_t)(p[0] | p[1] << 8);
}

static inline __attribute__((always_inline)) uint32_t get32(const struct cap_pcapfile *f, const uint8_t *p)
{
	return f->big_endian ? rw_get_be32(p) : rw_get_le32(p);
}

static uint64_t get64(const struct cap_pcapfile *f, const uint8_t *p)
{
	return f->big_endian ? rw_get_be64(p)
			     : (uint64_t)rw_get_le32(p + 4) << 32 | rw_get_le32(p);
}

static int linktype_ours(uint32_t lt)
{
	return lt == RW_LINKTYPE_ETHERNET || lt == RW_LINKTYPE_LINUX_SLL ||
	       lt == RW_LINKTYPE_LINUX_SLL2 || lt == RW_LINKTYPE_ERF ||
	       lt == RW_LINKTYPE_INFINIBAND;
}

/* libpcap takes a record without further checks when it is no longer than
 * MAX_SNAPLEN and than the snapshot length (0 and values above MAX_SNAPLEN
 * stand for MAX_SNAPLEN or more, whichever libpcap version reads them). */
static int caplen_plain(const struct cap_pcapfile *f, uint32_t caplen)
{
	return caplen <= MAX_SNAPLEN && (f->snaplen - 1u >= MAX_SNAPLEN || caplen <= f->snaplen);
}

static int cut(struct cap_pcapfile *f, uint64_t off, const char *place, size_t want, size_t got)
{
	snprintf(f->err, sizeof(f->err), "file ends inside %s: %zu bytes expected, %zu present",
		 place, want, got);
	f->err_offset = off;
	f->err_cut = 1;
	return CAP_PF_ERROR;
}

/* ---- pcap ---------------------------------------------------------------- */

static int pcap_open(struct cap_pcapfile *f)
{
	need(f, PCAP_FILE_HLEN);
	if (f->rr->file_size < PCAP_FILE_HLEN)
		return 0;
	const uint8_t *b = at(f, 0);
	uint32_t le = rw_get_le32(b), be = rw_get_be32(b);

	if (le == PCAP_MAGIC_USEC || le == PCAP_MAGIC_NSEC)
		f->big_endian = 0;
	else if (be == PCAP_MAGIC_USEC || be == PCAP_MAGIC_NSEC)
		f->big_endian = 1;
	else
		return 0;
	f->nsec = get32(f, b) == PCAP_MAGIC_NSEC;
	/* 2.4 only: libpcap swaps the two lengths of older versions. */
	if (get16(f, b + 4) != 2 || get16(f, b + 6) != 4)
		return 0;
	f->snaplen = get32(f, b + 16);
	uint32_t lt = get32(f, b + 20) & 0x03FFFFFFu; /* the upper bits hold FCS details */
	if (!linktype_ours(lt))
		return 0;
	f->linktype = (int)lt;
	f->pos = PCAP_FILE_HLEN;
	return 1;
}

static int pcap_next(struct cap_pcapfile *f, struct cap_pf_record *r)
{
	need(f, f->pos + PCAP_REC_HLEN);
	const uint8_t *h = at(f, f->pos);
	uint64_t n = left(f);

	if (n == 0)
		return CAP_PF_END;
	if (n < PCAP_REC_HLEN)
		return cut(f, f->pos, "the record header", PCAP_REC_HLEN, n);
	uint32_t caplen = get32(f, h + 8);
	if (!caplen_plain(f, caplen) || caplen > CAP_PF_MAX_SPAN - PCAP_REC_HLEN)
		return CAP_PF_OTHER;
	need(f, f->pos + PCAP_REC_HLEN + caplen);
	n = left(f);
	if (caplen > n - PCAP_REC_HLEN)
		return cut(f, f->pos, "the packet data", caplen, n - PCAP_REC_HLEN);
	/* A fraction of a second or more in the fraction field is carried
	 * into the seconds, as its value says. */
	uint64_t frac = get32(f, h + 4);
	if (!f->nsec)
		frac *= 1000u;
	r->offset = f->pos;
	r->ts_sec = (int64_t)get32(f, h) + (int64_t)(frac / 1000000000u);
	r->ts_nsec = (uint32_t)(frac % 1000000000u);
	r->caplen = caplen;
	r->len = get32(f, h + 12);
	r->data = h + PCAP_REC_HLEN;
	f->pos += PCAP_REC_HLEN + caplen;
	return CAP_PF_RECORD;
}

void cap_pcapfile_ts_bytes(const struct cap_pcapfile *f, uint64_t ns, uint8_t out[8])
{
	uint32_t sec = (uint32_t)(ns / 1000000000u);
	uint32_t frac = (uint32_t)(ns % 1000000000u);
	if (!f->nsec)
		frac /= 1000u;
	if (f->big_endian) {
		rw_put_be32(out, sec);
		rw_put_be32(out + 4, frac);
	} else {
		rw_put_le32(out, sec);
		rw_put_le32(out + 4, frac);
	}
}

/* ---- pcapng -------------------------------------------------------------- */

enum blk { BLK_OK, BLK_END, BLK_CUT, BLK_ODD };

/* The block at f->pos: its type, body and body length (between the length
 * fields). BLK_ODD: a length libpcap refuses, or header and trailer lengths
 * that differ. */
static enum blk block_at(struct cap_pcapfile *f, uint32_t *type, const uint8_t **body,
			 uint32_t *blen)
{
	need(f, f->pos + 8);
	const uint8_t *b = at(f, f->pos);
	uint64_t n = left(f);

	if (n == 0)
		return BLK_END;
	if (n < 8) {
		cut(f, f->pos, "a pcapng block", 8, n);
		return BLK_CUT;
	}
	uint32_t tl = get32(f, b + 4);
	/* Larger blocks than the ring takes are left to libpcap. */
	if (tl < 12 || tl % 4 || tl > PCAPNG_BLOCK_MAX || tl > CAP_PF_MAX_SPAN)
		return BLK_ODD;
	need(f, f->pos + tl);
	n = left(f);
	if (tl > n) {
		cut(f, f->pos, "a pcapng block", tl - 8, n - 8);
		return BLK_CUT;
	}
	if (get32(f, b + tl - 4) != tl)
		return BLK_ODD;
	*type = get32(f, b);
	*body = b + 8;
	*blen = tl - 12;
	return BLK_OK;
}

/* An Interface Description Block's link type, snapshot length and time
 * options (4.2: if_tsresol 9, if_tsoffset 14); 0 when libpcap would refuse
 * the block or read it differently. */
static int idb_parse(struct cap_pcapfile *f, const uint8_t *q, uint32_t rem, uint32_t *lt,
		     uint32_t *snaplen, struct cap_pf_iface *ifc)
{
	int saw_resol = 0, saw_offset = 0;

	if (rem < 8)
		return 0;
	*lt = get16(f, q);
	*snaplen = get32(f, q + 4);
	ifc->tsresol = 1000000u; /* microseconds unless said otherwise */
	ifc->tsresol_opt = 6;
	ifc->tsoffset = 0;
	q += 8;
	rem -= 8;
	while (rem) {
		if (rem < 4)
			return 0;
		uint16_t code = get16(f, q), olen = get16(f, q + 2);
		uint32_t padded = ((uint32_t)olen + 3u) & ~3u;
		q += 4;
		rem -= 4;
		if (rem < padded)
			return 0;
		if (code == 0) { /* opt_endofopt */
			if (olen != 0)
				return 0;
			break;
		}
		if (code == 9) {
			if (olen != 1 || saw_resol)
				return 0;
			saw_resol = 1;
			uint8_t v = q[0];
			ifc->tsresol_opt = v;
			if (v & 0x80) {
				if ((v & 0x7F) > 63)
					return 0;
				ifc->tsresol = (uint64_t)1 << (v & 0x7F);
			} else {
				if (v > 19)
					return 0;
				ifc->tsresol = 1;
				for (unsigned i = 0; i < v; i++)
					ifc->tsresol *= 10u;
			}
		} else if (code == 14) {
			if (olen != 8 || saw_offset)
				return 0;
			saw_offset = 1;
			ifc->tsoffset = (int64_t)get64(f, q);
		}
		q += padded;
		rem -= padded;
	}
	return 1;
}

static int add_iface(struct cap_pcapfile *f, const struct cap_pf_iface *ifc)
{
	if (f->n_ifs == f->cap_ifs) {
		uint32_t n = f->cap_ifs ? f->cap_ifs * 2 : 4;
		struct cap_pf_iface *a = realloc(f->ifs, (size_t)n * sizeof(*a));
		if (!a)
			return -1;
		f->ifs = a;
		f->cap_ifs = n;
	}
	f->ifs[f->n_ifs++] = *ifc;
	return 0;
}

static int pcapng_open(struct cap_pcapfile *f)
{
	uint32_t type, blen, lt, snaplen;
	const uint8_t *body;
	struct cap_pf_iface ifc;

	need(f, 28);
	const uint8_t *b = at(f, 0);
	if (f->rr->file_size < 28 || rw_get_le32(b) != PCAPNG_SHB)
		return 0;
	if (rw_get_le32(b + 8) == PCAPNG_BOM)
		f->big_endian = 0;
	else if (rw_get_be32(b + 8) == PCAPNG_BOM)
		f->big_endian = 1;
	else
		return 0;
	uint32_t tl = get32(f, b + 4);
	if (tl < 28 || tl > PCAPNG_SHB_MAX || tl % 4)
		return 0;
	need(f, tl);
	if (tl > f->rr->file_size || get32(f, b + tl - 4) != tl)
		return 0;
	if (get16(f, b + 12) != 1 || get16(f, b + 14) != 0)
		return 0;
	f->pcapng = 1;
	f->pos = tl;
	/* libpcap reads up to the first IDB when it opens the file. */
	for (;;) {
		f->keep = f->pos; /* nothing before is needed any more */
		if (block_at(f, &type, &body, &blen) != BLK_OK)
			return 0;
		if (type == PCAPNG_IDB)
			break;
		if (type == PCAPNG_EPB || type == PCAPNG_SPB || type == PCAPNG_PB || type == PCAPNG_SHB)
			return 0;
		f->pos += blen + 12;
	}
	if (!idb_parse(f, body, blen, &lt, &snaplen, &ifc) || !linktype_ours(lt))
		return 0;
	f->linktype = (int)lt;
	f->snaplen = snaplen;
	if (add_iface(f, &ifc) != 0)
		return -1;
	f->pos += blen + 12;
	return 1;
}

static void i128_text(char *buf, size_t cap, __int128 v)
{
	char tmp[48];
	size_t n = 0;
	unsigned __int128 u = v < 0 ? -(unsigned __int128)v : (unsigned __int128)v;
	do {
		tmp[n++] = (char)('0' + (int)(u % 10));
		u /= 10;
	} while (u);
	size_t o = 0;
	if (v < 0 && o + 1 < cap)
		buf[o++] = '-';
	while (n && o + 1 < cap)
		buf[o++] = tmp[--n];
	buf[o] = '\0';
}

int cap_pf_time(uint64_t t, uint64_t tsresol, int64_t tsoffset, int64_t *sec, uint32_t *nsec)
{
	uint64_t frac = t % tsresol;
	__int128 s = (__int128)(t / tsresol) + tsoffset;
	uint32_t ns = (uint32_t)((unsigned __int128)frac * 1000000000u / tsresol);

	if (s < 0 || s > MAX_SEC || (s == MAX_SEC && ns > MAX_NSEC_AT_MAX_SEC))
		return -1;
	*sec = (int64_t)s;
	*nsec = ns;
	return 0;
}

static int time_error(struct cap_pcapfile *f, uint64_t t, const struct cap_pf_iface *ifc)
{
	char secs[48], resol[16];
	i128_text(secs, sizeof(secs), (__int128)(t / ifc->tsresol) + ifc->tsoffset);
	if (ifc->tsresol_opt & 0x80)
		snprintf(resol, sizeof(resol), "2^-%u", ifc->tsresol_opt & 0x7F);
	else if (ifc->tsresol_opt)
		snprintf(resol, sizeof(resol), "10^-%u", ifc->tsresol_opt);
	else
		snprintf(resol, sizeof(resol), "1");
	snprintf(f->err, sizeof(f->err),
		 "timestamp out of range: %s s since 1970-01-01 UTC (%llu units of %s s, "
		 "if_tsoffset %lld s); expected a time from 1970-01-01 to 2554-07-21 UTC",
		 secs, (unsigned long long)t, resol, (long long)ifc->tsoffset);
	f->err_cut = 0;
	return CAP_PF_ERROR;
}

static int pcapng_next(struct cap_pcapfile *f, struct cap_pf_record *r)
{
	uint32_t type, blen;
	const uint8_t *body;

	for (;;) {
		/* Blocks skipped here are not kept, the records before them are:
		 * the next block must fit in the ring behind those. */
		if (f->pos + CAP_PF_MAX_SPAN > f->keep + f->rr->size)
			return CAP_PF_AGAIN;
		switch (block_at(f, &type, &body, &blen)) {
		case BLK_END:
			return CAP_PF_END;
		case BLK_CUT:
			return CAP_PF_ERROR;
		case BLK_ODD:
			return CAP_PF_OTHER;
		case BLK_OK:
			break;
		}
		if (type == PCAPNG_EPB)
			break;
		if (type == PCAPNG_IDB) {
			uint32_t lt, snaplen;
			struct cap_pf_iface ifc;
			/* libpcap reads one link type per file and refuses
			 * interfaces of another type or snapshot length. */
			if (!idb_parse(f, body, blen, &lt, &snaplen, &ifc) ||
			    lt != (uint32_t)f->linktype || snaplen != f->snaplen)
				return CAP_PF_OTHER;
			if (add_iface(f, &ifc) != 0)
				return CAP_PF_OTHER;
		} else if (type == PCAPNG_SPB || type == PCAPNG_PB || type == PCAPNG_SHB) {
			return CAP_PF_OTHER;
		}
		f->pos += blen + 12;
	}

	/* Enhanced Packet Block (4.3): interface, timestamp (high, low),
	 * captured and original lengths, data padded to 32 bits, options. */
	if (blen < PCAPNG_EPB_FIXED)
		return CAP_PF_OTHER;
	uint32_t ifid = get32(f, body), caplen = get32(f, body + 12);
	if (ifid >= f->n_ifs || !caplen_plain(f, caplen) || caplen > blen - PCAPNG_EPB_FIXED)
		return CAP_PF_OTHER;
	const struct cap_pf_iface *ifc = &f->ifs[ifid];
	uint64_t t = (uint64_t)get32(f, body + 4) << 32 | get32(f, body + 8);
	if (cap_pf_time(t, ifc->tsresol, ifc->tsoffset, &r->ts_sec, &r->ts_nsec) != 0) {
		f->err_offset = f->pos;
		return time_error(f, t, ifc);
	}
	r->offset = f->pos;
	r->caplen = caplen;
	r->len = get32(f, body + 16);
	r->data = body + PCAPNG_EPB_FIXED;
	f->pos += blen + 12;
	return CAP_PF_RECORD;
}

/* ---- both ---------------------------------------------------------------- */

int cap_pcapfile_open(struct cap_pcapfile *f, struct cap_readring *rr)
{
	memset(f, 0, sizeof(*f));
	f->rr = rr;
	need(f, 4);
	if (rr->file_size < 4)
		return 0;
	int rc = rw_get_le32(at(f, 0)) == PCAPNG_SHB ? pcapng_open(f) : pcap_open(f);
	if (rc != 1) {
		cap_pcapfile_close(f);
		f->rr = rr;
	}
	return rc;
}

int cap_pcapfile_next(struct cap_pcapfile *f, struct cap_pf_record *r)
{
	return f->pcapng ? pcapng_next(f, r) : pcap_next(f, r);
}

void cap_pcapfile_close(struct cap_pcapfile *f)
{
	free(f->ifs);
	f->ifs = NULL;
	f->n_ifs = f->cap_ifs = 0;
}
