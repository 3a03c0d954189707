/* Offline source: pcap and pcapng files read with libpcap, timestamps at
 * nanosecond precision, and the byte offset of every record kept so that
 * errors can point into the file. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "cap.h"
#include "prefetch.h"

/* stdio buffer for the input: fewer read() calls for small records. */
#define CAP_INPUT_BUF (1u << 18)

static int linktype_supported(int lt)
{
	/* pcap_datalink() returns DLT_ values; for these five the DLT and
	 * LINKTYPE numbers are the same. */
	return lt == RW_LINKTYPE_ETHERNET || lt == RW_LINKTYPE_LINUX_SLL ||
	       lt == RW_LINKTYPE_LINUX_SLL2 || lt == RW_LINKTYPE_ERF ||
	       lt == RW_LINKTYPE_INFINIBAND;
}

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

/* Opens the input as a stdio stream for libpcap, with a large buffer.
 * (Mapping the file and reading it through fmemopen() was measured: no
 * faster than read(), and a file truncated under the mapping would SIGBUS.) */
static FILE *open_input(struct cap_source *s, const char *path, struct stat *st)
{
	int fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY);
	FILE *fp;

	if (fd < 0) {
		snprintf(s->err, sizeof(s->err), "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, st) != 0) {
		snprintf(s->err, sizeof(s->err), "%s: cannot open: %s", path, strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st->st_mode)) {
		snprintf(s->err, sizeof(s->err), "%s: is a directory, expected a pcap or pcapng file",
			 path);
		goto fail;
	}
	if (fd == STDIN_FILENO)
		return stdin; /* keeps its own buffer: it outlives this source */
	if (S_ISREG(st->st_mode) && st->st_size >= CAP_PREFETCH_MIN) {
		/* Large files: the kernel's copy runs on the other core. */
		close(fd);
		fp = cap_prefetch_open(path, &s->prefetch);
		if (!fp)
			snprintf(s->err, sizeof(s->err), "%s: cannot open: %s", path,
				 strerror(errno));
		return fp;
	}
	fp = fdopen(fd, "rb");
	if (!fp) {
		snprintf(s->err, sizeof(s->err), "%s: cannot open: %s", path, strerror(errno));
		goto fail;
	}
	/* glibc ignores the size when setvbuf() is given no buffer */
	s->iobuf = malloc(CAP_INPUT_BUF);
	if (s->iobuf)
		setvbuf(fp, s->iobuf, _IOFBF, CAP_INPUT_BUF);
	return fp;
fail:
	if (fd != STDIN_FILENO)
		close(fd);
	return NULL;
}

int cap_offline_open(struct cap_source *s, const char *path)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct stat st;
	FILE *fp;

	memset(s, 0, sizeof(*s));
	s->name = path;
	s->pos = -1;
	s->rec_start = -1;
	s->size = -1;
	s->err_status = CAP_EXIT_USAGE;

	fp = open_input(s, path, &st);
	if (!fp)
		return -1;
	if (S_ISREG(st.st_mode))
		s->size = (long)st.st_size;

	pcap_t *p = pcap_fopen_offline_with_tstamp_precision(fp, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (!p) {
		if (strstr(errbuf, "unknown file format")) {
			snprintf(s->err, sizeof(s->err),
				 "%s: not a pcap or pcapng file (unknown magic number at byte offset 0)",
				 path);
		} else if (S_ISREG(st.st_mode) && st.st_size == 0) {
			snprintf(s->err, sizeof(s->err),
				 "%s: empty file, expected a pcap or pcapng file header at byte offset 0",
				 path);
		} else if (strstr(errbuf, "truncated") && S_ISREG(st.st_mode)) {
			snprintf(s->err, sizeof(s->err),
				 "%s: file header truncated: the file ends at byte offset %lld, "
				 "expected a complete pcap or pcapng file header (%s)",
				 path, (long long)st.st_size, errbuf);
		} else if (strstr(errbuf, "truncated")) {
			snprintf(s->err, sizeof(s->err),
				 "%s: file header truncated, expected a complete pcap or pcapng "
				 "file header (%s)",
				 path, errbuf);
		} else {
			snprintf(s->err, sizeof(s->err), "%s: cannot read as pcap/pcapng: %s", path,
				 errbuf);
		}
		s->fp = fp;
		cap_source_close(s);
		return -1;
	}
	s->pcap = p;
	s->fp = fp;
	s->linktype = pcap_datalink(p);
	/* libpcap reports a pcapng section's version (1.0) as the file
	 * version; classic pcap files are 2.x. */
	s->pcapng = pcap_major_version(p) == 1;
	/* glibc's ftell() answers from the stream's cached offset, without an
	 * lseek() system call, only once a seek has set that cache: seek to
	 * where we are. (On a pipe both fail and offsets stay unknown.) */
	s->pos = ftell(fp);
	if (!s->prefetch && s->pos >= 0 && fseek(fp, s->pos, SEEK_SET) != 0)
		s->pos = -1;

	if (!linktype_supported(s->linktype)) {
		/* libpcap gives the DLT value, which differs from the file's
		 * LINKTYPE number for some types (raw IP: DLT 12, LINKTYPE
		 * 101): name it rather than print a misleading number. */
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
		cap_source_close(s);
		return -1;
	}
	return 0;
}

int cap_source_next(struct cap_source *s, struct cap_record *r)
{
	struct pcap_pkthdr *h;
	const u_char *data;

	s->rec_start = s->pos;
	int rc = pcap_next_ex(s->pcap, &h, &data);
	if (rc == 1) {
		s->index++;
		/* glibc answers ftell() from the stream's cached offset without
		 * a system call (a pipe gives -1: offsets unknown). */
		s->pos = s->pos >= 0 ? ftell(s->fp) : -1;
		r->index = s->index;
		r->ts_sec = (int64_t)h->ts.tv_sec;
		/* with nanosecond precision, tv_usec holds nanoseconds */
		r->ts_nsec = (uint32_t)h->ts.tv_usec;
		r->caplen = h->caplen;
		r->wirelen = h->len > h->caplen ? h->len : h->caplen;
		r->linktype = s->linktype;
		r->data = data;
		r->src = s;
		return 1;
	}
	if (rc == PCAP_ERROR_BREAK) /* end of file */
		return 0;

	char what[PCAP_ERRBUF_SIZE + 64];
	int cut = describe_read_error(pcap_geterr(s->pcap), what, sizeof(what));
	if (s->rec_start >= 0)
		snprintf(s->err, sizeof(s->err), "%s: packet %" PRIu64 " at byte offset %ld: %s",
			 s->name, s->index + 1, s->rec_start, what);
	else
		snprintf(s->err, sizeof(s->err), "%s: packet %" PRIu64 ": %s", s->name,
			 s->index + 1, what);
	s->cut = cut;
	s->err_status = CAP_EXIT_PROBLEM;
	return -1;
}

long cap_record_offset(const struct cap_record *r)
{
	const struct cap_source *s = r->src;

	if (!s || s->rec_start < 0)
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
	if (s->prefetch)
		cap_prefetch_close(s->prefetch, s->fp, s->pcap != NULL);
	else if (!s->pcap && s->fp && s->fp != stdin)
		fclose(s->fp);
	s->prefetch = NULL;
	free(s->iobuf);
	s->iobuf = NULL;
	s->pcap = NULL;
	s->fp = NULL;
}
