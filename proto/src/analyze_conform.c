/* SPDX-License-Identifier: BSD-3-Clause */
/* Conformance and recovery: what Lumina (SIGCOMM 2023) checks with a switch
 * that tags every packet, judged here from an ordinary capture.
 *
 * Go-back-N (IBA 9.7.5.2.2 and C9-?: a responder that sees a PSN beyond
 * the expected one NAKs once with the expected PSN and then discards until
 * that PSN arrives; the requester resends from the NAKed PSN): one NAK per
 * hole, naming a PSN that is neither acknowledged already nor unsent; ACK
 * PSNs and MSNs that never go back; the resend starting at the NAKed PSN; a
 * READ re-issued at the first response PSN not received, with its address
 * and length advanced by what was received (IBA 9.7.5.1.4 / o9-?).
 *
 * Recovery latencies: NAK generation (the first request beyond the hole,
 * i.e. the first the responder found out of sequence -> its NAK), NAK
 * response (NAK -> the first resent packet), retransmission (first send of
 * a PSN -> its resend), and timeout-driven resends (no NAK since the last
 * go-back) told apart from NAK- and RNR-driven ones.
 *
 * A NAK nobody answered: rxe's responder NAKs a hole once and then discards
 * every request until the NAKed PSN comes; a requester that goes on with new
 * requests and never resends it (nor goes back on its timer) leaves the QP
 * stuck. Judged when the capture ends, by the requester's timeout: the
 * configured one, or the largest request -> resend time the flow itself
 * showed (a slower timer), so that a capture ending before the timer could
 * fire, or a requester whose timer is slow, is not blamed.
 *
 * CNP pacing (DCQCN notification point): at most one CNP per cnp_min_ns per
 * pacing key (the QP, the IP pair, or the destination IP, as NICs offer);
 * a CE mark the pacing allowed a CNP for must get one within cnp_window_ns;
 * and whether the NIC sends its CNP together with a NAK. */
#include <string.h>

#include "analyze_int.h"

const char *rw_cnp_mode_key(enum rw_cnp_mode m)
{
	static const char *const k[] = {"qp", "ip_pair", "dest_ip"};
	_Static_assert(sizeof(k) / sizeof(k[0]) == RW_CNP_MODES, "k: one entry per value");
	return (unsigned)m < RW_CNP_MODES ? k[m] : "?";
}

const char *rw_violation_key(enum rw_violation v)
{
	static const char *const k[] = {
		"dup_nak", "nak_wrong_psn", "ack_backwards", "msn_backwards",
		"resend_wrong_start", "read_resume_wrong", "cnp_too_often", "ce_without_cnp",
		"nak_ignored",
	};
	_Static_assert(sizeof(k) / sizeof(k[0]) == RW_V_COUNT, "k: one entry per value");
	return (unsigned)v < RW_V_COUNT ? k[v] : "?";
}

const char *rw_violation_text(enum rw_violation v)
{
	static const char *const k[] = {
		"second PSN-sequence NAK for the same hole before its resend",
		"sequence NAK names a PSN acknowledged already or never sent",
		"ACK PSN went backwards",
		"ACK MSN went backwards",
		"resend did not restart at the NAKed PSN",
		"READ re-issued at the wrong PSN, address or length",
		"CNP sooner than the minimum interval of its pacing key",
		"CE mark the pacing allowed a CNP for got none",
		"sequence NAK never answered while new requests went on past the retransmission timeout",
	};
	_Static_assert(sizeof(k) / sizeof(k[0]) == RW_V_COUNT, "k: one entry per value");
	return (unsigned)v < RW_V_COUNT ? k[v] : "?";
}

static struct rw_conform *conf_get(struct rw_analyzer *a, struct rw_flow *f)
{
	if (!f->conf)
		f->conf = an_alloc(a, sizeof(*f->conf), 0);
	return f->conf;
}

void conf_release(struct rw_analyzer *a, struct rw_flow *f)
{
	if (!f->conf)
		return;
	lat_release(a, &f->conf->nak_gen);
	lat_release(a, &f->conf->nak_resp);
	lat_release(a, &f->conf->retx);
	lat_release(a, &f->conf->timeout);
	an_free(a, f->conf, sizeof(*f->conf));
	f->conf = NULL;
}

void conf_violations(struct rw_analyzer *a, struct rw_flow *f, enum rw_violation v,
		     uint64_t frame, uint64_t n)
{
	struct rw_conform *c = conf_get(a, f);
	if (!c || !n)
		return;
	if (c->count[v] < RW_V_FRAMES)
		c->frames[v][c->count[v]] = frame;
	c->count[v] += n;
}

void conf_violation(struct rw_analyzer *a, struct rw_flow *f, enum rw_violation v, uint64_t frame)
{
	conf_violations(a, f, v, frame, 1);
}

static void conf_lat(struct rw_analyzer *a, struct rw_flow *f, size_t off, uint64_t v)
{
	struct rw_conform *c = conf_get(a, f);
	if (c)
		lat_add(a, (struct rw_lat *)((char *)c + off), v);
}

/* An ACK (not a NAK) for q's requests. */
void conf_on_ack(struct rw_analyzer *a, struct rw_flow *q, uint32_t psn, uint64_t frame)
{
	/* The responder took the NAKed PSN: it was resent (where the capture
	 * did not see it), whatever the requester's ICRC check made of this. */
	if (q->cs.nign_valid && rw_psn_diff(psn, q->cs.nign_psn) >= 0)
		q->cs.nign_valid = 0;
	/* A duplicate request is answered again with its own PSN (IBA
	 * 9.7.5.1.3): an ACK below an earlier one is only wrong when no resend
	 * of that PSN is waiting for it. */
	if (q->cs.ack_valid && rw_psn_diff(psn, q->cs.last_ack_psn) < 0) {
		if (!q->req.in_resend)
			conf_violation(a, q, RW_V_ACK_BACKWARDS, frame);
		return;
	}
	q->cs.ack_valid = 1;
	q->cs.last_ack_psn = psn;
}

