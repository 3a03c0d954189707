/* SPDX-License-Identifier: BSD-3-Clause */
/* -w: the capture written as pcap or pcapng, with tcpdump-like rotation.
 *
 * Both formats are written here rather than with pcap_dump(): libpcap 1.10
 * cannot write pcapng, and pcap_dump() reports no write errors. Files are
 * little-endian (the byte-order magic of both formats allows either).
 *
 * pcapng holds several interfaces, each with its own link type and snapshot
 * length (draft-ietf-opsawg-pcapng 4.2), as dumpcap writes `-i eth2 -i ib0`:
 * interface 0 is the one the writer is opened with, cap_writer_add_iface()
 * adds more (its IDB written at once, and at the start of every later file),
 * and each packet block names its interface. A pcap file has one link type
 * and one snapshot length for all its records.
 *
 * A file is written as NAME.XXXXXX.part (tmpfile.c: a new file of a name
 * nobody can plant a symlink at) and renamed to NAME when it is closed
 * (rotation, the end of the capture, SIGINT/SIGTERM): a file under its final
 * name is always complete. A .part file left behind means the process was
 * killed without a chance to close it, or a write failed (the error names
 * it); it holds every record flushed before (the writer flushes once a
 * second), possibly followed by a partial record: kept, not deleted, as
 * the only copy of what was captured.
 *
 * Names (tcpdump's rules, except that nothing is overwritten within a run):
 *  - a pattern holding '%' is expanded with strftime(3), in local time, when
 *    each file is opened;
 *  - -C (size) and -G (time) start a new file; when its name would repeat
 *    the previous one, a number is appended: FILE, FILE1, FILE2, ...; the
 *    number starts again at the first file of each new strftime name. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <rocewire/wire.h>

#include "tmpfile.h"
#include "writer.h"

#define WRITER_BUF (1u << 17)

/* pcapng block types and options (draft-ietf-opsawg-pcapng). */
#define PCAPNG_SHB 0x0A0D0D0Au
#define PCAPNG_IDB 0x00000001u
#define PCAPNG_ISB 0x00000005u
#define PCAPNG_EPB 0x00000006u
#define PCAPNG_BOM 0x1A2B3C4Du
#define OPT_ENDOFOPT 0
#define OPT_SHB_USERAPPL 4
#define OPT_IF_NAME 2
#define OPT_IF_TSRESOL 9
#define OPT_ISB_STARTTIME 2
#define OPT_ISB_ENDTIME 3
#define OPT_ISB_IFDROP 5
#define OPT_ISB_FILTERACCEPT 6
#define OPT_ISB_OSDROP 7
#define OPT_ISB_USRDELIV 8

/* The largest statistics block put_stats() writes per interface: a 20-byte
 * header, six 12-byte options, the end of options and the trailing length. */
#define ISB_MAX (20u + 6u * 12u + 4u + 4u)

#define PCAP_MAGIC_USEC 0xA1B2C3D4u
#define PCAP_MAGIC_NSEC 0xA1B23C4Du

static void fail(struct cap_writer *w, const char *what, int err)
{
	if (w->failed)
		return;
	w->failed = 1;
	snprintf(w->err, sizeof(w->err), "%s: %s: %s", w->to_stdout ? "standard output" : w->part,
		 what, strerror(err ? err : EIO));
}

/* Records are gathered in the writer's own buffer and handed to the kernel
 * WRITER_BUF bytes at a time, through an unbuffered stream: one memcpy per
 * record and one write() per 128 KiB (small enough for the kernel to copy it
 * from the CPU's cache: 1 MiB was no fewer calls that counted and at times
 * several times the copy's cost). stdio per record (two fwrite calls,
 * each taking the stream's lock) cost a quarter of a 64-byte frame's
 * capture time (perf, bench/bench_live.sh). */
static int flush_buf(struct cap_writer *w)
{
	if (w->failed)
		return -1;
	if (w->ilen && fwrite(w->iobuf, 1, w->ilen, w->fp) != w->ilen) {
		fail(w, "cannot write", errno);
		return -1;
	}
	w->ilen = 0;
	return 0;
}

