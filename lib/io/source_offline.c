/* SPDX-License-Identifier: BSD-3-Clause */
/* Offline source: pcap and pcapng files, timestamps at nanosecond
 * precision, and the byte offset of every record kept so that errors can
 * point into the file.
 *
 * A regular file is read into a ring (readring.c) and parsed in place by
 * pcapfile.c: no copy into stdio's buffer and then libpcap's, no system
 * call per record, and pcapng as its standard defines it (several sections,
 * interfaces of several link types; each record carries its interface's).
 * Standard input, pipes, and files that reader leaves to libpcap (from
 * their first unusual record on) are read by libpcap through a stdio
 * stream, as they always were, so its messages stay what they were; libpcap
 * reads one link type per file. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rocewire/link.h>
#include <rocewire/wire.h>

#include "readring.h"
#include "source.h"

/* stdio buffer for the input: fewer read() calls for small records. */
#define CAP_INPUT_BUF (1u << 18)

/* The largest time the engine's clock holds: 2^64 ns after 1970. */
#define MAX_SEC 18446744073LL
#define MAX_NSEC_AT_MAX_SEC 709551615LL

static int linktype_supported(int lt)
{
	/* pcap_datalink() returns DLT_ values; for these five the DLT and
	 * LINKTYPE numbers are the same. */
	return lt == RW_LINKTYPE_ETHERNET || lt == RW_LINKTYPE_LINUX_SLL ||
	       lt == RW_LINKTYPE_LINUX_SLL2 || lt == RW_LINKTYPE_ERF ||
	       lt == RW_LINKTYPE_INFINIBAND;
}

/* ---- libpcap's read ------------------------------------------------------ */

/* libpcap words a cut file as "truncated dump file; tried to read N header
 * bytes, only got M" (pcap) or "truncated pcapng dump file; tried to read N
 * bytes, only got M" (pcapng). Turn that into "what, expected, present";
 * anything else is passed through. Returns 1 when it was a cut file. */
static int describe_read_error(const char *msg, char *out, size_t cap)
{
	const char *t = strstr(msg, "tried to read ");
	size_t want = 0, got = 0;
	char what[64] = "";

	if (strstr(msg, "truncated") && t &&
	    sscanf(t, "tried to read %zu %63[^,], only got %zu", &want, what, &got) == 3) {
		const char *place = strstr(what, "header") ? "the record header"
				    : strstr(what, "captured") ? "the packet data"
								: "a pcapng block";
		snprintf(out, cap, "file ends inside %s: %zu bytes expected, %zu present", place,
			 want, got);
		return 1;
	}
	if (strstr(msg, "truncated")) {
		snprintf(out, cap, "file is truncated (%s)", msg);
		return 1;
	}
	snprintf(out, cap, "damaged record (%s)", msg);
	return 0;
}

/* A stdio stream over fd for libpcap, with a large buffer. */
static FILE *stream(struct cap_source *s, int fd)
{
	FILE *fp = fdopen(fd, "rb");
	if (!fp)
		return NULL;
	/* glibc ignores the size when setvbuf() is given no buffer */
	if (!s->iobuf)
		s->iobuf = malloc(CAP_INPUT_BUF);
	if (s->iobuf)
		setvbuf(fp, s->iobuf, _IOFBF, CAP_INPUT_BUF);
	return fp;
}

/* glibc's ftell() answers from the stream's cached offset, without an
 * lseek() system call, only once a seek has set that cache: seek to where
 * we are. (On a pipe both fail and offsets stay unknown.) */
static long stream_pos(FILE *fp)
{
	long pos = ftell(fp);
	if (pos >= 0 && fseek(fp, pos, SEEK_SET) != 0)
		pos = -1;
	return pos;
}