/* Appends (t, v, and psn p when the history keeps PSNs) to a history of
 * RW_CONF_HIST, the oldest giving way (its time to *evicted when asked). */
static void hist_push(uint64_t *ts, uint8_t *tag, uint32_t *psn, uint8_t *n, uint64_t t, uint8_t v, uint32_t p,
		      uint64_t *evicted)
{
	if (*n == RW_CONF_HIST) {
		if (evicted)
			*evicted = ts[0];
		memmove(ts, ts + 1, sizeof(ts[0]) * (RW_CONF_HIST - 1));
		memmove(tag, tag + 1, RW_CONF_HIST - 1);
		if (psn)
			memmove(psn, psn + 1, sizeof(psn[0]) * (RW_CONF_HIST - 1));
		(*n)--;
	}
	ts[*n] = t;
	if (psn)
		psn[*n] = p;
	tag[(*n)++] = v;
}

/* A sequence NAK q got, at psn: the requester has to resend from there. */
static void nign_open(struct rw_flow *q, uint32_t psn, uint64_t ts, uint64_t frame)
{
	q->cs.nign_valid = 1;
	q->cs.nign_judged = 0;
	q->cs.nign_psn = psn;
	q->cs.nign_ts = ts;
	q->cs.nign_frame = frame;
	q->cs.nign_req_ts = q->cs.nign_req_frame = 0;
}

static uint64_t flow_rto(const struct rw_analyzer *a, const struct rw_flow *f)
{
	uint64_t own = f->conf ? f->conf->retx.max_ns : 0;
	return own > a->cfg.rto_ns ? own : a->cfg.rto_ns;
}

/* A request of q while a sequence NAK waits for its answer: a go-back or
 * the NAKed PSN itself answers it; a new request beyond it later than the
 * timeout after the NAK is the first evidence the requester let the NAK
 * go (kept until the end judges it: the timeout may still grow). */
static void nign_request(const struct rw_analyzer *a, struct rw_flow *f, uint32_t psn,
			 uint32_t flags, uint64_t ts, uint64_t frame)
{
	if (!f->cs.nign_valid)
		return;
	if ((flags & RW_N_GBN_START) || psn == f->cs.nign_psn) {
		f->cs.nign_valid = 0;
		return;
	}
	if (!(flags & RW_N_NEW) || (flags & (RW_N_RETRANS | RW_N_OOO)) ||
	    rw_psn_diff(psn, f->cs.nign_psn) <= 0)
		return;
	uint64_t rto = flow_rto(a, f);
	/* A slower timer shown since: the one found is not past it. */
	if (f->cs.nign_req_frame && f->cs.nign_req_ts - f->cs.nign_ts <= rto)
		f->cs.nign_req_frame = 0;
	if (!f->cs.nign_req_frame && ts - f->cs.nign_ts > rto) {
		f->cs.nign_req_ts = ts;
		f->cs.nign_req_frame = frame;
	}
}

/* A NAK on response flow f for q's requests (q may be NULL: unpaired).
 * Called before the NAK acknowledges anything, so that the ring still holds
 * the request that found the hole. heard: its ICRC is good, so the
 * requester got it (one it dropped asks for nothing: the go-back that
 * follows is its timer's). */
void conf_on_nak(struct rw_analyzer *a, struct rw_flow *f, struct rw_flow *q, uint8_t kind,
		 uint32_t psn, int heard, uint64_t ts, uint64_t frame)
{
	f->cs.nak_ts = ts;
	struct rw_flow *owner = q ? q : f;
	if (f->cs.cnp_ts && ts - f->cs.cnp_ts <= a->cfg.cnp_nak_ns) {
		struct rw_conform *c = conf_get(a, owner);
		if (c)
			c->cnp_with_nak++;
	}
	if (!q) {
		/* Kept until the pairing says whose go-back answered it. */
		if (heard) {
			f->cs.unp_nak_valid = 1;
			f->cs.unp_nak_kind = kind;
			f->cs.unp_nak_psn = psn;
			f->cs.unp_nak_ts = ts;
			f->cs.unp_nak_frame = frame;
			hist_push(f->cs.unp_hts, f->cs.unp_hkind, f->cs.unp_hpsn, &f->cs.unp_hn, ts, kind, psn, NULL);
		}
		return;
	}
	/* Another kind of NAK asks for something else than a resend (an RNR
	 * NAK for a later PSN: the responder took the NAKed one). */
	if (heard && kind != RW_NAKK_PSN_SEQ)
		q->cs.nign_valid = 0;
	if (kind == RW_NAKK_PSN_SEQ) {
		if (q->cs.nak_await && q->cs.nak_cause == RW_NAKK_PSN_SEQ && q->cs.nak_psn == psn) {
			conf_violation(a, q, RW_V_DUP_NAK, frame);
			return;
		}
		int wrong = (q->cs.ack_valid && rw_psn_diff(psn, q->cs.last_ack_psn) <= 0) ||
			    (q->req.valid && rw_psn_diff(psn, q->req.high_psn) > 0);
		if (wrong)
			conf_violation(a, q, RW_V_NAK_WRONG_PSN, frame);
		/* The resend the requester owes (none for a wrong NAK: an
		 * acknowledged PSN is not sent again); a second NAK for the
		 * same hole keeps the first's time: the hole is as old. */
		if (heard && !wrong && !(q->cs.nign_valid && q->cs.nign_psn == psn))
			nign_open(q, psn, ts, frame);
		else if (heard && wrong)
			q->cs.nign_valid = 0;
		/* The first request beyond the hole is the one the responder
		 * found out of sequence: the oldest outstanding after psn. */
		struct rw_pend_ring *r = q->pend;
		for (uint32_t k = 0; r && k < r->n; k++) {
			const struct rw_pend *e = PEND(r, k);
			if (e->kind != PEND_DEAD && rw_psn_diff(e->psn, psn) > 0) {
				conf_lat(a, q, offsetof(struct rw_conform, nak_gen), ts - e->ts);
				break;
			}
		}
	}
	if (!heard)
		return;
	q->cs.nak_await = 1;
	q->cs.nak_cause = kind;
	q->cs.nak_psn = psn;
	q->cs.nak_ts = ts;
}