static int put(struct cap_writer *w, const void *b, size_t n)
{
	if (w->failed)
		return -1;
	if (w->ilen + n > WRITER_BUF && flush_buf(w) != 0)
		return -1;
	if (n > WRITER_BUF) {
		if (fwrite(b, 1, n, w->fp) != n) {
			fail(w, "cannot write", errno);
			return -1;
		}
	} else {
		memcpy(w->iobuf + w->ilen, b, n);
		w->ilen += n;
	}
	w->bytes += n;
	return 0;
}

/* Little-endian appenders into a small block buffer. */
static uint8_t *le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	return p + 2;
}

static uint8_t *le32(uint8_t *p, uint32_t v)
{
	rw_put_le32(p, v);
	return p + 4;
}

static uint8_t *le64(uint8_t *p, uint64_t v)
{
	p = le32(p, (uint32_t)v);
	return le32(p, (uint32_t)(v >> 32));
}

/* pcapng timestamps: high 32 bits, then low 32 bits. */
static uint8_t *ts64(uint8_t *p, uint64_t t)
{
	p = le32(p, (uint32_t)(t >> 32));
	return le32(p, (uint32_t)t);
}

static uint8_t *opt(uint8_t *p, uint16_t code, const void *v, uint16_t len)
{
	p = le16(p, code);
	p = le16(p, len);
	memcpy(p, v, len);
	p += len;
	while (len++ % 4)
		*p++ = 0;
	return p;
}

static uint8_t *opt_u64(uint8_t *p, uint16_t code, uint64_t v)
{
	p = le16(p, code);
	p = le16(p, 8);
	return le64(p, v);
}

static uint8_t *opt_ts(uint8_t *p, uint16_t code, uint64_t t)
{
	p = le16(p, code);
	p = le16(p, 8);
	return ts64(p, t);
}

/* Fills in a block's two length fields and writes it. */
static int put_block(struct cap_writer *w, uint8_t *blk, uint8_t *end)
{
	uint32_t len = (uint32_t)(end - blk) + 4;
	rw_put_le32(blk + 4, len);
	le32(end, len);
	return put(w, blk, len);
}

static uint64_t ts_units(const struct cap_writer *w, int64_t sec, uint32_t nsec)
{
	if (sec < 0)
		sec = 0;
	return w->nano ? (uint64_t)sec * 1000000000u + nsec : (uint64_t)sec * 1000000u + nsec / 1000;
}

/* An Interface Description Block: link type, snapshot length, name,
 * timestamp resolution. */
static int put_idb(struct cap_writer *w, const struct cap_writer_iface *ifc)
{
	uint8_t b[512], *p = b;

	p = le32(p, PCAPNG_IDB);
	p += 4;
	p = le16(p, (uint16_t)ifc->linktype);
	p = le16(p, 0);
	p = le32(p, ifc->snaplen);
	if (ifc->name) {
		size_t n = strlen(ifc->name);
		p = opt(p, OPT_IF_NAME, ifc->name, (uint16_t)(n < 255 ? n : 255));
	}
	uint8_t res = w->nano ? 9 : 6; /* 10^-9 or 10^-6 s */
	p = opt(p, OPT_IF_TSRESOL, &res, 1);
	p = opt(p, OPT_ENDOFOPT, "", 0);
	return put_block(w, b, p);
}

static int put_headers(struct cap_writer *w)
{
	uint8_t b[512], *p = b;

	if (!w->pcapng) {
		p = le32(p, w->nano ? PCAP_MAGIC_NSEC : PCAP_MAGIC_USEC);
		p = le16(p, 2);
		p = le16(p, 4);
		p = le32(p, 0); /* thiszone */
		p = le32(p, 0); /* sigfigs */
		p = le32(p, w->ifs[0].snaplen);
		p = le32(p, (uint32_t)w->ifs[0].linktype);
		return put(w, b, (size_t)(p - b));
	}

	const char *appl = w->appl;
	p = le32(p, PCAPNG_SHB);
	p += 4;
	p = le32(p, PCAPNG_BOM);
	p = le16(p, 1);
	p = le16(p, 0);
	p = le64(p, UINT64_MAX); /* section length not given */
	p = opt(p, OPT_SHB_USERAPPL, appl, (uint16_t)strlen(appl));
	p = opt(p, OPT_ENDOFOPT, "", 0);
	if (put_block(w, b, p) != 0)
		return -1;
	for (unsigned i = 0; i < w->n_ifs; i++)
		if (put_idb(w, &w->ifs[i]) != 0)
			return -1;
	return 0;
}