static void pcap_open_error(struct cap_source *s, const char *path, const char *errbuf,
			    const struct stat *st)
{
	if (strstr(errbuf, "unknown file format")) {
		snprintf(s->err, sizeof(s->err),
			 "%s: not a pcap or pcapng file (unknown magic number at byte offset 0)",
			 path);
	} else if (S_ISREG(st->st_mode) && st->st_size == 0) {
		snprintf(s->err, sizeof(s->err),
			 "%s: empty file, expected a pcap or pcapng file header at byte offset 0",
			 path);
	} else if (strstr(errbuf, "truncated") && S_ISREG(st->st_mode)) {
		snprintf(s->err, sizeof(s->err),
			 "%s: file header truncated: the file ends at byte offset %lld, "
			 "expected a complete pcap or pcapng file header (%s)",
			 path, (long long)st->st_size, errbuf);
	} else if (strstr(errbuf, "truncated")) {
		snprintf(s->err, sizeof(s->err),
			 "%s: file header truncated, expected a complete pcap or pcapng "
			 "file header (%s)",
			 path, errbuf);
	} else {
		snprintf(s->err, sizeof(s->err), "%s: cannot read as pcap/pcapng: %s", path, errbuf);
	}
}

static void unsupported_linktype(struct cap_source *s, const char *path)
{
	/* libpcap gives the DLT value, which differs from the file's LINKTYPE
	 * number for some types (raw IP: DLT 12, LINKTYPE 101): name it rather
	 * than print a misleading number. */
	const char *n = pcap_datalink_val_to_name(s->linktype);
	const char *d = pcap_datalink_val_to_description(s->linktype);
	if (n)
		snprintf(s->err, sizeof(s->err),
			 "%s: link type %s (%s) is not supported; expected Ethernet (1), Linux "
			 "SLL (113), SLL2 (276), ERF (197) or InfiniBand (247)",
			 path, n, d ? d : n);
	else
		snprintf(s->err, sizeof(s->err),
			 "%s: link type %d is not supported; expected Ethernet (1), Linux SLL "
			 "(113), SLL2 (276), ERF (197) or InfiniBand (247)",
			 path, s->linktype);
}

/* Opens the file with libpcap from its start; fd is the stream's. */
static int open_libpcap(struct cap_source *s, const char *path, int fd, const struct stat *st)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	if (cap_pcap_ready(errbuf, sizeof(errbuf)) != 0) {
		snprintf(s->err, sizeof(s->err), "%s: %s", path, errbuf);
		if (fd != STDIN_FILENO)
			close(fd);
		return -1;
	}
	FILE *fp = fd == STDIN_FILENO ? stdin : stream(s, fd); /* stdin keeps its buffer */

	if (!fp) {
		snprintf(s->err, sizeof(s->err), "%s: cannot open: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	pcap_t *p = pcap_fopen_offline_with_tstamp_precision(fp, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (!p) {
		pcap_open_error(s, path, errbuf, st);
		if (fp != stdin)
			fclose(fp);
		return -1;
	}
	s->pcap = p;
	s->fp = fp;
	s->linktype = pcap_datalink(p);
	/* libpcap reports a pcapng section's version (1.0) as the file
	 * version; classic pcap files are 2.x. */
	s->pcapng = pcap_major_version(p) == 1;
	s->pos = stream_pos(fp);
	if (!linktype_supported(s->linktype)) {
		unsupported_linktype(s, path);
		return -1;
	}
	return 0;
}

/* Reads a regular file through the ring with pcapfile.c: 1 when that
 * reader takes it, 0 when libpcap should (from the start), -1 with s->err. */
static int open_own(struct cap_source *s, int fd, const struct stat *st)
{
	if (!S_ISREG(st->st_mode) || st->st_size <= 0)
		return 0;
	if (cap_readring_open(&s->ring, fd, (uint64_t)st->st_size, CAP_SOURCE_RING_ROOM) != 0)
		return 0;
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	int rc = cap_pcapfile_open(&s->pf, &s->ring);
	if (rc != 1) {
		cap_readring_close(&s->ring);
		if (rc < 0) {
			snprintf(s->err, sizeof(s->err), "%s: out of memory", s->name);
			return -1;
		}
		return 0;
	}
	s->own = 1;
	s->fd = fd;
	s->linktype = s->pf.linktype;
	s->pcapng = s->pf.pcapng;
	s->pos = (long)s->pf.pos;
	return 1;
}

