/* SPDX-License-Identifier: BSD-3-Clause */
/* capture's pcapng reader (pcapfile.c over readring.c) and writer
 * (writer.c), against files built here block by block from
 * draft-ietf-opsawg-pcapng: 3.1 a block is type(32) total length(32) body
 * total length(32), in its section's byte order; 4.1 SHB body: byte-order
 * magic 0x1A2B3C4D, version 1.0, section length(64), options; 4.2 IDB:
 * link type(16) reserved(16) snapshot length(32), options (if_tsresol 9,
 * 1 byte; if_tsoffset 14, 8 bytes); 4.3 EPB: interface(32) time high(32)
 * low(32) captured(32) original(32) data; 4.4 SPB: original length(32)
 * data; Appendix A PB: interface(16) drops(16) then as the EPB. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "rw_test_util.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pcapfile.h"
#include "readring.h"
#include "source.h"
#include "writer.h"

#define BT_SHB 0x0A0D0D0Au
#define BT_IDB 1u
#define BT_PB 2u
#define BT_SPB 3u
#define BT_NRB 4u
#define BT_ISB 5u
#define BT_EPB 6u
#define BT_CB 0x00000BADu
#define BT_DCB 0x40000BADu
#define BT_LOCAL 0x80000F00u /* the local-use range: no reader knows it */

/* ---- a pcapng file built block by block ---------------------------------- */

struct ng {
	uint8_t *b;
	size_t len, cap;
	int be;                 /* the current section's byte order */
	size_t blk;             /* where the open block starts */
};

static void grow(struct ng *g, size_t n)
{
	if (g->len + n > g->cap) {
		g->cap = (g->len + n) * 2;
		g->b = realloc(g->b, g->cap);
		assert_non_null(g->b);
	}
}

static void bytes(struct ng *g, const void *p, size_t n)
{
	grow(g, n);
	memcpy(g->b + g->len, p, n);
	g->len += n;
}

static void zeros(struct ng *g, size_t n)
{
	grow(g, n);
	memset(g->b + g->len, 0, n);
	g->len += n;
}

static void u16(struct ng *g, uint16_t v)
{
	uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
	if (g->be) {
		x[0] = (uint8_t)(v >> 8);
		x[1] = (uint8_t)v;
	}
	bytes(g, x, 2);
}

static void u32(struct ng *g, uint32_t v)
{
	uint8_t x[4];
	if (g->be)
		rw_put_be32(x, v);
	else
		rw_put_le32(x, v);
	bytes(g, x, 4);
}

static void u64(struct ng *g, uint64_t v)
{
	if (g->be) {
		u32(g, (uint32_t)(v >> 32));
		u32(g, (uint32_t)v);
	} else {
		u32(g, (uint32_t)v);
		u32(g, (uint32_t)(v >> 32));
	}
}

static void begin(struct ng *g, uint32_t type)
{
	g->blk = g->len;
	u32(g, type);
	u32(g, 0); /* filled in by end() */
}

static void end(struct ng *g)
{
	zeros(g, (4 - g->len % 4) % 4);
	uint32_t n = (uint32_t)(g->len + 4 - g->blk);
	uint8_t *at = g->b + g->blk + 4;
	if (g->be)
		rw_put_be32(at, n);
	else
		rw_put_le32(at, n);
	u32(g, n);
}

static void opt(struct ng *g, uint16_t code, const void *v, uint16_t n)
{
	u16(g, code);
	u16(g, n);
	bytes(g, v, n);
	zeros(g, (4u - n % 4u) % 4u);
}

static void shb(struct ng *g, int be)
{
	g->be = be;
	begin(g, BT_SHB);
	u32(g, 0x1A2B3C4Du);
	u16(g, 1);
	u16(g, 0);
	u64(g, UINT64_MAX); /* section length not given */
	end(g);
}

/* tsresol < 0: none (microseconds); has_off: an if_tsoffset of off. */
static void idb(struct ng *g, uint16_t linktype, uint32_t snaplen, int tsresol, int has_off, int64_t off)
{
	begin(g, BT_IDB);
	u16(g, linktype);
	u16(g, 0);
	u32(g, snaplen);
	if (tsresol >= 0) {
		uint8_t r = (uint8_t)tsresol;
		opt(g, 9, &r, 1);
	}
	if (has_off) {
		u16(g, 14);
		u16(g, 8);
		u64(g, (uint64_t)off);
	}
	opt(g, 0, "", 0);
	end(g);
}