/* pcapng interface statistics at the close of every file, one block per
 * interface: the capture's counters since its start (the ISB's own
 * definition), so a file keeps the record of the packets the capture lost.
 * The loss counters (w->drops) are interface 0's. */
static int put_stats(struct cap_writer *w)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	uint64_t t = ts_units(w, (int64_t)now.tv_sec, (uint32_t)now.tv_nsec);
	for (unsigned i = 0; i < w->n_ifs; i++) {
		uint8_t b[256], *p = b;
		p = le32(p, PCAPNG_ISB);
		p += 4;
		p = le32(p, i);
		p = ts64(p, t);
		p = opt_ts(p, OPT_ISB_STARTTIME, ts_units(w, w->start_sec, w->start_nsec));
		p = opt_ts(p, OPT_ISB_ENDTIME, t);
		if (i == 0 && w->drops && w->drops->known) {
			p = opt_u64(p, OPT_ISB_IFDROP, w->drops->ifdrop);
			p = opt_u64(p, OPT_ISB_FILTERACCEPT, w->drops->recv);
			p = opt_u64(p, OPT_ISB_OSDROP, w->drops->kernel);
		}
		p = opt_u64(p, OPT_ISB_USRDELIV, w->ifs[i].packets);
		p = opt(p, OPT_ENDOFOPT, "", 0);
		if (put_block(w, b, p) != 0)
			return -1;
	}
	return 0;
}

static int64_t mono_sec(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec;
}

static int open_next(struct cap_writer *w)
{
	char base[sizeof(w->base)];
	time_t now = time(NULL);

	if (w->to_stdout) {
		w->fp = stdout;
	} else {
		if (strchr(w->pattern, '%')) {
			struct tm tm;
			localtime_r(&now, &tm);
			size_t n = strftime(base, sizeof(base), w->pattern, &tm);
			if (n == 0) {
				w->failed = 1;
				snprintf(w->err, sizeof(w->err),
					 "%s: the strftime pattern gives an empty or too long name",
					 w->pattern);
				return -1;
			}
		} else {
			snprintf(base, sizeof(base), "%s", w->pattern);
		}
		/* The same name as the file before: number it rather than
		 * overwrite it. */
		if (w->files > 0 && strcmp(base, w->base) == 0)
			w->index++;
		else
			w->index = 0;
		memcpy(w->base, base, sizeof(base));
		if (w->index)
			snprintf(w->name, sizeof(w->name), "%.4080s%u", w->base, w->index);
		else
			snprintf(w->name, sizeof(w->name), "%s", w->base);
		char *part;
		w->fp = cap_create_temp(w->name, ".part", &part);
		if (!w->fp) {
			w->failed = 1;
			snprintf(w->err, sizeof(w->err),
				 "%s: cannot create the file (written as %s.XXXXXX.part until complete): %s",
				 w->name, w->name, strerror(errno));
			return -1;
		}
		/* name is at most 4095 bytes: ".XXXXXX.part" fits in part */
		snprintf(w->part, sizeof(w->part), "%s", part);
		free(part);
		setvbuf(w->fp, NULL, _IONBF, 0); /* the writer buffers */
	}
	w->bytes = 0;
	w->packets = 0;
	w->period_wall = (int64_t)now;
	w->period_mono = mono_sec();
	return put_headers(w);
}