int cap_offline_open(struct cap_source *s, const char *path)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	s->name = path;
	s->fd = -1;
	s->pos = -1;
	s->rec_start = -1;
	s->size = -1;
	s->failure = CAP_SOURCE_OPEN;

	int fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(s->err, sizeof(s->err), "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		snprintf(s->err, sizeof(s->err), "%s: cannot open: %s", path, strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(s->err, sizeof(s->err), "%s: is a directory, expected a pcap or pcapng file",
			 path);
		goto fail;
	}
	if (S_ISREG(st.st_mode))
		s->size = (long)st.st_size;
	if (fd != STDIN_FILENO) {
		int m = open_own(s, fd, &st);
		if (m < 0)
			goto fail;
		if (m > 0)
			return 0;
	}
	if (open_libpcap(s, path, fd, &st) != 0) {
		cap_source_close(s);
		return -1;
	}
	return 0;
fail:
	if (fd != STDIN_FILENO)
		close(fd);
	return -1;
}

/* ---- records -------------------------------------------------------------- */

static int read_error(struct cap_source *s, long offset, const char *what, int cut)
{
	if (offset >= 0)
		snprintf(s->err, sizeof(s->err), "%s: packet %" PRIu64 " at byte offset %ld: %s",
			 s->name, s->index + 1, offset, what);
	else
		snprintf(s->err, sizeof(s->err), "%s: packet %" PRIu64 ": %s", s->name,
			 s->index + 1, what);
	s->cut = cut;
	s->failure = CAP_SOURCE_READ;
	return -1;
}

int cap_source_next_own(struct cap_source *s, struct cap_record *r, uint64_t keep)
{
	struct cap_pf_record pr;
	s->pf.keep = keep;
	int rc = cap_pcapfile_next(&s->pf, &pr);
	if (rc == CAP_PF_AGAIN)
		return -3;

	if (s->ring.err) {
		char what[160];
		snprintf(what, sizeof(what), "cannot read the file: %s", strerror(s->ring.err));
		return read_error(s, (long)s->pf.pos, what, 0);
	}
	if (rc == CAP_PF_RECORD) {
		s->index++;
		r->index = s->index;
		r->ts_sec = pr.ts_sec;
		r->ts_nsec = pr.ts_nsec;
		r->caplen = pr.caplen;
		r->wirelen = pr.len > pr.caplen ? pr.len : pr.caplen;
		r->linktype = pr.linktype;
		r->data = pr.data;
		r->src = s;
		r->offset = (long)pr.offset;
		r->iface = s->pcapng ? (int32_t)pr.iface : -1;
		s->pos = (long)s->pf.pos; /* for the progress line */
		return 1;
	}
	if (rc == CAP_PF_END)
		return 0;
	if (rc == CAP_PF_OTHER)
		return -2;
	return read_error(s, (long)s->pf.err_offset, s->pf.err, s->pf.err_cut);
}

/* pcapfile.c met what libpcap should read: open the file with
 * libpcap and let it read up to where pcapfile.c stopped. */