static void epb(struct ng *g, uint32_t ifid, uint64_t t, const uint8_t *d, uint32_t caplen, uint32_t len)
{
	begin(g, BT_EPB);
	u32(g, ifid);
	u32(g, (uint32_t)(t >> 32));
	u32(g, (uint32_t)t);
	u32(g, caplen);
	u32(g, len);
	bytes(g, d, caplen);
	end(g);
}

static void spb(struct ng *g, const uint8_t *d, uint32_t caplen, uint32_t len)
{
	begin(g, BT_SPB);
	u32(g, len);
	bytes(g, d, caplen);
	end(g);
}

static void pb(struct ng *g, uint16_t ifid, uint64_t t, const uint8_t *d, uint32_t caplen)
{
	begin(g, BT_PB);
	u16(g, ifid);
	u16(g, 7); /* drops */
	u32(g, (uint32_t)(t >> 32));
	u32(g, (uint32_t)t);
	u32(g, caplen);
	u32(g, caplen);
	bytes(g, d, caplen);
	end(g);
}

/* A block of another type, n bytes of body. */
static void other(struct ng *g, uint32_t type, size_t n)
{
	begin(g, type);
	zeros(g, n);
	end(g);
}

/* ---- reading it ------------------------------------------------------------ */

struct rd {
	char path[128];
	int fd;
	struct cap_readring rr;
	struct cap_pcapfile pf;
	int open_rc;
};

static void rd_file(struct rd *r, const uint8_t *b, size_t n)
{
	snprintf(r->path, sizeof(r->path), "/tmp/test_pcapfile.XXXXXX");
	r->fd = mkstemp(r->path);
	assert_true(r->fd >= 0);
	assert_int_equal(write(r->fd, b, n), (ssize_t)n);
}

static void rd_start(struct rd *r)
{
	struct stat st;
	assert_int_equal(fstat(r->fd, &st), 0);
	assert_int_equal(cap_readring_open(&r->rr, r->fd, (uint64_t)st.st_size, CAP_SOURCE_RING_ROOM), 0);
	r->open_rc = cap_pcapfile_open(&r->pf, &r->rr);
}

static void rd_open(struct rd *r, const struct ng *g)
{
	rd_file(r, g->b, g->len);
	rd_start(r);
}

static int rd_next(struct rd *r, struct cap_pf_record *rec)
{
	r->pf.keep = r->pf.pos; /* no record is kept */
	int rc;
	while ((rc = cap_pcapfile_next(&r->pf, rec)) == CAP_PF_AGAIN)
		r->pf.keep = r->pf.pos;
	return rc;
}

static void rd_close(struct rd *r)
{
	cap_pcapfile_close(&r->pf);
	cap_readring_close(&r->rr);
	close(r->fd);
	unlink(r->path);
}

static void frame(uint8_t *d, size_t n, uint8_t mark)
{
	memset(d, mark, n);
}

/* One record as the reader must give it. */
static void expect(struct rd *r, int linktype, uint32_t iface, int64_t sec, uint32_t nsec, uint32_t caplen,
		   uint32_t len, uint8_t mark)
{
	struct cap_pf_record rec;
	assert_int_equal(rd_next(r, &rec), CAP_PF_RECORD);
	assert_int_equal(rec.linktype, linktype);
	assert_int_equal(rec.iface, iface);
	assert_int_equal(rec.ts_sec, sec);
	assert_int_equal(rec.ts_nsec, nsec);
	assert_int_equal(rec.caplen, caplen);
	assert_int_equal(rec.len, len);
	assert_int_equal(rec.data[0], mark);
	assert_int_equal(rec.data[caplen - 1], mark);
}

/* Two sections of two byte orders; interfaces of two link types, each with
 * its own time base; every packet block kind; blocks to skip between. */
