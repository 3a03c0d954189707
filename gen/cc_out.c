/* SPDX-License-Identifier: BSD-3-Clause */
/* The fct, pfc and qlen files of a simulated congestion run (cc_out.h).
 *
 * The columns follow the HPCC ns-3 simulator's fct.txt ("sip dip sport
 * dport size start_time fct standalone_fct"), pfc.txt ("time node type
 * ifindex pause|resume") and qlen output, with RoCE's names: QPNs where it
 * has ports, the PFC class and the frame's direction where it has a node
 * and an interface. One writer per format below, driven by the same
 * record, so that CSV and JSON Lines never disagree on a field. */
#include "cc_out.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tmpfile.h"

static const char *const file_keys[] = { "fct", "pfc", "qlen" };
_Static_assert(sizeof(file_keys) / sizeof(file_keys[0]) == CC_OUT_FILES, "file_keys: one entry per value");
static const char *const headers[] = {
	"flow,src,dst,src_qpn,dst_qpn,op,bytes,start_ns,end_ns,fct_ns,ideal_ns\n",
	"time_ns,dir,prio,event,quanta\n",
	"time_ns,prio,bytes\n",
};
_Static_assert(sizeof(headers) / sizeof(headers[0]) == CC_OUT_FILES, "headers: one entry per value");

static void drop_all(struct cc_out *o)
{
	for (int i = 0; i < CC_OUT_FILES; i++) {
		if (o->fp[i])
			fclose(o->fp[i]);
		if (o->tmp[i]) {
			unlink(o->tmp[i]);
			free(o->tmp[i]);
		}
		o->fp[i] = NULL;
		o->tmp[i] = NULL;
	}
}

int cc_out_open(struct cc_out *o, const struct gen_congestion_outputs *cfg, char *err, size_t errcap)
{
	char dummy[1];
	if (!err || !errcap)
		err = dummy, errcap = 1;
	const char *names[CC_OUT_FILES] = { cfg->fct, cfg->pfc, cfg->qlen };
	memset(o, 0, sizeof(*o));
	o->format = cfg->format;
	for (int i = 0; i < CC_OUT_FILES; i++) {
		if (!names[i][0])
			continue;
		snprintf(o->final[i], sizeof(o->final[i]), "%s", names[i]);
		o->fp[i] = cap_create_temp(o->final[i], ".part", &o->tmp[i]);
		if (!o->fp[i]) {
			int e = errno;
			drop_all(o);
			snprintf(err, errcap,
				 "%s: cannot create the %s file (written as %s.XXXXXX.part until complete): %s",
				 names[i], file_keys[i], names[i], strerror(e));
			return -1;
		}
		if (o->format == GEN_CC_CSV && fputs(headers[i], o->fp[i]) < 0)
			o->err_no[i] = errno ? errno : EIO;
	}
	return 0;
}

/* The first error of a file sticks; nothing more is written to it. */
static int wrote(struct cc_out *o, int i, int rc)
{
	if (rc < 0 && !o->err_no[i])
		o->err_no[i] = errno ? errno : EIO;
	return o->err_no[i] ? -1 : 0;
}

static FILE *file(struct cc_out *o, int i)
{
	return o->fp[i] && !o->err_no[i] ? o->fp[i] : NULL;
}

/* Flow names are letters, digits and -_. (sc_name); a caller's other text
 * is still quoted as each format needs. */