/* Response flow f was just paired with request flow q. A NAK f carried
 * before that asked q to go back: a go-back of q since then answered it
 * (counted as no NAK's when it came, it is the NAK's), else q's next
 * go-back will. */
void conf_on_pair(struct rw_analyzer *a, struct rw_flow *f, struct rw_flow *q)
{
	/* The answers f carried before the pairing (ACKs, NAKs, atomic ACKs,
	 * READ responses with an AETH) were answers to q: what they showed
	 * answered, and when, is q's (a go-back that re-issues a READ or
	 * atomic one of them showed unanswered is implied by it). */
	if (f->cs.ans_valid && !q->cs.ans_valid) {
		q->cs.ans_valid = 1;
		q->cs.ans_end = f->cs.ans_end;
		q->cs.ans_ts = f->cs.ans_ts;
		q->cs.ans_hn = f->cs.ans_hn;
		q->cs.ans_hnext = f->cs.ans_hnext;
		q->cs.ans_first_end = f->cs.ans_first_end;
		q->cs.ans_first_ts = f->cs.ans_first_ts;
		memcpy(q->cs.ans_hend, f->cs.ans_hend, sizeof(q->cs.ans_hend));
		memcpy(q->cs.ans_hts, f->cs.ans_hts, sizeof(q->cs.ans_hts));
	}
	f->cs.ans_valid = 0;
	f->cs.ans_hn = 0;
	if (!f->cs.unp_nak_valid)
		return;
	f->cs.unp_nak_valid = 0;
	uint8_t kind = f->cs.unp_nak_kind;
	/* Each go-back kept that a NAK of f came before, since the go-back
	 * before it, answered that NAK (the latest of them) — unless that NAK
	 * named the PSN of q's first request in the capture and came before
	 * it: that request answered it (the first packet a flow shows is no
	 * go-back), and the later go-back was another's. */
	struct rw_conform *c = q->conf;
	uint64_t prev = q->cs.gbn_hprev_ts;
	for (unsigned g = 0, k = 0; c && g < q->cs.gbn_hn; prev = q->cs.gbn_hts[g++]) {
		int by = -1;
		for (; k < f->cs.unp_hn && f->cs.unp_hts[k] <= q->cs.gbn_hts[g]; k++)
			if (f->cs.unp_hts[k] > prev)
				by = q->req.valid && f->cs.unp_hts[k] < q->first_ns &&
						     f->cs.unp_hpsn[k] == q->req.first_psn
					     ? -1
					     : f->cs.unp_hkind[k];
		uint8_t *cause = &q->cs.gbn_hcause[g];
		if (by < 0 || *cause == GBN_BY_NAK || *cause == GBN_BY_RNR)
			continue;
		if (*cause == GBN_BY_TIMEOUT && c->resend_by_timeout)
			c->resend_by_timeout--;
		else if (*cause == GBN_BY_IMPLIED && c->resend_by_implied)
			c->resend_by_implied--;
		else
			continue;
		*cause = by == RW_NAKK_RNR ? GBN_BY_RNR : GBN_BY_NAK;
		if (*cause == GBN_BY_RNR)
			c->resend_by_rnr++;
		else
			c->resend_by_nak++;
		if (g + 1 == q->cs.gbn_hn)
			q->cs.last_gbn_cause = *cause;
	}
	f->cs.unp_hn = 0;
	if (q->cs.last_gbn_ts && q->cs.last_gbn_ts >= f->cs.unp_nak_ts)
		return;
	/* A NAK naming the PSN q's first request in the capture carries, that
	 * request after it: that request was its resend (the first packet a
	 * flow shows is no go-back; a later one is its timer's or another's). */
	if (q->req.valid && q->req.first_psn == f->cs.unp_nak_psn && q->first_ns > f->cs.unp_nak_ts)
		return;
	(void)a;
	if (!q->cs.nak_ts || q->cs.nak_ts < f->cs.unp_nak_ts) {
		q->cs.nak_await = 1;
		q->cs.nak_cause = kind;
		q->cs.nak_psn = f->cs.unp_nak_psn;
		q->cs.nak_ts = f->cs.unp_nak_ts;
		if (kind == RW_NAKK_PSN_SEQ)
			nign_open(q, f->cs.unp_nak_psn, f->cs.unp_nak_ts, f->cs.unp_nak_frame);
	}
}

/* A good response for q's requests answered every PSN before end. whole:
 * it ends what it answers (an ACK, NAK, atomic ACK, or a READ's LAST or
 * ONLY response), which is when a requester checks what is missing before
 * it (the first or middle responses of a READ answer the READ only in
 * part). */