static int read_on_with_libpcap(struct cap_source *s)
{
	char errbuf[PCAP_ERRBUF_SIZE], what[PCAP_ERRBUF_SIZE + 64];
	long at = (long)s->pf.pos;
	int fd = dup(s->fd);
	FILE *fp = NULL;

	if (fd >= 0 && lseek(fd, 0, SEEK_SET) == 0)
		fp = stream(s, fd);
	if (!fp) {
		snprintf(what, sizeof(what), "cannot read on with libpcap: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return read_error(s, at, what, 0);
	}
	pcap_t *p = pcap_fopen_offline_with_tstamp_precision(fp, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (!p) {
		fclose(fp);
		snprintf(what, sizeof(what), "cannot read on with libpcap: %s", errbuf);
		return read_error(s, at, what, 0);
	}
	s->pcap = p;
	s->fp = fp;
	for (uint64_t i = 0; i < s->index; i++) {
		struct pcap_pkthdr *h;
		const u_char *data;
		if (pcap_next_ex(p, &h, &data) != 1) {
			snprintf(what, sizeof(what), "libpcap reads the file differently: %s",
				 pcap_geterr(p));
			return read_error(s, at, what, 0);
		}
	}
	s->pos = stream_pos(fp);
	return 0;
}

static int time_out_of_range(struct cap_source *s, struct cap_record *r, long long sec,
			     long long ns)
{
	char what[200];
	snprintf(what, sizeof(what),
		 "timestamp out of range: %lld.%09lld s since 1970-01-01 UTC; expected a time "
		 "from 1970-01-01 to 2554-07-21 UTC",
		 sec, ns);
	r->src = s;
	r->offset = -1;
	return read_error(s, cap_record_offset(r), what, 0);
}

int cap_source_next(struct cap_source *s, struct cap_record *r)
{
	struct pcap_pkthdr *h;
	const u_char *data;

	if (cap_source_own(s)) {
		int rc;
		while ((rc = cap_source_next_own(s, r, s->pf.pos)) == -3)
			; /* nothing is kept on this thread: skip on */
		if (rc != -2)
			return rc;
		if (read_on_with_libpcap(s) != 0)
			return -1;
	}
	s->rec_start = s->pos;
	int rc = pcap_next_ex(s->pcap, &h, &data);
	if (rc == 1) {
		/* glibc answers ftell() from the stream's cached offset without
		 * a system call (a pipe gives -1: offsets unknown). */
		s->pos = s->pos >= 0 ? ftell(s->fp) : -1;
		/* With nanosecond precision, tv_usec holds nanoseconds, in
		 * full: a fraction field of a second or more is carried. */
		long long sec = (long long)h->ts.tv_sec, ns = (long long)h->ts.tv_usec;
		/* libpcap reads a pcap record's seconds as a signed 32-bit
		 * field; the format's is unsigned (times past 2038). */
		if (!s->pcapng)
			sec = (long long)(uint32_t)sec;
		if (sec < 0 || sec > MAX_SEC || ns < 0)
			return time_out_of_range(s, r, sec, ns);
		sec += ns / 1000000000;
		ns %= 1000000000;
		if (sec > MAX_SEC || (sec == MAX_SEC && ns > MAX_NSEC_AT_MAX_SEC))
			return time_out_of_range(s, r, sec, ns);
		s->index++;
		r->index = s->index;
		r->ts_sec = sec;
		r->ts_nsec = (uint32_t)ns;
		r->caplen = h->caplen;
		r->wirelen = h->len > h->caplen ? h->len : h->caplen;
		r->linktype = s->linktype;
		r->data = data;
		r->src = s;
		r->offset = -1;
		r->iface = -1;
		return 1;
	}
	if (rc == PCAP_ERROR_BREAK) /* end of file */
		return 0;

	char what[PCAP_ERRBUF_SIZE + 64];
	int cut = describe_read_error(pcap_geterr(s->pcap), what, sizeof(what));
	return read_error(s, s->rec_start, what, cut);
}

long cap_record_offset(const struct cap_record *r)
{
	const struct cap_source *s = r->src;

	if (!s)
		return -1;
	if (r->offset >= 0)
		return r->offset;
	if (s->rec_start < 0)
		return -1;
	if (!s->pcapng || s->pos < 12)
		return s->rec_start;
	/* A pcapng packet block may follow other blocks (name resolution,
	 * statistics) read in the same call; every block ends with its total
	 * length, so the packet block starts that many bytes before the
	 * current position. Only done for error messages. */
	uint8_t tail[4];
	if (pread(fileno(s->fp), tail, 4, (off_t)s->pos - 4) != 4)
		return s->rec_start;
	uint32_t be = rw_get_be32(tail), le = rw_get_le32(tail);
	/* The section's byte order is not exposed by libpcap: take whichever
	 * reading lands inside the span this call consumed. */
	for (int i = 0; i < 2; i++) {
		uint32_t len = i ? be : le;
		long start = s->pos - (long)len;
		if (len >= 12 && len % 4 == 0 && start >= s->rec_start)
			return start;
	}
	return s->rec_start;
}

void cap_source_close(struct cap_source *s)
{
	if (s->pcap)
		pcap_close(s->pcap); /* fclose()s the file, never stdin */
	else if (s->fp && s->fp != stdin)
		fclose(s->fp);
	cap_readring_close(&s->ring);
	s->own = 0;
	if (s->fd >= 0)
		close(s->fd);
	cap_pcapfile_close(&s->pf);
	free(s->iobuf);
	s->iobuf = NULL;
	s->pcap = NULL;
	s->fp = NULL;
	s->fd = -1;
}