static int close_current(struct cap_writer *w)
{
	int rc = 0;

	if (!w->fp)
		return 0;
	if (w->pcapng && !w->failed)
		put_stats(w);
	flush_buf(w);
	w->ilen = 0;
	if (w->to_stdout) {
		if (fflush(stdout) != 0)
			fail(w, "cannot write", errno);
		w->fp = NULL;
		return w->failed ? -1 : 0;
	}
	if (fclose(w->fp) != 0)
		fail(w, "cannot write", errno);
	w->fp = NULL;
	if (w->failed) {
		rc = -1;
	} else if (rename(w->part, w->name) != 0) {
		w->failed = 1;
		snprintf(w->err, sizeof(w->err), "%s: cannot rename to %s: %s", w->part, w->name,
			 strerror(errno));
		rc = -1;
	}
	if (w->files++ == 0)
		snprintf(w->first_name, sizeof(w->first_name), "%s", w->name);
	return rc;
}

int cap_writer_open(struct cap_writer *w, const struct cap_writer_cfg *cfg, int linktype,
		    uint32_t snaplen, int nano, const char *ifname)
{
	struct timespec now;

	memset(w, 0, sizeof(*w));
	w->pattern = cfg->pattern;
	w->to_stdout = strcmp(cfg->pattern, "-") == 0;
	snprintf(w->appl, sizeof(w->appl), "%s", cfg->appl ? cfg->appl : "rocewire");
	if (cfg->fmt == CAP_WFMT_AUTO) {
		size_t n = strlen(w->pattern);
		w->pcapng = n >= 7 && strcasecmp(w->pattern + n - 7, ".pcapng") == 0;
	} else {
		w->pcapng = cfg->fmt == CAP_WFMT_PCAPNG;
	}
	w->ifs[0].linktype = linktype;
	w->ifs[0].snaplen = snaplen;
	w->ifs[0].name = ifname;
	w->n_ifs = 1;
	w->nano = nano;
	w->rotate_bytes = cfg->rotate_bytes;
	w->rotate_secs = cfg->rotate_secs;
	w->iobuf = malloc(WRITER_BUF);
	if (!w->iobuf) {
		w->failed = 1;
		snprintf(w->err, sizeof(w->err), "%s: out of memory", w->pattern);
		return -1;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	w->start_sec = (int64_t)now.tv_sec;
	w->start_nsec = (uint32_t)now.tv_nsec;
	return open_next(w);
}

/* A captured frame into the buffer. Small ones (most RoCE frames are
 * ACKs and short requests) with 32-byte moves, the last one overlapping,
 * inline: a call to the C library's memcpy for 64 bytes cost as much as
 * the copy (perf, bench/bench_live.sh). */
static inline void copy_frame(uint8_t *d, const uint8_t *s, size_t n)
{
	if (n > 256 || n < 32) {
		memcpy(d, s, n);
		return;
	}
	for (size_t i = 0; i + 32 < n; i += 32)
		memcpy(d + i, s + i, 32);
	memcpy(d + n - 32, s + n - 32, 32);
}

int cap_writer_add_iface(struct cap_writer *w, int linktype, uint32_t snaplen, const char *name)
{
	if (w->failed)
		return -1;
	if (w->n_ifs == CAP_WRITER_MAX_IFACES) {
		snprintf(w->err, sizeof(w->err), "%s: more than %u interfaces in one file",
			 w->pattern, CAP_WRITER_MAX_IFACES);
		return -1;
	}
	/* pcap's one file header says one link type and snapshot length. */
	if (!w->pcapng && (linktype != w->ifs[0].linktype || snaplen != w->ifs[0].snaplen)) {
		snprintf(w->err, sizeof(w->err),
			 "%s: a pcap file holds one link type and snapshot length (%d, %u), not "
			 "also %d, %u: write pcapng (a .pcapng name or --pcapng)",
			 w->pattern, w->ifs[0].linktype, w->ifs[0].snaplen, linktype, snaplen);
		return -1;
	}
	unsigned i = w->n_ifs++;
	w->ifs[i] = (struct cap_writer_iface){.linktype = linktype, .snaplen = snaplen, .name = name};
	/* The IDB may come anywhere before the interface's first packet
	 * (4.2); later files of a rotation write it with the others. */
	if (w->pcapng && w->fp && put_idb(w, &w->ifs[i]) != 0)
		return -1;
	return (int)i;
}

/* The record's header at p (an EPB's first 28 bytes, or pcap's 16): the
 * end of what it wrote. */
static uint8_t *record_header(const struct cap_writer *w, unsigned iface,
			      const struct cap_record *r, uint64_t size, uint8_t *p)
{
	if (w->pcapng) {
		p = le32(p, PCAPNG_EPB);
		p = le32(p, (uint32_t)size);
		p = le32(p, iface);
		p = ts64(p, ts_units(w, r->ts_sec, r->ts_nsec));
	} else {
		p = le32(p, (uint32_t)(r->ts_sec < 0 ? 0 : r->ts_sec));
		p = le32(p, w->nano ? r->ts_nsec : r->ts_nsec / 1000);
	}
	p = le32(p, r->caplen);
	return le32(p, r->wirelen);
}

int cap_writer_write(struct cap_writer *w, const struct cap_record *r)
{
	return cap_writer_write_on(w, 0, r);
}

int cap_writer_write_on(struct cap_writer *w, unsigned iface, const struct cap_record *r)
{
	uint8_t h[28], *p = h;
	size_t pad = w->pcapng ? (4 - r->caplen % 4) % 4 : 0;
	uint64_t size = w->pcapng ? 28u + r->caplen + pad + 4u : 16u + r->caplen;

	if (w->failed)
		return -1;
	if (iface >= w->n_ifs) { /* the caller's mistake: the file stays good */
		snprintf(w->err, sizeof(w->err), "%s: a packet on interface %u; the file has %u",
			 w->pattern, iface, w->n_ifs);
		return -1;
	}
	/* room for the statistics blocks that close a pcapng file */
	uint64_t tail = w->pcapng ? ISB_MAX * w->n_ifs : 0;
	if (w->fp && w->rotate_bytes && w->packets > 0 && w->bytes + size + tail > w->rotate_bytes &&
	    !w->to_stdout) {
		if (close_current(w) != 0)
			return -1;
	}
	if (!w->fp && open_next(w) != 0)
		return -1;

	if (size <= WRITER_BUF) {
		/* the record put together in place */
		if (w->ilen + size > WRITER_BUF && flush_buf(w) != 0)
			return -1;
		p = record_header(w, iface, r, size, (uint8_t *)w->iobuf + w->ilen);
		copy_frame(p, r->data, r->caplen);
		p += r->caplen;
		if (w->pcapng) {
			memset(p, 0, pad);
			p = le32(p + pad, (uint32_t)size);
		}
		w->ilen += (size_t)size;
		w->bytes += size;
		w->packets++;
		w->total_packets++;
		w->ifs[iface].packets++;
		return 0;
	}
	p = record_header(w, iface, r, size, h);
	if (put(w, h, (size_t)(p - h)) != 0 || put(w, r->data, r->caplen) != 0)
		return -1;
	if (w->pcapng) {
		uint8_t tail[8] = {0};
		rw_put_le32(tail + pad, (uint32_t)size);
		if (put(w, tail, pad + 4) != 0)
			return -1;
	}
	w->packets++;
	w->total_packets++;
	w->ifs[iface].packets++;
	return 0;
}

int cap_writer_tick(struct cap_writer *w)
{
	if (w->failed)
		return -1;
	if (!w->fp)
		return 0;
	if (w->rotate_secs && !w->to_stdout &&
	    ((int64_t)time(NULL) - w->period_wall >= w->rotate_secs ||
	     mono_sec() - w->period_mono > w->rotate_secs))
		return close_current(w); /* the next packet opens the next file */
	return cap_writer_flush(w);
}

int cap_writer_flush(struct cap_writer *w)
{
	if (w->failed)
		return -1;
	if (!w->fp)
		return 0;
	if (flush_buf(w) != 0)
		return -1;
	if (fflush(w->fp) != 0) {
		fail(w, "cannot write", errno);
		return -1;
	}
	return 0;
}

int cap_writer_close(struct cap_writer *w)
{
	int rc = close_current(w);
	free(w->iobuf);
	w->iobuf = NULL;
	return rc == 0 && !w->failed ? 0 : -1;
}

void cap_writer_discard(struct cap_writer *w)
{
	if (w->fp && !w->to_stdout) {
		fclose(w->fp);
		remove(w->part);
	}
	w->fp = NULL;
	w->ilen = 0;
	free(w->iobuf);
	w->iobuf = NULL;
}