void conf_on_answer(struct rw_flow *q, uint32_t end, uint64_t ts, int whole)
{
	if (q->cs.nign_valid && rw_psn_diff(end, q->cs.nign_psn) > 0)
		q->cs.nign_valid = 0; /* the responder took the NAKed PSN */
	if (whole && !q->cs.ans_hn) {
		q->cs.ans_first_end = end;
		q->cs.ans_first_ts = ts;
	}
	unsigned last = (q->cs.ans_hnext + RW_ANS_HIST - 1) % RW_ANS_HIST;
	if (whole && (!q->cs.ans_hn || rw_psn_diff(end, q->cs.ans_hend[last]) > 0)) {
		q->cs.ans_hend[q->cs.ans_hnext] = end;
		q->cs.ans_hts[q->cs.ans_hnext] = ts;
		q->cs.ans_hnext = (uint8_t)((q->cs.ans_hnext + 1) % RW_ANS_HIST);
		if (q->cs.ans_hn < RW_ANS_HIST)
			q->cs.ans_hn++;
	}
	if (!q->cs.ans_valid || rw_psn_diff(end, q->cs.ans_end) >= 0) {
		q->cs.ans_valid = 1;
		q->cs.ans_end = end;
		q->cs.ans_ts = ts;
	}
	if (whole && q->cs.last_gbn_ts && q->cs.ans_gbn_ts <= q->cs.last_gbn_ts) {
		q->cs.ans_gbn_ts = ts;
		q->cs.ans_gbn_end = end;
	}
}

/* The READs and atomics sent again and not answered since (cs.await_psn),
 * as rxe's started_retry and rocewire-gen keep them: one of them is not
 * re-issued because a later response shows its answer missing (that
 * response may answer what was sent before the resend); it waits for its
 * own answer or the timer. */
static int await_find(const struct rw_flow *q, uint32_t psn)
{
	for (int k = 0; k < q->cs.await_n; k++)
		if (q->cs.await_psn[k] == psn)
			return k;
	return -1;
}

static void await_add(struct rw_flow *q, uint32_t psn)
{
	const int cap = (int)(sizeof(q->cs.await_psn) / sizeof(q->cs.await_psn[0]));
	if (await_find(q, psn) >= 0)
		return;
	if (q->cs.await_n == cap) {
		memmove(q->cs.await_psn, q->cs.await_psn + 1, (size_t)(cap - 1) * sizeof(uint32_t));
		q->cs.await_n--;
	}
	q->cs.await_psn[q->cs.await_n++] = psn;
}

/* A good answer to q's READ or atomic at psn (its first response PSN when
 * first: an atomic ACK, a READ's FIRST or ONLY). */
void conf_on_rd_answer(struct rw_flow *q, uint32_t psn, uint64_t ts, int first)
{
	if (first)
		recent_put(&q->cs.rda, psn, ts);
	int k = await_find(q, psn);
	if (k < 0)
		return;
	q->cs.await_n--;
	memmove(q->cs.await_psn + k, q->cs.await_psn + k + 1,
		(size_t)(q->cs.await_n - k) * sizeof(uint32_t));
}

/* How many responses of READ entry e the requester holds in a row from its
 * first PSN, counting on from got up to limit: its entry's, and those the
 * capture saw of any answer to it (the rest of an earlier answer may still
 * come after the READ was sent again, in sequence for the requester) but
 * not those it dropped, past a gap or with a bad ICRC (IBA 9.7.5.1.4: it
 * takes READ responses in order only). */
static uint32_t read_held(const struct rw_flow *q, const struct rw_seq *rs, const struct rw_pend *e,
			  uint32_t got, uint32_t limit)
{
	while (rs && got < limit && seq_seen(rs, psn_add(e->psn, got)) &&
	       !(q->rd_dropped && psn_bit(q->rd_dropped, psn_add(e->psn, got))))
		got++;
	return got;
}

/* A READ whose PSN falls inside a READ still unanswered re-issues it: at the
 * first response PSN not received (by any answer to it), its address and
 * length advanced by the data received. One below that PSN is not wrong as a tap sees it: the
 * responses the tap saw may still have been on their way to the requester
 * (a paused or congested port holds them), and it re-reads what it had not
 * got; its address must still match its PSN. */
static void read_reissue_check(struct rw_analyzer *a, struct rw_flow *f, const struct rw_packet *p,
			       uint64_t frame)
{
	int i = pend_find(f->pend, p->bth.psn, PEND_READ);
	if (i < 0)
		return;
	const struct rw_pend *e = PEND(f->pend, i);
	uint32_t done = (uint32_t)rw_psn_diff(p->bth.psn, e->psn);
	/* (what an earlier answer brought holds still, though the READ was
	 * sent again whole since, or the capture saw no copy of the READ it
	 * answered) */
	const struct rw_seq *rs = f->peer >= 0 ? flow_at(a, (uint32_t)f->peer)->rsp : NULL;
	uint32_t got = read_held(f, rs, e, e->got, done);
	/* (before the flows are paired no response is known to be its:
	 * where it resumes is judged by its address and length alone) */
	int bad = f->peer >= 0 && done > got;
	if (!bad && f->cs.read_mtu) {
		uint64_t off = (uint64_t)done * f->cs.read_mtu;
		bad = p->reth.va != e->va + off || (uint64_t)p->reth.dmalen + off != e->len;
	}
	if (bad)
		conf_violation(a, f, RW_V_READ_RESUME_WRONG, frame);
}

/* When a response first answered past psn (showed its answer missing,
 * were it a READ or atomic still waiting): the flow's first answer, or the
 * earliest of the latest times the answered PSNs went forward that went
 * past it; the oldest kept when they all did (it was then or before). 0:
 * none did. */