static void test_sections_and_link_types(void **state)
{
	(void)state;
	struct ng g = {0};
	uint8_t d[200];
	struct rd r;

	shb(&g, 0);
	idb(&g, RW_LINKTYPE_ETHERNET, 0, 9, 0, 0);          /* nanoseconds */
	idb(&g, RW_LINKTYPE_INFINIBAND, 0, -1, 1, 1000);    /* microseconds, +1000 s */
	frame(d, sizeof(d), 0x11);
	epb(&g, 0, 1700000000123456789ull, d, 60, 60);
	other(&g, BT_NRB, 16);
	other(&g, BT_ISB, 12);
	frame(d, sizeof(d), 0x22);
	epb(&g, 1, 5000001, d, 40, 40);                     /* 5.000001 s + 1000 s */
	other(&g, BT_CB, 20);
	other(&g, BT_DCB, 8);
	other(&g, BT_LOCAL, 4);
	frame(d, sizeof(d), 0x33);
	spb(&g, d, 64, 64);                                 /* interface 0, no time */
	frame(d, sizeof(d), 0x44);
	pb(&g, 1, 7000000, d, 30);
	shb(&g, 1);                                         /* a new section, big-endian */
	idb(&g, RW_LINKTYPE_ERF, 64, 0x80 | 10, 0, 0);      /* 2^-10 s */
	frame(d, sizeof(d), 0x55);
	spb(&g, d, 64, 100);                                /* cut to the snapshot length */
	frame(d, sizeof(d), 0x66);
	epb(&g, 0, 3 * 1024 + 512, d, 50, 70);              /* 3.5 s */

	rd_open(&r, &g);
	assert_int_equal(r.open_rc, 1);
	assert_int_equal(r.pf.pcapng, 1);
	assert_int_equal(r.pf.linktype, RW_LINKTYPE_ETHERNET);
	expect(&r, RW_LINKTYPE_ETHERNET, 0, 1700000000, 123456789, 60, 60, 0x11);
	expect(&r, RW_LINKTYPE_INFINIBAND, 1, 1005, 1000, 40, 40, 0x22);
	expect(&r, RW_LINKTYPE_ETHERNET, 0, 0, 0, 64, 64, 0x33);
	expect(&r, RW_LINKTYPE_INFINIBAND, 1, 1007, 0, 30, 30, 0x44);
	expect(&r, RW_LINKTYPE_ERF, 0, 0, 0, 64, 100, 0x55);
	expect(&r, RW_LINKTYPE_ERF, 0, 3, 500000000, 50, 70, 0x66);
	struct cap_pf_record rec;
	assert_int_equal(rd_next(&r, &rec), CAP_PF_END);
	assert_int_equal(r.pf.sections, 2);
	assert_non_null(r.pf.libpcap_refuses); /* two byte orders, two link types */
	rd_close(&r);
	free(g.b);
}

/* Files with no packet: read, not refused. */
static void test_empty(void **state)
{
	(void)state;
	for (int k = 0; k < 3; k++) {
		struct ng g = {0};
		struct rd r;
		struct cap_pf_record rec;
		shb(&g, k == 1);
		if (k >= 1) {
			other(&g, BT_CB, 24);
			other(&g, BT_DCB, 24);
		}
		if (k == 2) {
			shb(&g, 0);
			idb(&g, RW_LINKTYPE_ETHERNET, 96, -1, 0, 0);
			other(&g, BT_ISB, 12);
		}
		rd_open(&r, &g);
		assert_int_equal(r.open_rc, 1);
		assert_int_equal(r.pf.linktype, -1); /* no interface before the first packet */
		assert_int_equal(rd_next(&r, &rec), CAP_PF_END);
		rd_close(&r);
		free(g.b);
	}
}

/* A file whose first interfaces are none of rocewire's is left to libpcap
 * (its words for the link type); one among them is enough, and a packet on
 * the other carries its own link type. */
static void test_foreign_interfaces(void **state)
{
	(void)state;
	uint8_t d[64];
	struct ng g = {0};
	struct rd r;

	shb(&g, 0);
	idb(&g, 0 /* NULL */, 0, -1, 0, 0);
	frame(d, sizeof(d), 0x77);
	epb(&g, 0, 1, d, 44, 44);
	rd_open(&r, &g);
	assert_int_equal(r.open_rc, 0);
	rd_close(&r);
	free(g.b);

	memset(&g, 0, sizeof(g));
	shb(&g, 0);
	idb(&g, 0, 0, -1, 0, 0);
	idb(&g, RW_LINKTYPE_INFINIBAND, 0, -1, 0, 0);
	epb(&g, 0, 1, d, 44, 44);
	rd_open(&r, &g);
	assert_int_equal(r.open_rc, 1);
	assert_int_equal(r.pf.linktype, RW_LINKTYPE_INFINIBAND);
	expect(&r, 0, 0, 0, 1000, 44, 44, 0x77);
	rd_close(&r);
	free(g.b);
}

