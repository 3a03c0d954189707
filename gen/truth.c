/* SPDX-License-Identifier: BSD-3-Clause */
/* The ground truth as JSON Lines: the tool's side of flow_truth.c. Each
 * line is written with one fprintf from fields the model filled; names and
 * addresses are formatted once per flow. The format is rocewire-gen(1)'s
 * TRUTH FILE section; tests/e2e/diff_oracle.py reads it. */
#include "truth.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rocewire/ext.h"
#include "rocewire/bth.h"
#include "rocewire/mad.h"
#include "rocewire/opcode.h"
#include "tmpfile.h"

struct flow_text {
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
};

struct gen_truth_out {
	const struct gen_scenario *sc;
	FILE *f;
	char *tmp;
	const char *path;
	struct flow_text *ft;
	int werr; /* errno of the first failed write */
};

static void ip_text(const struct gen_host *h, char *out)
{
	if (!inet_ntop(h->af == 6 ? AF_INET6 : AF_INET, h->ip, out, INET6_ADDRSTRLEN))
		strcpy(out, "?");
}

struct gen_truth_out *gen_truth_open(const char *path, const struct gen_scenario *sc, char *err, size_t errcap)
{
	struct gen_truth_out *o = calloc(1, sizeof(*o));
	if (!o || !(o->ft = calloc(sc->n_flows ? sc->n_flows : 1, sizeof(*o->ft)))) {
		snprintf(err, errcap, "--truth-jsonl: out of memory");
		free(o);
		return NULL;
	}
	o->sc = sc;
	o->path = path;
	for (uint32_t i = 0; i < sc->n_flows; i++) {
		ip_text(&sc->hosts[sc->flows[i].src], o->ft[i].src);
		ip_text(&sc->hosts[sc->flows[i].dst], o->ft[i].dst);
	}
	o->f = cap_create_temp(path, ".part", &o->tmp);
	if (!o->f) {
		snprintf(err, errcap, "--truth-jsonl: %s: %s", path, strerror(errno));
		free(o->ft);
		free(o);
		return NULL;
	}
	return o;
}

static const char *jbool(int v)
{
	return v ? "true" : "false";
}

static const char *aeth_kind(const struct gen_pkt *pk)
{
	switch (rw_aeth_kind_of(pk->f.aeth.syndrome)) {
	case RW_AETH_ACK:
		return "ack";
	case RW_AETH_RNR_NAK:
		return "rnr_nak";
	case RW_AETH_NAK:
		return rw_aeth_value_of(pk->f.aeth.syndrome) == RW_NAK_PSN_SEQ_ERROR ? "nak_psn_seq"
		       : rw_aeth_value_of(pk->f.aeth.syndrome) == RW_NAK_REMOTE_ACCESS ? "nak_remote_access"
										       : "nak_other";
	default:
		return "reserved";
	}
}

static void write_pfc(struct gen_truth_out *o, const struct gen_truth *r)
{
	const struct gen_pkt *pk = &r->pk;
	fprintf(o->f,
		"{\"id\":%llu,\"frame\":%llu,\"t_ns\":%llu,\"kind\":\"pfc\",\"dir\":\"%s\",\"cev\":%u,\"quanta\":[%u,%u,%u,"
		"%u,%u,%u,%u,%u],\"link_bps\":%.0f,\"len\":%u,\"captured\":true}\n",
		(unsigned long long)r->id, (unsigned long long)r->frame, (unsigned long long)pk->t_ns,
		pk->dir == GEN_DIR_RESPONSE ? "from_receiver" : "to_senders", pk->pfc_cev, pk->pfc_quanta[0],
		pk->pfc_quanta[1], pk->pfc_quanta[2], pk->pfc_quanta[3], pk->pfc_quanta[4], pk->pfc_quanta[5],
		pk->pfc_quanta[6], pk->pfc_quanta[7], o->sc->cc.sw.link_bps, pk->frame_len);
}

/* A CM message (flow_cm.c): the UD SEND Only on QP 1 it travels in, and
 * which message it is. */
static void write_cm(struct gen_truth_out *o, const struct gen_truth *r)
{
	const struct gen_pkt *pk = &r->pk;
	const struct gen_flow *fl = &o->sc->flows[pk->flow];
	const struct flow_text *ft = &o->ft[pk->flow];
	int rsp = pk->dir == GEN_DIR_RESPONSE;
	const char *ecn_names[4] = { "not_ect", "ect1", "ect0", "ce" };
	fprintf(o->f,
		"{\"id\":%llu,\"frame\":%llu,\"t_ns\":%llu,\"kind\":\"cm\",\"cm\":\"%s\",\"flow\":\"%s\",\"qp\":%u,"
		"\"src\":\"%s\",\"dst\":\"%s\",\"dqpn\":%u,\"sqpn\":%u,\"dir\":\"%s\",\"opcode\":%u,\"op\":\"%s\","
		"\"psn\":%u,\"len\":%u,\"payload\":%u,\"ecn\":\"%s\",\"local_comm_id\":%u,\"remote_comm_id\":%u,"
		"\"captured\":true}\n",
		(unsigned long long)r->id, (unsigned long long)r->frame, (unsigned long long)pk->t_ns, gen_cm_name(pk),
		fl->name, pk->qp, rsp ? ft->dst : ft->src, rsp ? ft->src : ft->dst, pk->f.dqpn, pk->f.deth.sqpn,
		rsp ? "response" : "request", pk->opcode, rw_opcode(pk->opcode)->name, pk->f.psn, pk->frame_len,
		pk->payload_len, ecn_names[fl->ecn & 3u], gen_cm_comm_id(pk->flow, pk->qp, rsp),
		pk->cm_msg == RW_CM_REQ ? 0u : gen_cm_comm_id(pk->flow, pk->qp, !rsp));
}