static uint64_t ans_past_ts(const struct rw_flow *f, uint32_t psn)
{
	if (f->cs.ans_hn && rw_psn_diff(f->cs.ans_first_end, psn) > 1)
		return f->cs.ans_first_ts; /* the flow's first answer did */
	uint64_t t = 0;
	for (unsigned k = 0; k < f->cs.ans_hn; k++)
		if (rw_psn_diff(f->cs.ans_hend[k], psn) > 1 && (!t || f->cs.ans_hts[k] < t))
			t = f->cs.ans_hts[k];
	return t;
}

/* Whether a response showed the answer to a READ or atomic at psn missing
 * since the last go-back, and the requester acted on it: it went back
 * within RESPONSE_ACT_NS. One that waited longer let it pass and waits for
 * its timer (a rate limiter holding the re-issue longer is taken for a
 * timer too). */
static int answered_past(const struct rw_flow *f, uint32_t psn, uint64_t ts)
{
	uint64_t t = ans_past_ts(f, psn);
	/* One the latest go-back sent again that an answer since showed
	 * missing again (an answer to its resend came, and one past it): the
	 * requester acts on that one (IBA 9.7.5.1.4). */
	if (t && t <= f->cs.last_gbn_ts && rw_psn_diff(psn, f->cs.gbn_from) >= 0 &&
	    rw_psn_diff(psn, f->cs.gbn_high) < 0 && f->cs.ans_gbn_ts > f->cs.last_gbn_ts)
		t = rw_psn_diff(f->cs.ans_gbn_end, psn) > 1 ? f->cs.ans_gbn_ts
		    : rw_psn_diff(f->cs.ans_end, psn) > 1    ? f->cs.ans_ts
							   : t;
	return t && f->cs.ans_ts > f->cs.last_gbn_ts && ts - t < RESPONSE_ACT_NS;
}

/* Whether the requester acted on the READ gap a response showed: it went
 * back within RESPONSE_ACT_NS of that response, or of a later answer (the
 * end of the READ's burst; a requester may wait for it). Later, the timer
 * sent it: the gap showed again after a re-issue, which waits for its own
 * answer or the timer. */
static int rgap_acted(const struct rw_flow *f, uint64_t ts)
{
	return ts - f->cs.rgap_ts < RESPONSE_ACT_NS ||
	       (f->cs.ans_ts > f->cs.rgap_ts && ts - f->cs.ans_ts < RESPONSE_ACT_NS);
}

/* Whether the READ or atomic at psn was sent again since its last answer
 * (by the latest go-back, or one before it that no answer followed). */
static int resent_at(const struct rw_flow *f, uint32_t psn)
{
	int in_run = f->cs.last_gbn_ts && rw_psn_diff(psn, f->cs.gbn_from) >= 0 &&
		     rw_psn_diff(psn, f->cs.gbn_high) < 0;
	/* (an answer past it since that go-back: the requester heard about
	 * it again, and acts on that answer) */
	if (in_run && f->cs.ans_valid && f->cs.ans_ts > f->cs.last_gbn_ts && rw_psn_diff(f->cs.ans_end, psn) > 1)
		in_run = 0;
	return in_run || await_find(f, psn) >= 0;
}

/* Whether a READ gap a response showed still waits, at ts, for its
 * go-back: it showed since the last go-back, or that one started past it
 * (the requester went back for something else, the READ left as it was)
 * and the gap is fresh (RESPONSE_ACT_NS: one older waits for the timer); a
 * go-back from its PSN or below ends it. */
static int rgap_open(const struct rw_flow *f, uint64_t ts)
{
	return f->cs.rgap_valid &&
	       (f->cs.rgap_ts > f->cs.last_gbn_ts ||
		(rw_psn_diff(f->cs.gbn_from, f->cs.rgap_psn) > 0 && ts - f->cs.rgap_ts < RESPONSE_ACT_NS));
}

/* Whether a READ or atomic before psn is still outstanding on f (no
 * answer to it yet). */
static int rd_atomic_waits_below(const struct rw_flow *f, uint32_t psn, uint64_t ts)
{
	if (f->cs.unans_valid && rw_psn_diff(f->cs.unans_psn, psn) < 0)
		return 1;
	/* (a READ a later response of which showed a gap since the last
	 * go-back waits for the rest of its answer, whatever came after) */
	if (rgap_open(f, ts) && rw_psn_diff(f->cs.rgap_psn, psn) < 0)
		return 1;
	const struct rw_pend_ring *r = f->pend;
	for (uint32_t k = 0; r && k < r->n; k++) {
		const struct rw_pend *e = PEND(r, k);
		if ((e->kind == PEND_READ || e->kind == PEND_ATOMIC) && rw_psn_diff(e->psn, psn) < 0)
			return 1;
	}
	return 0;
}

/* A go-back seen starting past the NAKed PSN on a flow with no PSN gap
 * so far: judged at the capture end (conf_finish), when a later gap may
 * yet show loss before the capture point. */
static void wrong_past_hold(struct rw_analyzer *a, struct rw_flow *f, uint64_t frame)
{
	struct rw_conform *c = conf_get(a, f);
	if (!c)
		return;
	if (c->wrong_past_n < RW_V_FRAMES)
		c->wrong_past_frames[c->wrong_past_n] = frame;
	c->wrong_past_n++;
}

/* Counts the held go-backs that started past their NAKed PSN, their frames
 * merged in capture order with those of the violation counted already. */