/* A damaged block: an error at its offset that says what was expected. */
static void test_damaged(void **state)
{
	(void)state;
	uint8_t d[64];
	frame(d, sizeof(d), 0x12);
	for (int k = 0; k < 4; k++) {
		struct ng g = {0};
		struct rd r;
		struct cap_pf_record rec;
		shb(&g, k & 1);
		idb(&g, RW_LINKTYPE_ETHERNET, 0, -1, 0, 0);
		idb(&g, RW_LINKTYPE_INFINIBAND, 0, -1, 0, 0);
		epb(&g, 1, 1, d, 40, 40);
		size_t at = g.len;
		const char *want;
		if (k < 2) {
			epb(&g, 2, 2, d, 40, 40);
			want = "packet block on interface 2, but its section describes 2 before it; expected 0 to 1";
		} else if (k == 2) {
			epb(&g, 0, 2, d, 40, 40);
			g.b[g.len - 4] ^= 4; /* the trailing length */
			want = "at its start and";
		} else {
			shb(&g, 0);
			spb(&g, d, 40, 40);
			at = g.len - 56;
			want = "simple packet block on interface 0, but its section describes no interface";
		}
		rd_open(&r, &g);
		assert_int_equal(r.open_rc, 1);
		assert_int_equal(rd_next(&r, &rec), CAP_PF_RECORD);
		assert_int_equal(rd_next(&r, &rec), CAP_PF_ERROR);
		assert_non_null(strstr(r.pf.err, want));
		assert_non_null(strstr(r.pf.err, "damaged record: "));
		assert_int_equal(r.pf.err_offset, at);
		assert_int_equal(r.pf.err_cut, 0);
		rd_close(&r);
		free(g.b);
	}
}

/* A file cut inside a block of a second section. */
static void test_cut(void **state)
{
	(void)state;
	uint8_t d[64];
	struct ng g = {0};
	struct rd r;
	struct cap_pf_record rec;

	frame(d, sizeof(d), 0x21);
	shb(&g, 0);
	idb(&g, RW_LINKTYPE_ETHERNET, 0, -1, 0, 0);
	epb(&g, 0, 1, d, 60, 60);
	shb(&g, 1);
	idb(&g, RW_LINKTYPE_ETHERNET, 0, -1, 0, 0);
	size_t at = g.len;
	epb(&g, 0, 1, d, 60, 60);
	rd_file(&r, g.b, g.len - 10);
	rd_start(&r);
	assert_int_equal(r.open_rc, 1);
	assert_int_equal(rd_next(&r, &rec), CAP_PF_RECORD);
	assert_int_equal(rd_next(&r, &rec), CAP_PF_ERROR);
	assert_int_equal(r.pf.err_cut, 1);
	assert_int_equal(r.pf.err_offset, at);
	assert_string_equal(r.pf.err, "file ends inside a pcapng block: 84 bytes expected, 74 present");
	rd_close(&r);
	free(g.b);
}

/* Blocks longer than the ring: others skipped unread; a packet block left
 * to libpcap when libpcap can read the file, refused in words when not. */
static void test_long_blocks(void **state)
{
	(void)state;
	static uint8_t big[140000];
	uint8_t d[64];
	frame(d, sizeof(d), 0x31);
	frame(big, sizeof(big), 0x32);
	for (int mixed = 0; mixed < 2; mixed++) {
		struct ng g = {0};
		struct rd r;
		struct cap_pf_record rec;
		shb(&g, 0);
		idb(&g, RW_LINKTYPE_ETHERNET, 0, -1, 0, 0);
		if (mixed)
			idb(&g, RW_LINKTYPE_INFINIBAND, 0, -1, 0, 0);
		epb(&g, 0, 1, d, 60, 60);
		other(&g, BT_CB, 300000);
		other(&g, BT_NRB, 200000);
		epb(&g, 0, 2, d, 60, 60);
		size_t at = g.len;
		epb(&g, 0, 3, big, sizeof(big), sizeof(big));
		rd_open(&r, &g);
		assert_int_equal(r.open_rc, 1);
		expect(&r, RW_LINKTYPE_ETHERNET, 0, 0, 1000, 60, 60, 0x31);
		expect(&r, RW_LINKTYPE_ETHERNET, 0, 0, 2000, 60, 60, 0x31);
		if (!mixed) {
			assert_int_equal(rd_next(&r, &rec), CAP_PF_OTHER);
			assert_int_equal(r.pf.pos, at);
		} else {
			assert_int_equal(rd_next(&r, &rec), CAP_PF_ERROR);
			assert_int_equal(r.pf.err_offset, at);
			assert_non_null(strstr(r.pf.err, "libpcap, which cannot read this file"));
		}
		rd_close(&r);
		free(g.b);
	}
}

