/* rocewire-cap: the pieces shared by the sources (offline files now, live
 * interfaces later), the per-packet dissector, the printers and the summary.
 *
 * Flow: a source yields cap_records (bytes + timestamp + where they came
 * from); cap_dissect() decodes each one with rw_packet_decode(), counts it,
 * reports decode problems on stderr and hands it to the chosen printer, which
 * appends text to one cap_out buffer. Nothing in the per-packet path
 * allocates except the JSON printer (jansson). */
#ifndef ROCEWIRE_CAP_H
#define ROCEWIRE_CAP_H

#include <stdint.h>
#include <stdio.h>
#include <pcap/pcap.h>
#include <rocewire.h>

#define CAP_PROG "rocewire-cap"

/* Exit status (documented in --help and the man page). */
#define CAP_EXIT_OK 0
#define CAP_EXIT_PROBLEM 1 /* bad ICRC/VCRC, a decode error, a cut file */
#define CAP_EXIT_USAGE 2   /* bad options, unreadable input, output failure */

enum cap_format {
	CAP_FMT_LINE = 0,
	CAP_FMT_VERBOSE,
	CAP_FMT_JSON,
};

struct cap_opts {
	const char **files;     /* inputs, decoded in turn */
	size_t n_files;
	enum cap_format format;
	int quiet;              /* no per-packet output, summary only */
	uint64_t count;         /* stop after this many packets in all; 0: no limit */
	unsigned max_warnings;  /* per-packet stderr lines per input; 0: no limit */
	struct rw_decode_cfg cfg;
};

/* ---- output buffer ------------------------------------------------------ */

/* Everything printed per packet goes through one large buffer written with
 * fwrite when it fills: printf and stdio per field cost more than decoding. */
#define CAP_OUT_SIZE (1u << 20)
/* Room a printer may use for one packet without checking (line, verbose). */
#define CAP_PKT_MAX 16384u

struct cap_out {
	char *buf;
	size_t len;
	size_t cap;
	FILE *fp;
	int failed;             /* a write failed; errno_saved says why */
	int errno_saved;
};

int cap_out_init(struct cap_out *o, FILE *fp, size_t cap);
void cap_out_flush(struct cap_out *o);
void cap_out_free(struct cap_out *o);

/* Returns where to write at least `need` bytes (need <= cap). */
static inline char *cap_out_begin(struct cap_out *o, size_t need)
{
	if (o->cap - o->len < need)
		cap_out_flush(o);
	return o->buf + o->len;
}

static inline void cap_out_end(struct cap_out *o, char *p)
{
	o->len = (size_t)(p - o->buf);
}

/* ---- records from a source ---------------------------------------------- */

struct cap_source;

struct cap_record {
	uint64_t index;         /* 1-based packet number within its source */
	int64_t ts_sec;
	uint32_t ts_nsec;
	uint32_t caplen;
	uint32_t wirelen;       /* never below caplen */
	int linktype;           /* RW_LINKTYPE_* */
	const uint8_t *data;
	struct cap_source *src; /* for cap_record_offset() */
};

/* Where records come from: a pcap or pcapng file, or "-" for stdin
 * (cap_offline_open). A live interface will fill the same fields, with no
 * file (fp NULL, pos -1: messages then give the packet number only). */
struct cap_source {
	const char *name;
	pcap_t *pcap;
	FILE *fp;
	char *iobuf;            /* stdio buffer of fp */
	int linktype;
	int pcapng;
	uint64_t index;         /* records returned so far */
	long pos;               /* file position after the last record; -1 unknown */
	long rec_start;         /* position before the current record */
	char err[512];          /* the one-line message when open/next fail */
	int err_status;         /* exit status the failure deserves */
	int cut;                /* the failure was a file ending inside a record */
};

/* 0 when open; -1 with s->err (a full line naming the file) and s->err_status. */
int cap_offline_open(struct cap_source *s, const char *path);
/* 1: *r holds the next record; 0: end of file; -1: read error, s->err holds
 * the line (file, packet number, byte offset, what was expected). */
int cap_source_next(struct cap_source *s, struct cap_record *r);
/* Byte offset of the current record in its file, or -1 when unknown (a pipe). */
long cap_record_offset(const struct cap_record *r);
void cap_source_close(struct cap_source *s);

/* ---- statistics and the closing summary --------------------------------- */

#define CAP_ERR_KINDS 8
#define CAP_ERR_PLACES 48 /* enum rw_layer, then 32 + extension header bit */

struct cap_stats {
	uint64_t packets;
	uint64_t files_read;
	uint64_t files_cut;     /* files that ended inside a record */
	uint64_t carrier[RW_CARRIER_COUNT];
	uint64_t opcode[256];
	uint64_t icrc[3];       /* enum rw_crc_status, for RoCE and IB packets */
	uint64_t vcrc[3];       /* native IB packets */
	uint64_t decode_errors;
	uint64_t errors[CAP_ERR_KINDS][CAP_ERR_PLACES];
	uint64_t truncated;     /* caplen < wire length (cut by the snapshot length) */
};

void cap_stats_add(struct cap_stats *st, const struct rw_packet *p, const struct cap_record *r);
void cap_summary_print(const struct cap_stats *st, FILE *fp);

/* ---- time formatting ---------------------------------------------------- */

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

/* ---- the per-packet driver and printers --------------------------------- */

struct cap_json;

struct cap_ctx {
	const struct cap_opts *opts;
	struct cap_out out;
	struct cap_stats stats;
	struct cap_clock clock;
	struct cap_json *json;
	const char *file;       /* current input, for messages */
	unsigned warnings;      /* per-packet stderr lines for the current input */
	uint64_t warnings_hidden;
	int multi_file;         /* several inputs: JSON objects carry "file" */
	int status;             /* worst exit status so far */
	struct rw_packet pkt;
};

int cap_ctx_init(struct cap_ctx *c, const struct cap_opts *opts);
void cap_ctx_free(struct cap_ctx *c);
/* Per-input bookkeeping: resets the warning budget, reports hidden warnings. */
void cap_ctx_begin_input(struct cap_ctx *c, const char *name);
void cap_ctx_end_input(struct cap_ctx *c);
/* Decodes, counts, reports and prints one record. */
void cap_dissect(struct cap_ctx *c, const struct cap_record *r);
/* A one-line message on stderr, after flushing what stdout has pending so the
 * two streams stay in order on a terminal. */
void cap_ctx_error(struct cap_ctx *c, const char *line);

/* The decoder reached the payload: its lengths are meaningful. */
static inline int cap_payload_known(const struct rw_packet *p)
{
	return (p->present & RW_P_BTH) && p->op && (p->op->flags & RW_OPF_PAYLOAD) &&
	       (p->err == RW_OK || p->err_layer >= RW_L_PAYLOAD);
}

static inline void cap_set_status(struct cap_ctx *c, int status)
{
	if (status > c->status)
		c->status = status;
}

/* Error sentence for a packet that did not decode to its end, with the
 * snapshot-length context when it was cut: "cut by snaplen to 60 of 1086
 * bytes: BTH truncated at byte 54: ...". */
const char *cap_packet_problem(const struct rw_packet *p, const struct cap_record *r, char *buf,
			       size_t cap);

void cap_print_line(struct cap_ctx *c, const struct cap_record *r, const struct rw_packet *p);
void cap_print_verbose(struct cap_ctx *c, const struct cap_record *r, const struct rw_packet *p);

struct cap_json *cap_json_new(void);
void cap_json_free(struct cap_json *j);
void cap_print_json(struct cap_ctx *c, const struct cap_record *r, const struct rw_packet *p);

#endif