static void wrong_past_judge(struct rw_flow *f)
{
	struct rw_conform *c = f->conf;
	if (!c || !c->wrong_past_n)
		return;
	uint64_t n = c->wrong_past_n;
	c->wrong_past_n = 0;
	if (f->psn_gaps || f->req.resends_lost)
		return;
	const unsigned v = RW_V_RESEND_WRONG_START;
	uint64_t merged[RW_V_FRAMES];
	unsigned i = 0, j = 0, k = 0;
	unsigned ni = c->count[v] < RW_V_FRAMES ? (unsigned)c->count[v] : RW_V_FRAMES;
	unsigned nj = n < RW_V_FRAMES ? (unsigned)n : RW_V_FRAMES;
	while (k < RW_V_FRAMES && (i < ni || j < nj))
		merged[k++] = j >= nj || (i < ni && c->frames[v][i] < c->wrong_past_frames[j])
				      ? c->frames[v][i++] : c->wrong_past_frames[j++];
	memcpy(c->frames[v], merged, k * sizeof(merged[0]));
	c->count[v] += n;
}

/* A request on f, classified (flags from the PSN sequence), before it is
 * added to the outstanding ring. */
void conf_on_request(struct rw_analyzer *a, struct rw_flow *f, const struct rw_packet *p,
		     uint32_t flags, int reissue, uint64_t ts, uint64_t frame)
{
	uint32_t psn = p->bth.psn;
	if (reissue)
		read_reissue_check(a, f, p, frame);
	nign_request(a, f, psn, flags, ts, frame);
	if (!(flags & RW_N_RETRANS))
		return;
	struct rw_pend_ring *r = f->pend;
	const struct rw_pend *orig = NULL;
	for (uint32_t k = 0; r && k < r->n; k++) {
		const struct rw_pend *e = PEND(r, k);
		if (e->psn == psn && e->kind != PEND_DEAD) {
			orig = e;
			break;
		}
	}
	if (orig)
		conf_lat(a, f, offsetof(struct rw_conform, retx), ts - orig->ts);
	/* A READ or atomic below the NAKed PSN that a go-back starts with is
	 * re-issued because its answer is missing (IBA 9.7.5.1.4: a later
	 * response, or the NAK itself, acknowledged past it): the requester
	 * goes back to it, and resends the NAKed PSN on the way or later. */
	uint8_t rop = p->op->op;
	int rd_atomic = rw_op_answered_alone(rop);
	int reissue_below = (flags & RW_N_GBN_START) && rd_atomic &&
			    f->cs.nak_cause == RW_NAKK_PSN_SEQ && rw_psn_diff(psn, f->cs.nak_psn) < 0;
	/* The answer to a NAK is the next go-back (packets of a resend run
	 * already under way are not), or the NAKed PSN itself. */
	if (f->cs.nak_await && !reissue_below &&
	    ((flags & RW_N_GBN_START) || psn == f->cs.nak_psn)) {
		f->cs.nak_await = 0;
		conf_lat(a, f, offsetof(struct rw_conform, nak_resp), ts - f->cs.nak_ts);
		/* A resend seen starting past the NAKed PSN is judged only on a
		 * flow that shows no loss before the capture point (no PSN
		 * gap, nor a resend run that skips PSNs, to the capture end:
		 * wrong_past_hold): where the network
		 * drops before it, the resends of the NAKed PSN and those after
		 * it may be dropped too, which a capture cannot tell from a
		 * requester that skipped them. A NAKed PSN before the flow's
		 * first is such a loss too, and so is one the capture never
		 * saw: its first copy went where its resends may have gone
		 * (no gap shows it when a READ's unknown span covered it). */
		int lost_before = f->psn_gaps || rw_psn_diff(f->cs.nak_psn, f->req.first_psn) < 0 ||
				  seq_never_seen(&f->req, f->cs.nak_psn);
		/* One starting below it is judged likewise when a READ or
		 * atomic below it waits for its answer: the go-back may have
		 * begun with that READ's re-issue (IBA 9.7.5.1.4), dropped
		 * before the capture point. */
		int below = rw_psn_diff(psn, f->cs.nak_psn) < 0;
		if (f->cs.nak_cause == RW_NAKK_PSN_SEQ && psn != f->cs.nak_psn && below &&
		    !(lost_before && rd_atomic_waits_below(f, psn, ts)))
			conf_violation(a, f, RW_V_RESEND_WRONG_START, frame);
		else if (f->cs.nak_cause == RW_NAKK_PSN_SEQ && psn != f->cs.nak_psn && !below && !lost_before)
			wrong_past_hold(a, f, frame);
	}
	if (flags & RW_N_GBN_START) {
		struct rw_conform *c = conf_get(a, f);
		int by_nak = (f->cs.nak_ts && f->cs.nak_ts > f->cs.last_gbn_ts) || f->cs.nak_left;
		/* A READ re-issued below the NAKed PSN because a later
		 * response of it came (the READ gap) is that gap's go-back:
		 * the NAK is answered by the next one. */
		int rgap = rd_atomic && rgap_open(f, ts) &&
			   psn == f->cs.rgap_psn && rgap_acted(f, ts);
		f->cs.nak_left = 0;
		/* So is one whose answer a response before the NAK showed
		 * missing (were the NAK the first to show it, the go-back
		 * would be the NAK's: IBA 9.7.5.1.4 has the requester
		 * re-issue that request first). */
		uint64_t shown = reissue_below ? ans_past_ts(f, psn) : 0;
		int ans_below = shown && shown < f->cs.nak_ts && answered_past(f, psn, ts) && !resent_at(f, psn);
		/* So is one seen starting below the NAKed PSN past a READ a
		 * later response of which showed a gap before the NAK came:
		 * it began with that READ's re-issue, dropped before the
		 * capture point. */
		int gap_below = by_nak && !rd_atomic && rgap_open(f, ts) &&
				f->cs.rgap_ts < f->cs.nak_ts && f->cs.nak_cause == RW_NAKK_PSN_SEQ &&
				rw_psn_diff(psn, f->cs.nak_psn) < 0 && rw_psn_diff(f->cs.rgap_psn, psn) < 0 &&
				rgap_acted(f, ts) && !resent_at(f, f->cs.rgap_psn);
		if (by_nak && (((rgap || ans_below) && reissue_below) || gap_below)) {
			by_nak = 0;
			f->cs.nak_left = 1;
		}
		/* Implied (IBA 9.7.5.1.4), a READ or atomic sent again at
		 * once because a response since the last go-back showed its
		 * answer missing: a later response of the READ came (the
		 * READ resumes at the first missing one), or a response to a
		 * later request came while the request had not been sent
		 * again (a request a go-back resent already, with no answer
		 * to it since, waits for its own answer or the timer, as rxe
		 * does). A requester acts on that response at once: a go-back
		 * RESPONSE_ACT_NS after it is its timer's (the request was sent
		 * again where the tap saw only its first copy). below: the READ
		 * or atomic an ACK past it showed unanswered lies below this
		 * PSN, the go-back began with its re-issue, dropped before the
		 * capture point, whatever the first resend seen is; so did one
		 * that began with a READ a later response of which showed its
		 * gap below this PSN. */
		int below = (f->cs.unans_valid && rw_psn_diff(f->cs.unans_psn, psn) < 0 &&
			     answered_past(f, f->cs.unans_psn, ts) && !resent_at(f, f->cs.unans_psn)) ||
			    (rgap_open(f, ts) &&
			     rw_psn_diff(f->cs.rgap_psn, psn) < 0 && rgap_acted(f, ts) &&
			     !resent_at(f, f->cs.rgap_psn));
		/* (a READ or atomic the last go-back sent again that its own
		 * answer came to since is shown unanswered by nothing) */
		int in_last = rw_psn_diff(psn, f->cs.gbn_from) >= 0 && rw_psn_diff(psn, f->cs.gbn_high) < 0;
		int own = recent_has(&f->cs.rda, psn, f->cs.last_gbn_ts, UINT64_MAX) && in_last;
		/* (nor is a READ whose whole answer the requester got, in
		 * sequence, since it was last sent: what came after it shows
		 * nothing of it missing) */
		own |= rd_atomic && recent_has(&f->cs.rdw, psn, in_last ? f->cs.last_gbn_ts : 0, UINT64_MAX);
		int implied = !by_nak &&
			      ((rd_atomic && !resent_at(f, psn) && (rgap || (answered_past(f, psn, ts) && !own))) ||
			       below);
		uint8_t cause = by_nak && f->cs.nak_cause == RW_NAKK_RNR ? GBN_BY_RNR
				: by_nak				 ? GBN_BY_NAK
				: implied				 ? GBN_BY_IMPLIED
									 : GBN_BY_TIMEOUT;
		if (c) {
			if (cause == GBN_BY_RNR)
				c->resend_by_rnr++;
			else if (cause == GBN_BY_NAK)
				c->resend_by_nak++;
			else if (cause == GBN_BY_IMPLIED)
				c->resend_by_implied++;
			else
				c->resend_by_timeout++;
		}
		if (cause == GBN_BY_TIMEOUT && orig)
			conf_lat(a, f, offsetof(struct rw_conform, timeout), ts - orig->ts);
		f->cs.last_gbn_ts = ts;
		f->cs.last_gbn_cause = cause;
		hist_push(f->cs.gbn_hts, f->cs.gbn_hcause, NULL, &f->cs.gbn_hn, ts, cause, 0, &f->cs.gbn_hprev_ts);
		f->cs.unans_valid = 0; /* re-issued by this go-back, or given up */
		if (f->cs.rgap_valid && rw_psn_diff(psn, f->cs.rgap_psn) <= 0)
			f->cs.rgap_valid = 0; /* the READ gap's PSN sent again by it */
		f->cs.gbn_from = psn;
		f->cs.gbn_high = f->req.high_psn;
	}
	if (rd_atomic)
		await_add(f, psn);
}