/* The writer: interfaces of two link types in one pcapng file, each packet
 * block naming its own, read back by the reader; pcap refuses a second
 * link type. */
static void test_writer_interfaces(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_pcapfile_w.XXXXXX", path[128];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/two.pcapng", dir);
	struct cap_writer_cfg o = {.pattern = path, .fmt = CAP_WFMT_AUTO, .appl = "test_pcapfile"};
	static struct cap_writer w;
	uint8_t d[100];
	frame(d, sizeof(d), 0x41);

	assert_int_equal(cap_writer_open(&w, &o, RW_LINKTYPE_ETHERNET, 9000, 1, "eth2"), 0);
	assert_int_equal(cap_writer_add_iface(&w, RW_LINKTYPE_INFINIBAND, 4096, "ib0"), 1);
	for (unsigned i = 0; i < 6; i++) {
		struct cap_record rec = {.ts_sec = 1700000000 + i, .ts_nsec = 1000u * i, .caplen = 60 + i,
					 .wirelen = 80 + i, .data = d};
		assert_int_equal(cap_writer_write_on(&w, i % 2, &rec), 0);
	}
	struct cap_record rec = {.ts_sec = 1, .caplen = 10, .wirelen = 10, .data = d};
	assert_int_equal(cap_writer_write_on(&w, 2, &rec), -1); /* no interface 2 */
	assert_int_equal(cap_writer_close(&w), 0);

	struct rd r;
	r.fd = open(path, O_RDONLY);
	snprintf(r.path, sizeof(r.path), "%s", path);
	assert_true(r.fd >= 0);
	rd_start(&r);
	assert_int_equal(r.open_rc, 1);
	for (unsigned i = 0; i < 6; i++)
		expect(&r, i % 2 ? RW_LINKTYPE_INFINIBAND : RW_LINKTYPE_ETHERNET, i % 2, 1700000000 + i,
		       1000u * i, 60 + i, 80 + i, 0x41);
	struct cap_pf_record end;
	assert_int_equal(rd_next(&r, &end), CAP_PF_END);
	assert_int_equal(r.pf.n_ifs, 2);
	assert_int_equal(r.pf.ifs[1].snaplen, 4096);
	rd_close(&r);

	snprintf(path, sizeof(path), "%s/one.pcap", dir);
	assert_int_equal(cap_writer_open(&w, &o, RW_LINKTYPE_ETHERNET, 9000, 1, "eth2"), 0);
	assert_int_equal(cap_writer_add_iface(&w, RW_LINKTYPE_INFINIBAND, 9000, "ib0"), -1);
	assert_non_null(strstr(w.err, "write pcapng"));
	assert_int_equal(cap_writer_add_iface(&w, RW_LINKTYPE_ETHERNET, 9000, "eth3"), 1);
	assert_int_equal(cap_writer_close(&w), 0);
	unlink(path);
	rmdir(dir);
}

/* A capture that never started (rocewire-cap -Z refused the folder):
 * discarding the writer leaves nothing, neither FILE nor its .part. */
static void test_writer_discard(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_pcapfile_d.XXXXXX", path[128];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/never.pcap", dir);
	struct cap_writer_cfg o = {.pattern = path, .fmt = CAP_WFMT_AUTO, .appl = "test_pcapfile"};
	static struct cap_writer w;
	uint8_t d[64];
	frame(d, sizeof(d), 0x42);
	assert_int_equal(cap_writer_open(&w, &o, RW_LINKTYPE_ETHERNET, 9000, 1, "eth2"), 0);
	struct cap_record rec = {.ts_sec = 1, .caplen = 64, .wirelen = 64, .data = d};
	assert_int_equal(cap_writer_write(&w, &rec), 0);
	cap_writer_discard(&w);
	assert_null(w.fp);
	assert_int_equal(rmdir(dir), 0); /* empty */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sections_and_link_types),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_foreign_interfaces),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_long_blocks),
		cmocka_unit_test(test_writer_interfaces),
		cmocka_unit_test(test_writer_discard),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
