/* SPDX-License-Identifier: BSD-3-Clause */
/* See pcapfile.h. Formats: pcap, https://www.tcpdump.org/manpages/pcap-savefile.5.html
 * and draft-ietf-opsawg-pcap; pcapng, draft-ietf-opsawg-pcapng (3.1 block
 * layout, 3.5 options, 4.1 SHB, 4.2 IDB, 4.3 EPB, 4.4 SPB, Appendix A the
 * obsolete Packet Block).
 *
 * pcap: what libpcap 1.10 accepts and refuses was read from its sf-pcap.c:
 * every check it makes on a record we read is either made here with the
 * same outcome (a file cut short) or answered CAP_PF_OTHER so that libpcap
 * makes it. pcapng: read as the draft says, and as Wireshark (the reference
 * the tests compare with) reads it; its sf-pcapng.c still decides what
 * libpcap is left to read (pcapfile.h). */
#include <stdarg.h>
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
#define PCAPNG_NRB 4u
#define PCAPNG_ISB 5u
#define PCAPNG_EPB 6u
#define PCAPNG_SJE 9u
#define PCAPNG_DSB 10u
#define PCAPNG_CB 0x00000BADu
#define PCAPNG_DCB 0x40000BADu /* custom, not to be copied */
#define PCAPNG_BOM 0x1A2B3C4Du
#define PCAPNG_SHB_MAX (1u << 20)      /* libpcap: BT_SHB_INSANE_MAX */
#define PCAPNG_BLOCK_MAX (16u << 20)   /* libpcap: INITIAL_MAX_BLOCKSIZE */
#define PCAPNG_EPB_FIXED 20u     /* and the obsolete Packet Block's */
#define PCAPNG_SPB_FIXED 4u
#define PCAPNG_SHB_MIN 28u

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
	r->linktype = f->linktype;
	r->iface = 0;
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

/* A block as draft-ietf-opsawg-pcapng 3.1 lays it out: type, total length,
 * body, the total length again. Its lengths are in its section's byte order,
 * but for a Section Header Block, whose own byte-order magic says which:
 * its type reads the same both ways. */
struct blk {
	uint32_t type;
	uint32_t len;           /* total, header and trailer included */
	const uint8_t *b;       /* its start in the ring */
	int whole;              /* all of it is in the ring (else its first 28 bytes) */
	int big_endian;         /* of its lengths */
};

/* Block types by name, for messages (4, 10.1). */
static const struct {
	uint32_t type;
	const char *name;
} block_names[] = {
	{PCAPNG_SHB, "section header"},
	{PCAPNG_IDB, "interface description"},
	{PCAPNG_PB, "obsolete packet"},
	{PCAPNG_SPB, "simple packet"},
	{PCAPNG_NRB, "name resolution"},
	{PCAPNG_ISB, "interface statistics"},
	{PCAPNG_EPB, "enhanced packet"},
	{PCAPNG_SJE, "systemd journal export"},
	{PCAPNG_DSB, "decryption secrets"},
	{PCAPNG_CB, "custom"},
	{PCAPNG_DCB, "custom"},
};

static const char *block_name(uint32_t type)
{
	for (size_t i = 0; i < sizeof(block_names) / sizeof(block_names[0]); i++)
		if (block_names[i].type == type)
			return block_names[i].name;
	return "unknown";
}