/* A READ response matched to q's READ entry e: the data received in a row,
 * and the segment size (from a FIRST or MIDDLE, which are full). rs: the
 * response stream it came on, NULL unknown. */
void conf_on_read_response(struct rw_flow *q, const struct rw_packet *p, struct rw_pend *e,
			   const struct rw_seq *rs, uint64_t ts)
{
	/* One whose ICRC is bad the requester dropped: it received nothing,
	 * and re-issues the READ from there. */
	if (p->icrc_status == RW_CRC_BAD || p->vcrc_status == RW_CRC_BAD) {
		if (q->rd_dropped)
			psn_bit_put(q->rd_dropped, p->bth.psn, 1);
		return;
	}
	/* (up to this response: the ones before it the requester holds) */
	int32_t at = rw_psn_diff(p->bth.psn, e->psn);
	e->got = read_held(q, rs, e, e->got, at >= 0 && (uint32_t)at < e->npsn ? (uint32_t)at : e->npsn);
	if (p->bth.psn == psn_add(e->psn, e->got)) {
		e->got++;
		if (q->rd_dropped)
			psn_bit_put(q->rd_dropped, p->bth.psn, 0);
		if (p->op->flags & RW_OPF_LAST) /* (a LAST or ONLY) */
			recent_put(&q->cs.rdw, e->psn, ts);
	} else if (rw_psn_diff(p->bth.psn, psn_add(e->psn, e->got)) > 0) {
		if (q->rd_dropped)
			psn_bit_put(q->rd_dropped, p->bth.psn, 1);
		q->cs.rgap_valid = 1;
		q->cs.rgap_psn = psn_add(e->psn, e->got);
		q->cs.rgap_ts = ts;
	}
	if (at == 0) {
		/* The first response of a later READ shows the rest of an
		 * earlier one missing too (its responses come in PSN order,
		 * IBA 9.7.5.1.4): the requester re-issues that one from its
		 * first missing PSN. (Only an exact span says what is
		 * missing.) */
		const struct rw_pend_ring *r = q->pend;
		for (uint32_t k = 0; r && k < r->n; k++) {
			const struct rw_pend *o = PEND(r, k);
			/* (one whose rest this READ asks again, re-issued from
			 * its first missing PSN or before, misses nothing) */
			uint32_t miss = psn_add(o->psn, o->got);
			if (o == e || o->kind != PEND_READ || !o->exact || o->got >= o->npsn ||
			    rw_psn_diff(miss, e->psn) >= 0 || rw_psn_diff(e->psn, o->psn) >= (int32_t)PSN_WINDOW)
				continue;
			q->cs.rgap_valid = 1;
			q->cs.rgap_psn = miss;
			q->cs.rgap_ts = ts;
			break;
		}
	}
	/* (the path MTU it shows: read_mtu_shown) */
	mtu_floor_note(q, p->payload_len);
}