static void write_roce(struct gen_truth_out *o, const struct gen_truth *r)
{
	const struct gen_pkt *pk = &r->pk;
	const struct gen_flow *fl = &o->sc->flows[pk->flow];
	const struct flow_text *ft = &o->ft[pk->flow];
	const struct rw_opcode_info *op = rw_opcode(pk->opcode);
	int rsp = pk->dir == GEN_DIR_RESPONSE;
	char frame[24], ce_frame[24], msg[24], extra[96] = "";
	const char *ecn_names[4] = { "not_ect", "ect1", "ect0", "ce" };
	unsigned ecn = (pk->flags & GEN_PF_CE) ? 3u : (fl->ecn & 3u);

	snprintf(frame, sizeof(frame), r->frame ? "%llu" : "null", (unsigned long long)r->frame);
	snprintf(ce_frame, sizeof(ce_frame), r->ce_frame ? "%llu" : "null", (unsigned long long)r->ce_frame);
	snprintf(msg, sizeof(msg), r->msg ? "%llu" : "null", (unsigned long long)r->msg);
	if (pk->hdrs & RW_HDR_AETH)
		snprintf(extra, sizeof(extra), ",\"aeth\":\"%s\",\"msn\":%u", aeth_kind(pk), pk->f.aeth.msn);
	else if (op->op == RW_OP_READ_REQ)
		/* the PSNs its responses take (IBA 9.7.4.1.4: one per MTU) */
		snprintf(extra, sizeof(extra), ",\"dmalen\":%u,\"psns\":%u", pk->f.reth.dmalen,
			 pk->f.reth.dmalen ? (pk->f.reth.dmalen + gen_flow_mtu(fl) - 1) / gen_flow_mtu(fl) : 1);
	else if (pk->hdrs & RW_HDR_RETH)
		snprintf(extra, sizeof(extra), ",\"dmalen\":%u", pk->f.reth.dmalen);
	fprintf(o->f,
		"{\"id\":%llu,\"frame\":%s,\"t_ns\":%llu,\"kind\":\"roce\",\"flow\":\"%s\",\"qp\":%u,"
		"\"src\":\"%s\",\"dst\":\"%s\",\"dqpn\":%u,\"sqpn\":%u,\"dir\":\"%s\",\"opcode\":%u,\"op\":\"%s\","
		"\"psn\":%u,\"ackreq\":%s,\"len\":%u,\"payload\":%u%s,\"ecn\":\"%s\",\"captured\":%s,\"drop\":%s,"
		"\"corrupt\":%s,\"lost\":%s,\"resend\":%s%s%s,\"tx\":%u,\"episode\":%u,\"msg\":%s,\"completes\":%s,"
		"\"taken\":%s,\"paused\":%s,\"ce_frame\":%s}\n",
		(unsigned long long)r->id, frame, (unsigned long long)pk->t_ns, fl->name, pk->qp, rsp ? ft->dst : ft->src,
		rsp ? ft->src : ft->dst, pk->f.dqpn, (rsp ? fl->dst_qpn + pk->qp : fl->src_qpn + pk->qp) & RW_QPN_MASK,
		rsp ? "response" : "request", pk->opcode, op->name, pk->f.psn, jbool(pk->f.ackreq), pk->frame_len,
		(op->flags & RW_OPF_PAYLOAD) ? pk->payload_len : 0, extra, ecn_names[ecn], jbool(r->frame != 0),
		r->drop == GEN_TD_FAULT ? "\"fault\"" : r->drop == GEN_TD_SWITCH ? "\"switch\"" : "null",
		jbool(pk->flags & GEN_PF_CORRUPT), jbool(r->lost), pk->resend ? "\"" : "null",
		pk->resend ? gen_resend_cause_name((enum gen_resend_cause)r->cause) : "", pk->resend ? "\"" : "",
		r->tx, r->episode, msg, r->completes < 0 ? "null" : jbool(r->completes),
		r->completes < 0 ? "null" : jbool(r->taken), jbool(r->paused), ce_frame);
}

int gen_truth_write(struct gen_truth_out *o, const struct gen_truth *r, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (r[i].pk.kind == GEN_PK_PFC)
			write_pfc(o, &r[i]);
		else if (r[i].pk.kind == GEN_PK_CM)
			write_cm(o, &r[i]);
		else
			write_roce(o, &r[i]);
	}
	if (ferror(o->f) && !o->werr)
		o->werr = errno ? errno : EIO;
	return o->werr ? -1 : 0;
}

int gen_truth_close(struct gen_truth_out *o, int commit, char *err, size_t errcap)
{
	int rc = 0;
	err[0] = '\0';
	if (fclose(o->f) != 0 && !o->werr)
		o->werr = errno;
	if (commit && o->werr) {
		snprintf(err, errcap, "--truth-jsonl: %s: %s", o->path, strerror(o->werr));
		rc = -1;
	} else if (commit && rename(o->tmp, o->path) != 0) {
		snprintf(err, errcap, "--truth-jsonl: %s: %s", o->path, strerror(errno));
		rc = -1;
	}
	if (!commit || rc != 0)
		unlink(o->tmp);
	free(o->tmp);
	free(o->ft);
	free(o);
	return rc;
}