static uint16_t get16o(int be, const uint8_t *p)
{
	return be ? rw_get_be16(p) : (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32o(int be, const uint8_t *p)
{
	return be ? rw_get_be32(p) : rw_get_le32(p);
}

static int fail_at(struct cap_pcapfile *f, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A block this reader refuses: f->err says what was expected. */
static int fail_at(struct cap_pcapfile *f, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->err, sizeof(f->err), fmt, ap);
	va_end(ap);
	f->err_offset = off;
	f->err_cut = 0;
	return CAP_PF_ERROR;
}

/* The block at f->pos into *k: CAP_PF_RECORD, CAP_PF_END at the end of the
 * file, or CAP_PF_ERROR (cut, or lengths that cannot be). A block longer
 * than the ring holds is not read: its trailer is checked with a read of
 * its own, and only its first bytes are in the ring. */
static int block_at(struct cap_pcapfile *f, struct blk *k)
{
	need(f, f->pos + PCAPNG_SHB_MIN);
	const uint8_t *b = at(f, f->pos);
	uint64_t n = left(f);

	if (n == 0)
		return CAP_PF_END;
	if (n < 8)
		return cut(f, f->pos, "a pcapng block", 8, n);
	k->b = b;
	k->big_endian = f->big_endian;
	k->type = get32o(k->big_endian, b);
	if (rw_get_le32(b) == PCAPNG_SHB) {
		if (n < 12)
			return cut(f, f->pos, "a pcapng block", 12, n);
		if (rw_get_le32(b + 8) == PCAPNG_BOM) {
			k->big_endian = 0;
		} else if (rw_get_be32(b + 8) == PCAPNG_BOM) {
			k->big_endian = 1;
		} else {
			return fail_at(f, f->pos,
				       "damaged record: a section header block with byte-order magic "
				       "0x%08x, expected 0x1a2b3c4d in either byte order",
				       rw_get_be32(b + 8));
		}
		k->type = PCAPNG_SHB;
	}
	uint32_t tl = get32o(k->big_endian, b + 4);
	if (tl < 12 || tl % 4)
		return fail_at(f, f->pos,
			       "damaged record: a pcapng block of type 0x%08x (%s) and length %u, "
			       "expected a multiple of 4 of at least 12",
			       k->type, block_name(k->type), tl);
	if (tl > PCAPNG_BLOCK_MAX)
		return fail_at(f, f->pos,
			       "damaged record: a pcapng block of type 0x%08x (%s) and length %u, "
			       "expected at most %u (16 MiB, the most libpcap and Wireshark read)",
			       k->type, block_name(k->type), tl, PCAPNG_BLOCK_MAX);
	uint8_t tail[4];
	const uint8_t *t = tail;
	k->whole = tl <= CAP_PF_MAX_SPAN;
	if (k->whole) {
		need(f, f->pos + tl);
		n = left(f);
	}
	if (tl > n)
		return cut(f, f->pos, "a pcapng block", tl - 8, n - 8);
	if (k->whole)
		t = b + tl - 4;
	else if (cap_readring_pread(f->rr, f->pos + tl - 4, tail, 4) != 0)
		return fail_at(f, f->pos, "cannot read the end of a pcapng block of %u bytes", tl);
	if (get32o(k->big_endian, t) != tl)
		return fail_at(f, f->pos,
			       "damaged record: a pcapng block of type 0x%08x (%s) whose length is %u "
			       "at its start and %u at its end; expected the same",
			       k->type, block_name(k->type), tl, get32o(k->big_endian, t));
	k->len = tl;
	return CAP_PF_RECORD;
}

/* Past the block: a block skipped unread is not read into the ring. */
static void advance(struct cap_pcapfile *f, const struct blk *k)
{
	f->pos += k->len;
	if (!k->whole)
		cap_readring_skip(f->rr, f->pos);
}

/* A Section Header Block (4.1): a new byte order, version 1.0, and no
 * interfaces yet. libpcap and Wireshark also take 1.2, which some writers
 * wrote for 1.0. */
static int section_begin(struct cap_pcapfile *f, const struct blk *k)
{
	int be = k->big_endian;
	if (k->len < PCAPNG_SHB_MIN)
		return fail_at(f, f->pos,
			       "damaged record: a section header block of %u bytes, expected at least %u",
			       k->len, PCAPNG_SHB_MIN);
	uint16_t major = get16o(be, k->b + 12), minor = get16o(be, k->b + 14);
	if (major != 1 || (minor != 0 && minor != 2))
		return fail_at(f, f->pos,
			       "a pcapng section of version %u.%u, expected 1.0 (draft-ietf-opsawg-pcapng)",
			       major, minor);
	if (f->sections == 0)
		f->first_big_endian = be;
	else if (be != f->first_big_endian && !f->libpcap_refuses)
		f->libpcap_refuses = "its sections differ in byte order";
	f->sections++;
	f->big_endian = be;
	f->n_ifs = 0;
	return 0;
}

/* An Interface Description Block's link type, snapshot length and time
 * options (4.2: if_tsresol 9, if_tsoffset 14; others are not needed here).
 * 0, or CAP_PF_ERROR with f->err. */
static int idb_parse(struct cap_pcapfile *f, const uint8_t *q, uint32_t rem,
		     struct cap_pf_iface *ifc)
{
	int saw_resol = 0, saw_offset = 0;

	if (rem < 8)
		return fail_at(f, f->pos,
			       "damaged record: an interface description block of %u bytes, expected "
			       "at least 20",
			       rem + 12);
	ifc->linktype = get16(f, q);
	ifc->snaplen = get32(f, q + 4);
	ifc->tsresol = 1000000u; /* microseconds unless said otherwise */
	ifc->tsresol_opt = 6;
	ifc->tsoffset = 0;
	q += 8;
	rem -= 8;
	/* Options (3.5) up to opt_endofopt or the end of the block. */
	while (rem >= 4) {
		uint16_t code = get16(f, q), olen = get16(f, q + 2);
		uint32_t padded = ((uint32_t)olen + 3u) & ~3u;
		q += 4;
		rem -= 4;
		if (code == 0) /* opt_endofopt */
			break;
		if (rem < padded)
			return fail_at(f, f->pos,
				       "damaged record: an interface description block whose option %u "
				       "of %u bytes runs past the block's end (%u bytes left)",
				       code, olen, rem);
		if (code == 9) {
			if (olen != 1 || saw_resol)
				return fail_at(f, f->pos,
					       "damaged record: an interface description block with %s "
					       "if_tsresol; expected one of 1 byte",
					       saw_resol ? "a second" : "a multi-byte");
			saw_resol = 1;
			uint8_t v = q[0];
			ifc->tsresol_opt = v;
			if (v & 0x80) {
				if ((v & 0x7F) > 63)
					return fail_at(f, f->pos,
						       "damaged record: if_tsresol 2^-%u s, expected at "
						       "most 2^-63 (a 64-bit counter of seconds' fractions)",
						       v & 0x7F);
				ifc->tsresol = (uint64_t)1 << (v & 0x7F);
			} else {
				if (v > 19)
					return fail_at(f, f->pos,
						       "damaged record: if_tsresol 10^-%u s, expected at "
						       "most 10^-19 (a 64-bit counter of seconds' fractions)",
						       v);
				ifc->tsresol = 1;
				for (unsigned i = 0; i < v; i++)
					ifc->tsresol *= 10u;
			}
		} else if (code == 14) {
			if (olen != 8 || saw_offset)
				return fail_at(f, f->pos,
					       "damaged record: an interface description block with %s "
					       "if_tsoffset; expected one of 8 bytes",
					       saw_offset ? "a second" : "a wrong-sized");
			saw_offset = 1;
			ifc->tsoffset = (int64_t)get64(f, q);
		}
		q += padded;
		rem -= padded;
	}
	return 0;
}

/* Interfaces are few (one per IDB): the array grows here, never per packet.
 * 0, CAP_PF_ERROR with f->err, or -4 when out of memory. */
static int iface_add(struct cap_pcapfile *f, const struct blk *k)
{
	struct cap_pf_iface ifc;

	if (!k->whole)
		return fail_at(f, f->pos,
			       "an interface description block of %u bytes; expected at most %u",
			       k->len, (unsigned)CAP_PF_MAX_SPAN);
	if (idb_parse(f, k->b + 8, k->len - 12, &ifc) != 0)
		return CAP_PF_ERROR;
	if (!f->have_first_if) {
		f->have_first_if = 1;
		f->first_if_linktype = ifc.linktype;
		f->first_if_snaplen = ifc.snaplen;
	} else if ((ifc.linktype != f->first_if_linktype || ifc.snaplen != f->first_if_snaplen) &&
		   !f->libpcap_refuses) {
		f->libpcap_refuses = "its interfaces differ in link type or snapshot length";
	}
	if (f->n_ifs == f->cap_ifs) {
		uint32_t n = f->cap_ifs ? f->cap_ifs * 2 : 4;
		struct cap_pf_iface *a = n > f->cap_ifs ? realloc(f->ifs, (size_t)n * sizeof(*a)) : NULL;
		if (!a) {
			fail_at(f, f->pos, "out of memory for interface %u", f->n_ifs);
			return -4;
		}
		f->ifs = a;
		f->cap_ifs = n;
	}
	f->ifs[f->n_ifs++] = ifc;
	return 0;
}

static int is_packet_block(uint32_t type)
{
	return type == PCAPNG_EPB || type == PCAPNG_SPB || type == PCAPNG_PB;
}

static int pcapng_open(struct cap_pcapfile *f)
{
	struct blk k;

	need(f, PCAPNG_SHB_MIN);
	if (f->rr->file_size < PCAPNG_SHB_MIN || rw_get_le32(at(f, 0)) != PCAPNG_SHB)
		return 0;
	/* A start this reader refuses is left to libpcap, whose words for a
	 * file that is not one it reads stay the ones users know. */
	if (block_at(f, &k) != CAP_PF_RECORD || k.len > PCAPNG_SHB_MAX || section_begin(f, &k) != 0)
		return 0;
	f->pcapng = 1;
	advance(f, &k);
	/* The interfaces described before the first packet (libpcap reads up
	 * to the first one when it opens a file). */
	for (;;) {
		f->keep = f->pos; /* nothing before is needed any more */
		int rc = block_at(f, &k);
		if (rc == CAP_PF_END)
			break;
		if (rc != CAP_PF_RECORD)
			return 0;
		if (is_packet_block(k.type) || k.type == PCAPNG_SHB)
			break;
		if (k.type == PCAPNG_IDB && (rc = iface_add(f, &k)) != 0)
			return rc == -4 ? -1 : 0;
		advance(f, &k);
	}
	f->err[0] = '\0';
	f->linktype = -1;
	for (uint32_t i = 0; i < f->n_ifs && f->linktype < 0; i++)
		if (linktype_ours(f->ifs[i].linktype))
			f->linktype = (int)f->ifs[i].linktype;
	/* None of rocewire's: libpcap names the link type, as for pcap. */
	if (f->n_ifs && f->linktype < 0)
		return 0;
	if (!f->n_ifs && !f->libpcap_refuses)
		f->libpcap_refuses = "its first section describes no interface before its first packet";
	f->snaplen = f->n_ifs ? f->ifs[0].snaplen : 0;
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

/* A packet block: Enhanced (4.3: interface, timestamp high and low,
 * captured and original lengths, data, options), obsolete Packet Block
 * (Appendix A: the same with a 16-bit interface and a 16-bit drop count)
 * or Simple (4.4: original length and data, on interface 0, no timestamp;
 * captured length the original one, or the interface's snapshot length
 * when shorter). */
static int packet_block(struct cap_pcapfile *f, const struct blk *k, struct cap_pf_record *r)
{
	const uint8_t *body = k->b + 8;
	uint32_t blen = k->len - 12, fixed, ifid, caplen, len;
	uint64_t t = 0;
	const char *what = block_name(k->type);
	const char *a = k->type == PCAPNG_SPB ? "a" : "an";

	fixed = k->type == PCAPNG_SPB ? PCAPNG_SPB_FIXED : PCAPNG_EPB_FIXED;
	if (blen < fixed)
		return fail_at(f, f->pos,
			       "damaged record: %s %s block of %u bytes, expected at least %u", a,
			       what, k->len, fixed + 12);
	if (k->type == PCAPNG_SPB) {
		ifid = 0;
		len = caplen = get32(f, body);
	} else {
		ifid = k->type == PCAPNG_PB ? get16(f, body) : get32(f, body);
		t = (uint64_t)get32(f, body + 4) << 32 | get32(f, body + 8);
		caplen = get32(f, body + 12);
		len = get32(f, body + 16);
	}
	if (ifid >= f->n_ifs) {
		if (f->n_ifs == 0)
			return fail_at(f, f->pos,
				       "damaged record: %s %s block on interface %u, but its section "
				       "describes no interface before it; expected an interface "
				       "description block first",
				       a, what, ifid);
		return fail_at(f, f->pos,
			       "damaged record: %s %s block on interface %u, but its section "
			       "describes %u before it; expected 0 to %u",
			       a, what, ifid, f->n_ifs, f->n_ifs - 1);
	}
	const struct cap_pf_iface *ifc = &f->ifs[ifid];
	if (k->type == PCAPNG_SPB && ifc->snaplen && caplen > ifc->snaplen)
		caplen = ifc->snaplen;
	if (caplen > blen - fixed)
		return fail_at(f, f->pos,
			       "damaged record: %s %s block with %u captured bytes, but room for %u; "
			       "expected the data inside the block",
			       a, what, caplen, blen - fixed);
	if (k->type == PCAPNG_SPB) {
		r->ts_sec = 0;
		r->ts_nsec = 0;
	} else if (cap_pf_time(t, ifc->tsresol, ifc->tsoffset, &r->ts_sec, &r->ts_nsec) != 0) {
		f->err_offset = f->pos;
		return time_error(f, t, ifc);
	}
	r->offset = f->pos;
	r->caplen = caplen;
	r->len = len;
	r->linktype = (int)ifc->linktype;
	r->iface = ifid;
	r->data = body + fixed;
	f->pos += k->len;
	return CAP_PF_RECORD;
}

static int pcapng_next(struct cap_pcapfile *f, struct cap_pf_record *r)
{
	struct blk k;

	for (;;) {
		/* Blocks skipped here are not kept, the records before them are:
		 * the next block must fit in the ring behind those. */
		if (f->pos + CAP_PF_MAX_SPAN > f->keep + f->rr->size)
			return CAP_PF_AGAIN;
		int rc = block_at(f, &k);
		if (rc != CAP_PF_RECORD)
			return rc;
		if (is_packet_block(k.type)) {
			if (k.whole)
				return packet_block(f, &k, r);
			/* Longer than the ring: libpcap reads it, when it can
			 * read the file. */
			if (!f->libpcap_refuses)
				return CAP_PF_OTHER;
			return fail_at(f, f->pos,
				       "a packet block of %u bytes: rocewire-cap reads blocks of up to "
				       "%u bytes and leaves longer ones to libpcap, which cannot read "
				       "this file (%s)",
				       k.len, (unsigned)CAP_PF_MAX_SPAN, f->libpcap_refuses);
		}
		/* Every other type (name resolution, statistics, secrets,
		 * journal, custom and unknown blocks): skipped by its length,
		 * as 3.1 asks of a reader. */
		rc = k.type == PCAPNG_SHB ? section_begin(f, &k)
		     : k.type == PCAPNG_IDB ? iface_add(f, &k)
					    : 0;
		if (rc != 0)
			return CAP_PF_ERROR;
		advance(f, &k);
	}
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