/* The last CNP time of f's pacing key under mode m (f: the CNP's flow,
 * notification point -> reaction point). */
static uint64_t *pace_slot(struct rw_analyzer *a, struct rw_flow *f, struct rw_flow *owner,
			   enum rw_cnp_mode m)
{
	if (m == RW_CNP_PER_QP)
		return &owner->cs.cnp_ts;
	static const uint8_t zero[16];
	int32_t i = m == RW_CNP_PER_IP_PAIR ? f->addr_pair
					    : an_pair_lookup(a, f->key.family, zero, f->key.dst, 1);
	return i >= 0 ? &a->pairs[i].last_cnp_ns : NULL;
}

/* A CE-marked request on f (data towards the notification point), its
 * mark just kept (ce_push). Eligible when the pacing (per QP: the last CNP
 * that slowed f) let a CNP go now; every eligible mark is judged on its
 * own: a CNP must follow it within cnp_window_ns (analyze_cong.c,
 * ce_expire). */
void conf_on_ce(struct rw_analyzer *a, struct rw_flow *f, uint64_t ts)
{
	if (!f->cnp_last_ns || ts - f->cnp_last_ns >= a->cfg.cnp_min_ns)
		ce_set_eligible(f);
}

/* A CNP on flow f slowing `owner`; called before owner->cnp_last_ns moves. */
void conf_on_cnp(struct rw_analyzer *a, struct rw_flow *f, struct rw_flow *owner, uint64_t ts,
		 uint64_t frame)
{
	for (unsigned m = 0; m < RW_CNP_MODES; m++) {
		uint64_t *last = pace_slot(a, f, owner, (enum rw_cnp_mode)m);
		if (!last)
			continue;
		if (*last && ts - *last < a->cfg.cnp_min_ns) {
			a->totals.cnp_too_often[m]++;
			if (m == a->cfg.cnp_mode)
				conf_violation(a, owner, RW_V_CNP_TOO_OFTEN, frame);
		}
		if (m != RW_CNP_PER_QP)
			*last = ts;
	}
	owner->cs.cnp_ts = ts;
	f->cs.cnp_ts = ts;
	if (f->cs.nak_ts && ts - f->cs.nak_ts <= a->cfg.cnp_nak_ns) {
		struct rw_conform *c = conf_get(a, owner);
		if (c)
			c->cnp_with_nak++;
	}
}

int rw_analyzer_nak_ignored(const struct rw_analyzer *a, uint32_t i, uint64_t *nak_frame,
			    uint64_t *req_frame)
{
	const struct rw_flow *f = rw_analyzer_flow(a, i);
	if (!f || !f->cs.nign_valid || !f->cs.nign_req_frame ||
	    f->cs.nign_req_ts - f->cs.nign_ts <= flow_rto(a, f))
		return 0;
	if (nak_frame)
		*nak_frame = f->cs.nign_frame;
	if (req_frame)
		*req_frame = f->cs.nign_req_frame;
	return 1;
}

uint64_t rw_analyzer_rto(const struct rw_analyzer *a, uint32_t i)
{
	const struct rw_flow *f = rw_analyzer_flow(a, i);
	return f ? flow_rto(a, f) : a->cfg.rto_ns;
}

void conf_finish_naks(struct rw_analyzer *a, struct rw_flow *f)
{
	uint64_t nak, req;
	if (f->cs.nign_judged || !rw_analyzer_nak_ignored(a, (uint32_t)f->index, &nak, &req))
		return;
	f->cs.nign_judged = 1;
	struct rw_conform *c = conf_get(a, f);
	if (!c)
		return;
	if (c->count[RW_V_NAK_IGNORED] < RW_V_FRAMES)
		c->nak_ignored_req[c->count[RW_V_NAK_IGNORED]] = req;
	c->nak_ignored_rto_ns = flow_rto(a, f);
	conf_violation(a, f, RW_V_NAK_IGNORED, nak);
}

void conf_finish(struct rw_analyzer *a, struct rw_flow *f, uint64_t end_ns)
{
	/* A CE mark whose window the capture did not see to its end is not
	 * judged. */
	ce_expire(a, f, end_ns);
	wrong_past_judge(f);
}
