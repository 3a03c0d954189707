/* SPDX-License-Identifier: BSD-3-Clause */
/* Counters kept per packet and the closing summary printed on stderr. */
#include <ctype.h>
#include <inttypes.h>

#include "fmt.h"
#include "summary.h"

static unsigned err_place(const struct rw_packet *p)
{
	if (p->err_layer == RW_L_EXT && p->err_hdr) {
		for (unsigned b = 0; b < RW_HDR_COUNT; b++)
			if ((unsigned)p->err_hdr == 1u << b)
				return 32 + b;
	}
	return (unsigned)p->err_layer < 32 ? (unsigned)p->err_layer : 0;
}

void cap_stats_add(struct cap_stats *st, const struct rw_packet *p, const struct cap_record *r)
{
	st->packets++;
	st->bytes += r->wirelen;
	st->carrier[(unsigned)p->carrier < RW_CARRIER_COUNT ? p->carrier : 0]++;
	if (p->present & RW_P_BTH)
		st->opcode[p->bth.opcode]++;
	if (p->carrier == RW_CARRIER_ROCEV2 || p->carrier == RW_CARRIER_ROCEV1 ||
	    p->carrier == RW_CARRIER_IB)
		st->icrc[(unsigned)p->icrc_status <= RW_CRC_BAD ? p->icrc_status : 0]++;
	if (p->carrier == RW_CARRIER_IB)
		st->vcrc[(unsigned)p->vcrc_status <= RW_CRC_BAD ? p->vcrc_status : 0]++;
	if (p->err != RW_OK) {
		st->decode_errors++;
		st->errors[(unsigned)p->err < CAP_ERR_KINDS ? p->err : 0][err_place(p)]++;
	}
	if (r->caplen < r->wirelen)
		st->truncated++;
}

/* Every counter of struct cap_stats but packets (the consumer's) and the
 * per-capture ones: a field added there must be added here. */
_Static_assert(sizeof(struct cap_stats) ==
		       sizeof(const char *) + (4 + RW_CARRIER_COUNT + 256 + 3 + 3 + 1 +
					       CAP_ERR_KINDS * CAP_ERR_PLACES + 2) * sizeof(uint64_t),
	       "struct cap_stats changed: merge the new counter in cap_stats_merge");

void cap_stats_merge(struct cap_stats *to, const struct cap_stats *from)
{
	to->bytes += from->bytes;
	for (int i = 0; i < RW_CARRIER_COUNT; i++)
		to->carrier[i] += from->carrier[i];
	for (int i = 0; i < 256; i++)
		to->opcode[i] += from->opcode[i];
	for (int i = 0; i < 3; i++) {
		to->icrc[i] += from->icrc[i];
		to->vcrc[i] += from->vcrc[i];
	}
	to->decode_errors += from->decode_errors;
	for (int k = 0; k < CAP_ERR_KINDS; k++)
		for (int i = 0; i < CAP_ERR_PLACES; i++)
			to->errors[k][i] += from->errors[k][i];
	to->truncated += from->truncated;
	to->undecoded += from->undecoded;
}

static void place_name(unsigned place, char *buf, size_t cap)
{
	if (place >= 32) {
		const char *n = rw_hdr_name((enum rw_hdr)(1u << (place - 32)));
		size_t i = 0;
		for (; n[i] && i + 1 < cap; i++)
			buf[i] = (char)toupper((unsigned char)n[i]);
		buf[i] = '\0';
	} else {
		snprintf(buf, cap, "%s", rw_layer_name((enum rw_layer)place));
	}
}

void cap_summary_print(const struct cap_stats *st, const char *prog, FILE *fp)
{
	if (st->live) {
		char name[CAP_ESC_SIZE(256)];
		fprintf(fp, "%s: %" PRIu64 " packet%s captured on %s\n", prog, st->packets,
			st->packets == 1 ? "" : "s", cap_esc(name, sizeof(name), st->live));
	} else {
		fprintf(fp, "%s: %" PRIu64 " packet%s read from %" PRIu64 " file%s\n", prog,
			st->packets, st->packets == 1 ? "" : "s", st->files_read,
			st->files_read == 1 ? "" : "s");
	}

	fputs("  carriers:", fp);
	int any = 0;
	for (int i = 0; i < RW_CARRIER_COUNT; i++) {
		if (!st->carrier[i])
			continue;
		fprintf(fp, "%s %s %" PRIu64, any ? "," : "", rw_carrier_name((enum rw_carrier)i),
			st->carrier[i]);
		any = 1;
	}
	fputs(any ? "\n" : " none\n", fp);

	any = 0;
	for (int i = 0; i < 256; i++)
		any |= st->opcode[i] != 0;
	fprintf(fp, "  opcodes:%s\n", any ? "" : " none");
	for (int i = 0; i < 256; i++) {
		if (st->opcode[i])
			fprintf(fp, "    0x%02x %-35s %" PRIu64 "\n", i, rw_opcode((uint8_t)i)->name,
				st->opcode[i]);
	}

	fprintf(fp, "  icrc: %" PRIu64 " ok, %" PRIu64 " bad, %" PRIu64 " not verified\n",
		st->icrc[RW_CRC_OK], st->icrc[RW_CRC_BAD], st->icrc[RW_CRC_NONE]);
	fprintf(fp, "  vcrc: %" PRIu64 " ok, %" PRIu64 " bad, %" PRIu64 " not verified\n",
		st->vcrc[RW_CRC_OK], st->vcrc[RW_CRC_BAD], st->vcrc[RW_CRC_NONE]);

	fprintf(fp, "  decode errors: %" PRIu64, st->decode_errors);
	if (st->decode_errors) {
		const char *sep = " (";
		for (int k = 0; k < CAP_ERR_KINDS; k++) {
			for (unsigned pl = 0; pl < CAP_ERR_PLACES; pl++) {
				if (!st->errors[k][pl])
					continue;
				char name[32];
				place_name(pl, name, sizeof(name));
				fprintf(fp, "%s%s %s %" PRIu64, sep, rw_strerror((enum rw_err)k), name,
					st->errors[k][pl]);
				sep = ", ";
			}
		}
		fputc(')', fp);
	}
	fputc('\n', fp);
	fprintf(fp, "  truncated packets: %" PRIu64 " (cut by the snapshot length)\n", st->truncated);
	if (st->undecoded)
		fprintf(fp,
			"  not decoded: %" PRIu64 " packets, written to the file but not decoded while "
			"the decoder was behind the link (the counts above leave their carriers, opcodes, "
			"ICRCs and errors out; read the file with -r for them)\n",
			st->undecoded);
	if (st->files_cut)
		fprintf(fp, "  truncated files: %" PRIu64 "\n", st->files_cut);
}