static void put_csv_text(FILE *fp, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

static void put_json_text(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(fp, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(fp, "\\u%04x", ch);
		else
			fputc(ch, fp);
	}
	fputc('"', fp);
}

static const char *ip_text(uint8_t af, const uint8_t *ip, char *buf, size_t cap)
{
	if (!ip || !inet_ntop(af == 6 ? AF_INET6 : AF_INET, ip, buf, (socklen_t)cap))
		snprintf(buf, cap, "?");
	return buf;
}

int cc_out_fct(struct cc_out *o, const struct cc_out_msg *m)
{
	FILE *fp = file(o, CC_OUT_FCT);
	if (!fp)
		return o->err_no[CC_OUT_FCT] ? -1 : 0;
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
	ip_text(m->af, m->src_ip, src, sizeof(src));
	ip_text(m->af, m->dst_ip, dst, sizeof(dst));
	unsigned long long fct = m->end_ns > m->start_ns ? m->end_ns - m->start_ns : 0;
	int rc;
	if (o->format == GEN_CC_CSV) {
		put_csv_text(fp, m->flow ? m->flow : "");
		rc = fprintf(fp, ",%s,%s,%u,%u,%s,%llu,%llu,%llu,%llu,%llu\n", src, dst, m->src_qpn, m->dst_qpn,
			     gen_op_name(m->op), (unsigned long long)m->bytes, (unsigned long long)m->start_ns,
			     (unsigned long long)m->end_ns, fct, (unsigned long long)m->ideal_ns);
	} else {
		fputs("{\"flow\":", fp);
		put_json_text(fp, m->flow ? m->flow : "");
		rc = fprintf(fp,
			     ",\"src\":\"%s\",\"dst\":\"%s\",\"src_qpn\":%u,\"dst_qpn\":%u,\"op\":\"%s\",\"bytes\":%llu,"
			     "\"start_ns\":%llu,\"end_ns\":%llu,\"fct_ns\":%llu,\"ideal_ns\":%llu}\n",
			     src, dst, m->src_qpn, m->dst_qpn, gen_op_name(m->op), (unsigned long long)m->bytes,
			     (unsigned long long)m->start_ns, (unsigned long long)m->end_ns, fct,
			     (unsigned long long)m->ideal_ns);
	}
	return wrote(o, CC_OUT_FCT, rc);
}

int cc_out_pfc(struct cc_out *o, uint64_t t_ns, uint8_t prio, uint16_t quanta, enum cc_sw_pfc_dir dir)
{
	FILE *fp = file(o, CC_OUT_PFC);
	if (!fp)
		return o->err_no[CC_OUT_PFC] ? -1 : 0;
	/* 802.1Qbb: a class's time 0 ends its pause (XON). */
	const char *ev = quanta ? "pause" : "resume";
	const char *d = dir == CC_SW_PFC_DOWNSTREAM ? "downstream" : "upstream";
	int rc;
	if (o->format == GEN_CC_CSV)
		rc = fprintf(fp, "%llu,%s,%u,%s,%u\n", (unsigned long long)t_ns, d, prio, ev, quanta);
	else
		rc = fprintf(fp, "{\"time_ns\":%llu,\"dir\":\"%s\",\"prio\":%u,\"event\":\"%s\",\"quanta\":%u}\n",
			     (unsigned long long)t_ns, d, prio, ev, quanta);
	return wrote(o, CC_OUT_PFC, rc);
}

int cc_out_pfc_frame(struct cc_out *o, const struct cc_sw_pfc *f)
{
	int rc = 0;
	for (uint8_t p = 0; p < CC_SW_PRIOS; p++)
		if (f->cev >> p & 1)
			rc |= cc_out_pfc(o, f->t_ns, p, f->quanta[p], (enum cc_sw_pfc_dir)f->dir);
	return rc ? -1 : 0;
}

int cc_out_qlen(struct cc_out *o, uint64_t t_ns, uint8_t prio, uint64_t bytes)
{
	FILE *fp = file(o, CC_OUT_QLEN);
	if (!fp)
		return o->err_no[CC_OUT_QLEN] ? -1 : 0;
	int rc;
	if (o->format == GEN_CC_CSV)
		rc = fprintf(fp, "%llu,%u,%llu\n", (unsigned long long)t_ns, prio, (unsigned long long)bytes);
	else
		rc = fprintf(fp, "{\"time_ns\":%llu,\"prio\":%u,\"bytes\":%llu}\n", (unsigned long long)t_ns, prio,
			     (unsigned long long)bytes);
	return wrote(o, CC_OUT_QLEN, rc);
}

int cc_out_qlen_sample(struct cc_out *o, const struct cc_sw_qlen *q, uint16_t prio_mask)
{
	int rc = 0;
	for (uint8_t p = 0; p < CC_SW_PRIOS; p++)
		if (prio_mask >> p & 1)
			rc |= cc_out_qlen(o, q->t_ns, p, q->bytes[p]);
	return rc ? -1 : 0;
}

int cc_out_close(struct cc_out *o, int commit, char *err, size_t errcap)
{
	int bad = -1, e = 0;
	char dummy[1];
	if (!err || !errcap)
		err = dummy, errcap = 1;
	if (!commit) {
		drop_all(o);
		return 0;
	}
	/* Every file complete on disk before any takes its final name. */
	for (int i = 0; i < CC_OUT_FILES; i++) {
		if (!o->fp[i])
			continue;
		if (fflush(o->fp[i]) != 0 && !o->err_no[i])
			o->err_no[i] = errno ? errno : EIO;
		if (ferror(o->fp[i]) && !o->err_no[i])
			o->err_no[i] = EIO;
		if (fclose(o->fp[i]) != 0 && !o->err_no[i])
			o->err_no[i] = errno ? errno : EIO;
		o->fp[i] = NULL;
		if (o->err_no[i] && bad < 0)
			bad = i, e = o->err_no[i];
	}
	if (bad >= 0) {
		drop_all(o);
		snprintf(err, errcap, "%s: write error, %s file not written: %s", o->final[bad], file_keys[bad],
			 strerror(e));
		return -1;
	}
	for (int i = 0; i < CC_OUT_FILES; i++) {
		if (!o->tmp[i] || rename(o->tmp[i], o->final[i]) == 0) {
			free(o->tmp[i]);
			o->tmp[i] = NULL;
			continue;
		}
		e = errno;
		/* All or none: the files renamed already are this run's, and
		 * a set missing one would pass for a whole run. */
		for (int j = 0; j < i; j++)
			if (o->final[j][0])
				unlink(o->final[j]);
		drop_all(o);
		snprintf(err, errcap, "%s: cannot rename the %s file into place: %s", o->final[i], file_keys[i],
			 strerror(e));
		return -1;
	}
	return 0;
}
