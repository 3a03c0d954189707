/* SPDX-License-Identifier: BSD-3-Clause */
/* Messages: FIRST/MIDDLE/LAST packets assembled as the responder takes them.
 *
 * Requests are assembled in PSN order (IBA 9.7.5: a responder accepts only
 * the expected PSN), whatever order resends come in. A request ahead of a
 * hole is held (its PSN, opcode and length only) until a resend or a late
 * packet fills the hole; a resend of what was assembled already is ignored.
 *
 * A hole stays open while a resend of it may still come (seq_resend_due:
 * the responder's sequence NAK at or before it is not acknowledged yet, or
 * the sender went back over it within its last PSN_WINDOW PSNs). Memory is
 * bounded by the hold: RW_HOLD_MIN requests when a flow's first hole
 * opens, doubled while a resend is due or the responder (paired, so in the
 * capture) may still answer for the hole, up to RW_HOLD_MAX (a PSN window:
 * as far as its NAK or ACK may lag behind the requests). When it is full
 * and resends are due, the requests nearest the hole are kept and one
 * further ahead is not held: go-back-N sends it again after the hole (the
 * responder discarded its first copy too). A hole is given up — the
 * capture lost the packet, not the network — when the responder
 * acknowledges its PSN (it has it), when the hold is full and no resend is
 * due, or at the end of the capture: the held requests are then taken in
 * PSN order and the message the hole cut is incomplete. UC holds nothing:
 * it has no resends, and its responder does not wait for a late packet (a
 * hole leaves the message in progress incomplete, the rest of it dropped,
 * and a late packet below the expected PSN is dropped too).
 *
 * READ responses are counted from the first copy of each PSN in the order
 * they come; one whose first copy was lost before the capture point and
 * that a re-issued READ brought again adds its data to the READ it belongs
 * to, and starts or ends nothing.
 *
 * A capture that starts inside a message sees its MIDDLE/LAST packets with
 * no FIRST: that message is cut by the capture start, not an error; one
 * that ends inside a message leaves it cut by the capture end. */
#include <string.h>

#include "analyze_int.h"

static int op_index(uint8_t op)
{
	switch (op) {
	case RW_OP_SEND:
		return 0;
	case RW_OP_WRITE:
	case RW_OP_ATOMIC_WRITE:
		return 1;
	case RW_OP_READ_RESP:
		return 2;
	case RW_OP_CMP_SWAP:
	case RW_OP_FETCH_ADD:
		return 3;
	}
	return -1;
}

/* A READ answered before the capture and again in it (its FIRST response
 * below the first the capture saw), whose responses reach PSN upto: cut by
 * the capture start, counted once however often it is answered (the
 * resends of several such READs come in PSN order). */
static void pre_read_cut(struct rw_flow *f, uint32_t upto, struct rw_note *n)
{
	if (f->msg_pre_valid && rw_psn_diff(upto, f->msg_pre_psn) <= 0)
		return;
	f->msg_pre_valid = 1;
	f->msg_pre_psn = upto;
	f->msg_cut_start++;
	if (n)
		n->flags |= RW_N_CUT_START;
}

/* A READ answered before the capture (why: rw_msg_state.pre), from
 * first to last: cut by the capture start, once. One below the first
 * response the capture saw is told by its LAST (pre_read_cut); one the
 * responder answered again, anywhere in the stream, by its first PSN
 * among the last few answered again (the same READ is answered again at
 * each re-issue). */
static void read_cut_before(struct rw_flow *f, uint8_t why, uint32_t first, uint32_t last, struct rw_note *n)
{
	if (why != RD_PRE_AGAIN) {
		pre_read_cut(f, last, n);
		return;
	}
	for (unsigned k = 0; k < f->ragain_n; k++)
		if (f->ragain[k] == first)
			return;
	f->ragain[f->ragain_next] = first;
	f->ragain_next = (uint8_t)((f->ragain_next + 1) % RW_RAGAIN);
	if (f->ragain_n < RW_RAGAIN)
		f->ragain_n++;
	f->msg_cut_start++;
	if (n)
		n->flags |= RW_N_CUT_START;
}

/* Whether a READ (its first PSN) waits for its resume. */
static int read_waits(const struct rw_flow *f, uint32_t first_psn)
{
	for (unsigned k = 0; k < f->rwait_cap; k++)
		if (f->rwait[k].open && f->rwait[k].first_psn == first_psn)
			return 1;
	return 0;
}

/* A READ that can wait no longer for its resume: incomplete. */
static void read_give_up(struct rw_flow *f, const struct rw_msg_state *o, struct rw_note *n)
{
	if (o->pre)
		read_cut_before(f, o->pre, o->first_psn, o->first_psn, NULL);
	else if (o->next_psn != o->first_psn)
		f->msg_incomplete++;
	/* (one its requester took nothing of, its FIRST dropped, is asked
	 * for whole again: its re-issue's FIRST starts it over) */
	n->flags |= RW_N_MSG_BROKEN;
}

/* A free slot for a READ to wait in, cleared; when all are taken, more
 * (twice as many, up to RW_RWAIT_MAX); past that, or without the memory,
 * the oldest READ waiting is given up: incomplete. */
static struct rw_msg_state *read_wait_slot(struct rw_analyzer *a, struct rw_flow *f, struct rw_note *n)
{
	unsigned k = 0, old = 0;
	for (; k < f->rwait_cap && f->rwait[k].open; k++)
		if (f->rwait[k].first_frame < f->rwait[old].first_frame)
			old = k;
	if (k == f->rwait_cap && f->rwait_cap < RW_RWAIT_MAX) {
		unsigned cap = f->rwait_cap ? f->rwait_cap * 2u : 4u;
		struct rw_msg_state *nw = an_alloc(a, cap * sizeof(*nw), 0);
		if (nw) {
			memset(nw, 0, cap * sizeof(*nw));
			if (f->rwait_cap)
				memcpy(nw, f->rwait, f->rwait_cap * sizeof(*nw));
			an_free(a, f->rwait, f->rwait_cap * sizeof(*nw));
			f->rwait = nw;
			f->rwait_cap = (uint8_t)cap;
		}
	}
	if (!f->rwait_cap)
		return NULL;
	if (k == f->rwait_cap) {
		k = old;
		read_give_up(f, &f->rwait[k], n);
	}
	memset(&f->rwait[k], 0, sizeof(f->rwait[k]));
	return &f->rwait[k];
}

/* A READ's FIRST response on f that the requester dropped (bad ICRC), not
 * a resend: the READ starts there and waits for its re-issue, which a
 * later FIRST at that PSN resumes (even below the responses seen since). */
void msg_read_first_dropped(struct rw_analyzer *a, struct rw_flow *f, uint32_t psn, int wait, uint64_t frame,
			    struct rw_note *n)
{
	f->rmsg.seen_start = 1;
	if (!wait || (n->flags & RW_N_RETRANS) || read_waits(f, psn) || (f->rmsg.open && f->rmsg.next_psn == psn))
		return;
	struct rw_msg_state *w = read_wait_slot(a, f, n);
	if (!w)
		return;
	w->open = 1;
	w->first_psn = w->next_psn = psn;
	w->first_frame = frame;
}

enum read_take { READ_TAKE, READ_DROP, READ_CUT };

/* The READ waiting in w takes m's place (m's waits in w instead): its
 * responses resume. */
static void read_swap_in(struct rw_msg_state *m, struct rw_msg_state *w)
{
	struct rw_msg_state t = *m;
	*m = *w;
	*w = t;
	w->seen_start = 0;
	m->seen_start = 1;
	m->in_cut = 0;
}

/* A READ response on f, whose READ state is m: READ_TAKE when the
 * requester takes it in sequence (*resume: it resumes the open READ; *len
 * zeroed for a copy already counted), READ_DROP when it drops it,
 * READ_CUT when it is the rest of a READ the capture started inside. */
static enum read_take read_take(struct rw_analyzer *a, struct rw_flow *f, struct rw_flow *owner,
				struct rw_msg_state *m,
				uint32_t psn, uint32_t *len, int first, int64_t req_psn, int awaited,
				uint64_t frame, struct rw_note *n, int *resume)
{
	/* The requester takes the responses of a READ in PSN order
	 * only (IBA 9.7.5.1.4, 9.9.2: one ahead of the expected PSN is
	 * a sequence error, one at or below a PSN taken a duplicate):
	 * the READ is re-issued from the expected PSN and its
	 * responses restart there with a FIRST. A READ left waiting
	 * so when the next READ's responses come waits on (rwait)
	 * for its resume. The data of a response are counted from
	 * the first copy of its PSN the capture saw, whoever took it. */
	int newcopy = (n->flags & RW_N_NEW) != 0, re = (n->flags & RW_N_RETRANS) != 0;
	struct rw_msg_state *w = NULL;
	/* (a resend, or the answer to a READ re-issued from that PSN: a
	 * response the capture never saw before, its first copy lost) */
	int resumes = re || (req_psn >= 0 && (uint32_t)req_psn == psn);
	/* A READ answered again from its first PSN (re-issued whole) while
	 * the requester held part of its answer: the requester takes that
	 * answer in sequence from there again (restarted, exp_psn), keeping
	 * what it held (next_psn); past a response that answer lost it drops
	 * the rest, and re-issues from the first PSN it does not hold. */
	if (first && resumes) {
		struct rw_msg_state *r = m->open && psn == m->first_psn && rw_psn_diff(m->next_psn, psn) > 1 ? m : NULL;
		for (unsigned k = 0; !r && k < f->rwait_cap; k++)
			if (f->rwait[k].open && f->rwait[k].first_psn == psn && rw_psn_diff(f->rwait[k].next_psn, psn) > 1)
				r = &f->rwait[k];
		if (r) {
			if (r != m)
				read_swap_in(m, r);
			m->seen_start = 1;
			m->in_cut = 0;
			m->restarted = 1;
			m->exp_psn = psn_add(psn, 1);
			m->first_frame = frame;
			*resume = 1;
			if (!newcopy)
				*len = 0;
			return READ_TAKE;
		}
	}
	if (m->open && m->restarted) {
		int32_t de = rw_psn_diff(psn, m->exp_psn);
		if (de == 0) {
			m->exp_psn = psn_add(psn, 1);
			if (m->exp_psn == m->next_psn)
				m->restarted = 0; /* back where it held up to */
			*resume = 1;
			if (!newcopy)
				*len = 0;
			return READ_TAKE;
		}
		if (de > 0 && rw_psn_diff(psn, m->next_psn) <= 0) {
			m->restarted = 0; /* past one that answer lost: dropped */
			if (newcopy)
				m->bytes += *len;
			return READ_DROP;
		}
	}
	for (unsigned k = 0; k < f->rwait_cap && resumes && !(m->open && psn == m->next_psn); k++)
		if (f->rwait[k].open && psn == f->rwait[k].next_psn)
			w = &f->rwait[k];
	if (w) {
		/* the resend resuming the READ that waits */
		read_swap_in(m, w);
		if (psn == m->first_psn)
			m->first_frame = frame;
	}
	if (!m->open && m->in_cut && psn == m->next_psn)
		/* The rest of the READ the capture started inside; a FIRST
		 * there is its re-issue (a MIDDLE before it means its LAST
		 * comes later: a new READ would start past it). */
		return READ_CUT;
	int32_t dn = rw_psn_diff(psn, m->next_psn);
	int32_t dh = f->rhi_valid ? rw_psn_diff(psn, f->rhi_psn) : 1;
	int at_next = m->open && dn == 0;
	/* (the first response of a READ still waiting for it is none: the
	 * requester went back to it, below the later READs' responses) */
	int dup = !at_next && dh <= 0 && (uint32_t)-dh < PSN_WINDOW && !(first && awaited);
	int past = !at_next && !dup && ((m->open && (!first || re)) || (!m->open && !first));
	if (dup || past) {
		/* A duplicate of what the requester took, or a response
		 * past a lost one: of the open READ, a resend past its
		 * resume point, or the rest of a READ whose FIRST was
		 * lost. The requester drops it; a resend brings it
		 * again. */
		/* (not the READ the capture started inside, answered again
		 * from below and its FIRST lost again: counted already) */
		int cut_again = f->rcut_state == 1 && f->rcut_lo_valid && req_psn >= 0 &&
				rw_psn_diff((uint32_t)req_psn, f->rcut_lo) < 0 && rw_psn_diff(psn, f->rcut_lo) >= 0 &&
				rw_psn_diff(psn, f->rcut_last) <= 0;
		if (past && !m->open && req_psn >= 0 && (uint32_t)req_psn != psn && !cut_again &&
		    !read_waits(f, (uint32_t)req_psn)) {
			/* The rest of a READ whose request the capture
			 * saw, its FIRST lost: it waits for the resend
			 * from its FIRST. */
			w = read_wait_slot(a, f, n);
			if (w) {
				w->open = 1;
				w->in_cut = !m->seen_start; /* never resumed: cut by the capture start */
				w->first_psn = w->next_psn = (uint32_t)req_psn;
				w->first_frame = frame;
			}
		} else if (past && !m->open && !m->seen_start &&
			   !(req_psn >= 0 && read_waits(f, (uint32_t)req_psn)) && !(re && !m->in_cut)) {
			/* (the rest of a READ that waits for its resend is
			 * judged with it, when it resumes or at the end; a
			 * resend of what the capture saw of such a rest, after
			 * its LAST, was judged with its first copy) */
			return READ_CUT;
		}
		if (newcopy) {
			if (m->open)
				m->bytes += *len;
			else
				owner->bytes_by_op[2] += *len;
		}
		return READ_DROP;
	}
	if (m->open && !at_next) {
		/* The next READ's first response while this one waits
		 * for a resend: it waits on, with any others (rwait). */
		w = read_wait_slot(a, f, n);
		if (w)
			*w = *m;
		else
			read_give_up(f, m, n);
		m->open = 0;
	}
	/* Taken in sequence. A FIRST at the expected PSN of the open
	 * READ resumes it (its re-issue); the data of a copy seen
	 * before were counted with its first copy. */
	*resume = at_next;
	m->next_psn = psn_add(psn, 1);
	if (dh > 0 || (uint32_t)-dh >= PSN_WINDOW) {
		f->rhi_valid = 1;
		f->rhi_psn = psn;
	}
	if (!newcopy)
		*len = 0;
	return READ_TAKE;
}

/* Whether a READ answer first..last is the rest of the READ the capture
 * started inside, re-issued from inside it: it ends at that READ's LAST and
 * starts at or past the first PSN the capture saw of it (a MIDDLE or LAST,
 * so its beginning lies below, unseen). */
static int read_rest_of_cut(const struct rw_flow *f, uint32_t first, uint32_t last)
{
	return f->rcut_state == 1 && last == f->rcut_last && f->rcut_lo_valid &&
	       rw_psn_diff(first, f->rcut_lo) >= 0;
}

/* The capture started inside this message: counted once, at its first
 * packet seen; its LAST ends it. */
static void msg_cut_start(struct rw_flow *f, struct rw_msg_state *m, uint32_t psn, int last,
			  struct rw_note *n)
{
	if (!m->in_cut) {
		m->in_cut = 1;
		f->msg_cut_start++;
		if (m == &f->msg) {
			f->msg_cut_valid = 1;
			f->msg_cut_psn = psn;
			f->msg_cut_ended = 0;
		} else if (!f->rcut_lo_valid) {
			f->rcut_lo_valid = 1;
			f->rcut_lo = psn;
		}
	}
	if (last && m == &f->msg && m->in_cut && f->msg_pre_cut && psn_bit(f->msg_pre_cut, psn))
		/* the rest of a message counted cut at its resend below the
		 * window's first PSN (pre_cut), resent again from inside it
		 * after a refusal: counted already */
		f->msg_cut_start--;
	else if (last && m == &f->msg && f->msg_cut_back && f->msg_cut_valid &&
		 rw_psn_diff(f->msg_cut_back_psn, f->msg_cut_psn) >= 0 && rw_psn_diff(psn, f->msg_cut_back_psn) >= 0) {
		/* the rest of the message the capture started inside, resent
		 * after a refusal before the window's first PSN (its FIRST not
		 * sent again): counted already */
		f->msg_cut_back = 0;
		f->msg_cut_start--;
	}
	if (last && m == &f->msg && f->msg_cut_valid) {
		f->msg_cut_ended = 1;
		f->msg_cut_last = psn;
	}
	if (last)
		m->in_cut = 0;
	n->flags |= RW_N_CUT_START;
}

/* Reassembles first/middle/last/only into messages on flow f; the message
 * is credited (by operation) to `owner`, the requester's flow. frame: the
 * packet's (a held request's own, not the one that released it). */
int msg_account(struct rw_analyzer *a, struct rw_flow *f, struct rw_flow *owner, uint8_t opcode, uint32_t psn,
		uint32_t len, int64_t req_psn, enum rd_ask ask, uint64_t frame, struct rw_note *n)
{
	const struct rw_opcode_info *op = rw_opcode(opcode);
	int oi = op_index(op->op);
	int first = (op->flags & RW_OPF_FIRST) != 0, last = (op->flags & RW_OPF_LAST) != 0;
	struct rw_msg_state *m = oi == 2 ? &f->rmsg : &f->msg;
	int resume = 0;

	if (oi < 0 || !(op->flags & (RW_OPF_FIRST | RW_OPF_MIDDLE | RW_OPF_LAST)))
		return 0;
	/* READ responses below the first the capture saw: a READ answered
	 * before the capture, answered again; whether its requester took it
	 * then, the capture cannot tell: cut by the capture start, once (at
	 * its LAST, or at the end if none comes), not a message (README). */
	int pre = oi != 2 || ask == RD_AWAITED ? RD_PRE_NONE /* (a READ the capture saw asked for, first) */
		  : (n->flags & RW_N_PRECAPTURE) ? RD_PRE_BELOW
		  /* answered again, with no request waiting for it: answered
		   * before the capture, or lost before the capture point;
		   * which, and whether its requester took it, the capture
		   * cannot tell (README) */
		  : first && ask == RD_ANSWERED ? RD_PRE_AGAIN : RD_PRE_NONE;
	if (oi == 2) {
		enum read_take t = read_take(a, f, owner, m, psn, &len, first, req_psn,
					     ask == RD_AWAITED || ask == RD_AWAITED_AGAIN, frame, n, &resume);
		if (t == READ_DROP) {
			/* one the requester had all of: a duplicate (its
			 * first copy in the capture was judged already) */
			if (pre == RD_PRE_BELOW && last && (n->flags & RW_N_NEW))
				pre_read_cut(f, psn, n);
			return 0;
		}
		if (t == READ_CUT) {
			msg_cut_start(f, m, psn, last, n);
			m->next_psn = psn_add(psn, 1);
			if (last && !f->rcut_state) {
				f->rcut_state = 1;
				f->rcut_last = psn;
			}
			return 0;
		}
	}
	if (oi == 3) {
		/* An atomic is a message of its own with no payload. */
		m->seen_start = 1;
		m->broken = 0;
		f->messages++;
		owner->msgs_by_op[3]++;
		n->flags |= RW_N_MSG_DONE;
		n->msg_first_frame = frame;
		return 0;
	}
	if (first && !resume) {
		if (m->open) {
			if (m->pre)
				read_cut_before(f, m->pre, m->first_psn, m->first_psn, NULL);
			else
				f->msg_incomplete++;
			n->flags |= RW_N_MSG_BROKEN;
		}
		m->open = 1;
		m->seen_start = 1;
		m->in_cut = 0;
		m->restarted = 0;
		m->pre = (uint8_t)pre;
		m->broken = 0;
		m->bytes = 0;
		m->first_frame = frame;
		m->first_psn = psn;
		m->op = (uint8_t)oi;
		m->end_valid = 0;
	} else if (!m->open) {
		if (m->broken && m->op == oi && (!m->end_valid || rw_psn_diff(psn, m->end_psn) <= 0)) {
			/* The rest of a message a hole broke (UC): the responder
			 * drops it with the message, already incomplete. */
			if (last)
				m->broken = 0;
			return 0;
		}
		/* A SEND cannot go on with a WRITE, nor the other way: its
		 * FIRST went in the hole too, and it is an orphan. */
		m->broken = 0;
		if (!m->seen_start) {
			/* The capture started inside this message. */
			msg_cut_start(f, m, psn, last, n);
			return 0;
		}
		f->msg_orphans++;
		n->flags |= RW_N_ORPHAN;
		return 0;
	}
	m->bytes += len;
	if (last && oi == 2 && read_rest_of_cut(f, m->first_psn, psn)) {
		/* the READ the capture started inside, counted already */
		m->open = 0;
		m->pre = 0;
		owner->bytes_by_op[oi] += m->bytes;
		n->flags |= RW_N_CUT_START;
		return 1;
	}
	/* A READ begun below the first response PSN, resumed by the answer
	 * to a re-issue the capture saw requested, which waits for it: the
	 * capture saw it asked for and completed, a message. */
	if (last && m->pre && resume && ask == RD_AWAITED)
		m->pre = 0;
	if (last && m->pre) {
		uint8_t why = m->pre;
		m->open = 0;
		m->pre = 0;
		owner->bytes_by_op[oi] += m->bytes;
		/* (one whose LAST is not below the first PSN is the READ the
		 * capture started inside, counted so already; so is one whose
		 * LAST is that READ's: answered again whole, from where it
		 * starts, which its later answers start from too) */
		if (pre || why == RD_PRE_AGAIN)
			read_cut_before(f, why, m->first_psn, psn, n);
		else if (f->rcut_state && psn == f->rcut_last) {
			f->rcut_state = 2;
			f->rcut_first = m->first_psn;
		}
		return 1;
	}
	if (last) {
		m->open = 0;
		/* A copy of this READ left waiting for a resume (a resend of
		 * it answered it whole before that) waits no more. */
		for (unsigned k = 0; oi == 2 && k < f->rwait_cap; k++)
			if (f->rwait[k].open && f->rwait[k].first_psn == m->first_psn)
				f->rwait[k].open = 0;
		f->messages++;
		owner->msgs_by_op[oi]++;
		owner->bytes_by_op[oi] += m->bytes;
		n->flags |= RW_N_MSG_DONE;
		n->msg_bytes = m->bytes;
		n->msg_first_frame = m->first_frame;
		return 1;
	}
	return 0;
}

uint32_t msg_req_units(uint8_t opcode, uint32_t dmalen, uint32_t mtu, uint32_t floor, uint32_t *slack)
{
	*slack = 0;
	if (rw_opcode(opcode)->op != RW_OP_READ_REQ)
		return 1;
	if (mtu) /* a FIRST or MIDDLE of the QP showed it (IBA 9.7.4: they carry PMTU bytes) */
		return read_psns(dmalen, mtu);
	/* A READ's responses use PSNs psn .. psn+k-1, k = ceil(len/MTU), with
	 * the MTU unknown: anything from 4096-byte segments to segments of
	 * the smallest MTU the QP's packets leave possible (256 when none
	 * carried more). */
	uint32_t least = floor > 256 ? floor : 256;
	uint32_t kmin = read_psns(dmalen, 4096), kmax = read_psns(dmalen, least);
	*slack = kmax - kmin;
	return kmin;
}

#define DONE_AT(r, i) (&(r)->e[((r)->head + (i)) % (r)->cap])

/* Remembers a message completed from f's requests until the responder
 * acknowledges it; what it acknowledged already is forgotten first. */
static void done_push(struct rw_analyzer *a, struct rw_flow *f, const struct rw_done_msg *m)
{
	struct rw_done_ring *r = f->done;
	while (r && r->n && f->req.acked_valid &&
	       rw_psn_diff(DONE_AT(r, 0)->last_psn, f->req.acked_psn) <= 0) {
		r->head = (r->head + 1) % r->cap;
		r->n--;
	}
	if (!r || r->n == r->cap) {
		uint32_t cap = r ? r->cap * 2 : RW_DONE_MIN;
		struct rw_done_ring *g = cap <= RW_DONE_MAX ? an_alloc(a, DONE_BYTES(cap), 0) : NULL;
		if (g) {
			g->cap = cap;
			g->head = 0;
			g->n = 0;
			for (; r && g->n < r->n; g->n++)
				g->e[g->n] = *DONE_AT(r, g->n);
			if (r)
				an_free(a, r, DONE_BYTES(r->cap));
			f->done = r = g;
		} else if (!r) {
			return; /* no memory: it cannot be taken back */
		} else {
			/* full: the oldest is forgotten */
			r->head = (r->head + 1) % r->cap;
			r->n--;
		}
	}
	*DONE_AT(r, r->n) = *m;
	r->n++;
}

static void assemble(struct rw_analyzer *a, struct rw_flow *f, uint8_t opcode, uint32_t psn,
		     uint32_t len, uint64_t frame, struct rw_note *n)
{
	uint32_t slack;
	f->msg_psn = psn_add(psn, msg_req_units(opcode, len, f->cs.read_mtu, f->cs.mtu_floor, &slack));
	f->msg_slack = slack;
	f->msg_slack_len = len;
	if (rw_opcode(opcode)->op == RW_OP_READ_REQ) {
		f->msg.seen_start = 1;
		return;
	}
	uint64_t before = f->messages;
	msg_account(a, f, f, opcode, psn, len, -1, 0, frame, n);
	if (f->messages != before) {
		if (f->msg_back_n && rw_psn_diff(psn, f->msg_back_psn) <= 0 &&
		    rw_psn_diff(psn, f->msg_back_lo) >= 0)
			f->msg_back_n--; /* one a NAK took back, completed by its resend */
		int oi = op_index(rw_opcode(opcode)->op);
		uint32_t first = oi == 3 ? psn : f->msg.first_psn;
		if (f->msg_open_back && rw_psn_diff(first, f->msg_open_back_psn) <= 0 &&
		    rw_psn_diff(psn, f->msg_open_back_psn) >= 0)
			f->msg_open_back = 0; /* the one refused open, completed by its resend */
		if (f->msg_cut_back && rw_psn_diff(f->msg_cut_back_psn, first) >= 0 &&
		    rw_psn_diff(f->msg_cut_back_psn, psn) <= 0) {
			/* the message the capture started inside, resent whole */
			f->msg_cut_back = 0;
			f->msg_cut_start--;
		}
		if (f->msg_pre_cut && psn_bit(f->msg_pre_cut, psn)) {
			/* counted cut by the capture start at a resend the
			 * responder refused; its resend completed it */
			psn_bit_put(f->msg_pre_cut, psn, 0);
			f->msg_cut_start--;
		}
		struct rw_done_msg d = {
			.first_psn = first,
			.last_psn = psn,
			.op = (uint32_t)oi,
			.bytes = oi == 3 ? 0 : f->msg.bytes,
			.first_frame = oi == 3 ? frame : f->msg.first_frame,
		};
		done_push(a, f, &d);
	}
}

/* A FIRST or MIDDLE of either direction showed f's path MTU: its READs'
 * spans are known from now on, and the READ whose span was open
 * (msg_slack, the MTU unknown when it came) took exactly read_psns() PSNs,
 * so a request past that is past a hole, not the READ's end. */
void msg_mtu_shown(struct rw_flow *f, uint32_t mtu)
{
	f->cs.read_mtu = mtu;
	if (!f->msg_slack)
		return;
	uint32_t kmin = read_psns(f->msg_slack_len, 4096), k = read_psns(f->msg_slack_len, mtu);
	if (k < kmin || k - kmin > f->msg_slack)
		return; /* (not the READ's: the span stays open) */
	f->msg_psn = psn_add(f->msg_psn, k - kmin);
	f->msg_slack = 0;
}

static int takes(const struct rw_flow *f, uint32_t psn)
{
	int32_t d = rw_psn_diff(psn, f->msg_psn);
	return d >= 0 && (uint32_t)d <= f->msg_slack;
}

#define HOLD_PSN(h, i) ((h)->e[(h)->head + (i)].psn_op >> 8)

/* Takes every held request that continues the stream, from the front;
 * drops the ones the stream has passed. */
static void drain(struct rw_analyzer *a, struct rw_flow *f, struct rw_note *n)
{
	struct rw_hold_queue *h = f->hold;
	while (h && h->n) {
		uint32_t psn = HOLD_PSN(h, 0);
		if (rw_psn_diff(psn, f->msg_psn) >= 0 && !takes(f, psn))
			break;
		uint32_t op = h->e[h->head].psn_op, len = h->e[h->head].len;
		uint64_t frame = h->e[h->head].frame;
		h->head++;
		h->n--;
		if (rw_psn_diff(psn, f->msg_psn) >= 0)
			assemble(a, f, (uint8_t)op, psn, len, frame, n);
	}
	if (h && !h->n)
		h->head = 0;
}

/* Drops the held requests the stream has passed, taking none: the sender
 * went back over them, and the responder takes their resends, not the
 * copies it discarded beyond the hole. */
static void prune(struct rw_flow *f)
{
	struct rw_hold_queue *h = f->hold;
	while (h && h->n && rw_psn_diff(HOLD_PSN(h, 0), f->msg_psn) < 0) {
		h->head++;
		h->n--;
	}
	if (h && !h->n)
		h->head = 0;
}

/* Messages the capture showed part of that the hold and the open message
 * leave unfinished: the open one, and each one the held requests start or
 * continue (but a READ, which its responses count, and the resends of those
 * a NAK took back, counted with them). */
static uint64_t unfinished(const struct rw_flow *f)
{
	const struct rw_hold_queue *h = f->hold;
	uint64_t k = f->msg.open;
	/* held MIDDLEs and LASTs go on with the open message, or with the one
	 * the capture started inside (cut by its start, counted so) */
	int cur = f->msg.open || f->msg.in_cut ||
		  /* (held from the first PSN the capture saw of the message it
		   * started inside, resent: that message's rest) */
		  (h && h->n && ((f->msg_cut_valid && HOLD_PSN(h, 0) == f->msg_cut_psn) ||
				 (f->msg_cut_back && HOLD_PSN(h, 0) == f->msg_cut_back_psn)));
	/* (but not past the FIRST of a message a NAK refused while open, seen
	 * after the open one's: the first held past it is that message's
	 * rest, counted here, not in msg_finish) */
	int ob = f->msg_open_back && f->msg.open && rw_psn_diff(f->msg_open_back_psn, f->msg.first_psn) > 0;
	for (uint32_t i = 0; h && i < h->n; i++) {
		const struct rw_opcode_info *op = rw_opcode((uint8_t)h->e[h->head + i].psn_op);
		int first = (op->flags & RW_OPF_FIRST) || !(op->flags & (RW_OPF_MIDDLE | RW_OPF_LAST));
		if (ob && rw_psn_diff(HOLD_PSN(h, i), f->msg_open_back_psn) > 0) {
			ob = 0;
			cur = 0;
		}
		if (op->op == RW_OP_READ_REQ ||
		    (f->msg_back_n && rw_psn_diff(HOLD_PSN(h, i), f->msg_back_psn) <= 0 &&
		     rw_psn_diff(HOLD_PSN(h, i), f->msg_back_lo) >= 0)) {
			/* a READ is counted by its responses, and none came; a
			 * message a NAK took back is counted as such */
			cur = 0;
			continue;
		}
		if (first || !cur)
			k++; /* a start, or the rest of one whose start was lost */
		cur = !(op->flags & RW_OPF_LAST) && (op->flags & (RW_OPF_FIRST | RW_OPF_MIDDLE));
	}
	return k;
}

/* Gives the hole up: the stream goes on from the lowest held PSN. at_end:
 * the capture ended with the hole open. The message it broke is cut by the
 * capture end when the resend that would fill it was under way (the
 * responder had NAKed, the sender was going back) or the hole is too young
 * for any resend to have come (under RESEND_MIN_NS); else the capture lost
 * the packet and the message is incomplete, unless acked: the responder
 * acknowledged past the hole, so it took what the capture lost there. */
#define RESEND_MIN_NS 1000000ull

/* Whether the hold has the FIRST of the message the capture started
 * inside, resent after a refusal sent the sender back before it
 * (msg_cut_back): the nearest message start at or below the first PSN the
 * window showed of it, with no message ending between. The window then
 * shows that message from its FIRST: it is not cut by the capture start
 * (README), whatever the capture end makes of it. */
static int cut_back_first_held(const struct rw_flow *f)
{
	const struct rw_hold_queue *h = f->hold;
	for (uint32_t i = h ? h->n : 0; f->msg_cut_back && i-- > 0;) {
		uint32_t p = HOLD_PSN(h, i);
		if (rw_psn_diff(p, f->msg_cut_back_psn) > 0)
			continue;
		const struct rw_opcode_info *op = rw_opcode((uint8_t)h->e[h->head + i].psn_op);
		if (p != f->msg_cut_back_psn && ((op->flags & RW_OPF_LAST) || op_index(op->op) == 3))
			return 0;
		if (op->flags & RW_OPF_FIRST)
			return 1;
	}
	return 0;
}

static void give_up_hole(struct rw_analyzer *a, struct rw_flow *f, struct rw_note *n, int at_end,
			 int acked, uint64_t end_ns)
{
	struct rw_hold_queue *h = f->hold;
	if (at_end && h && h->n &&
	    (seq_resend_due(&f->req, f->msg_psn) || f->req.in_resend ||
	     end_ns - h->since_ns < RESEND_MIN_NS)) {
		/* The responder would have taken the held requests after the
		 * resend: the message the hole is in, and those behind it, are
		 * cut by the capture end. */
		if (cut_back_first_held(f)) {
			f->msg_cut_back = 0;
			f->msg_cut_start--;
		}
		/* (one counted cut by the capture start at a resend the
		 * responder refused, held again: cut by the end instead) */
		for (uint32_t i = 0; f->msg_pre_cut && i < h->n; i++) {
			uint32_t hp = HOLD_PSN(h, i);
			const struct rw_opcode_info *op = rw_opcode((uint8_t)h->e[h->head + i].psn_op);
			if ((op->flags & RW_OPF_LAST) && psn_bit(f->msg_pre_cut, hp)) {
				psn_bit_put(f->msg_pre_cut, hp, 0);
				f->msg_cut_start--;
			}
		}
		f->msg_cut_end += unfinished(f);
		f->msg.open = 0;
		h->n = h->head = 0;
		return;
	}
	while (h && h->n) {
		/* acked: the responder acknowledged past the hole, so it took
		 * the packets the capture lost there and the message goes on */
		if (f->msg.open && !(acked && rw_psn_diff(f->req.acked_psn, f->msg_psn) >= 0)) {
			f->msg.open = 0;
			f->msg_incomplete++;
			n->flags |= RW_N_MSG_BROKEN;
		}
		f->msg_psn = HOLD_PSN(h, 0);
		f->msg_slack = 0;
		drain(a, f, n);
	}
}

static void hold_put(struct rw_analyzer *a, struct rw_flow *f, const struct rw_packet *p,
		     uint32_t len, uint64_t ts, uint64_t frame, struct rw_note *n);

/* A resend below the first PSN the assembler took, that no refusal sent
 * it back to: its first copy came before the capture, and the responder
 * took it then (it took the PSNs after it the capture saw). The message it
 * belongs to was cut by the capture start: counted once, at its LAST or
 * ONLY (one that goes on into the window is the message the window starts
 * inside, counted there). */
static void pre_cut(struct rw_analyzer *a, struct rw_flow *f, uint8_t opcode, uint32_t psn,
		    struct rw_note *n)
{
	const struct rw_opcode_info *op = rw_opcode(opcode);
	if (op_index(op->op) < 0 || !(op->flags & (RW_OPF_FIRST | RW_OPF_MIDDLE | RW_OPF_LAST)))
		return;
	if (f->msg_pre_skip_valid && psn == f->msg_pre_skip_psn)
		f->msg_pre_skip_valid = 0; /* its copy before came with a bad ICRC: not counted */
	else if (f->msg_pre_valid && rw_psn_diff(psn, f->msg_pre_psn) <= 0)
		return; /* counted already (a second go-back) */
	if (!f->msg_pre_valid || rw_psn_diff(psn, f->msg_pre_psn) > 0)
		f->msg_pre_psn = psn;
	f->msg_pre_valid = 1;
	n->flags |= RW_N_CUT_START;
	/* (2: open from a FIRST the capture showed) */
	f->msg_pre_open = (op->flags & RW_OPF_LAST) || op_index(op->op) == 3 ? 0
			  : (op->flags & RW_OPF_FIRST) || f->msg_pre_open == 2 ? 2
										: 1;
	if (!f->msg_pre_open) {
		f->msg_cut_start++;
		if (!f->msg_pre_cut)
			f->msg_pre_cut = an_alloc(a, PSN_WINDOW / 8, 0);
		if (f->msg_pre_cut)
			psn_bit_put(f->msg_pre_cut, psn, 1);
	}
}

/* UC: a WRITE's FIRST carries the MTU, its RETH the length, which give the
 * WRITE's last PSN: should a hole break it, a packet past that is no rest
 * of it (its own FIRST went in the hole: an orphan). */
static void uc_write_end(struct rw_flow *f, const struct rw_packet *p)
{
	uint32_t mtu = p->payload_len;
	if (f->msg.open && f->msg.first_psn == p->bth.psn && (p->op->flags & RW_OPF_FIRST) &&
	    p->op->op == RW_OP_WRITE && mtu && p->reth.dmalen > mtu) {
		f->msg.end_valid = 1;
		f->msg.end_psn = psn_add(p->bth.psn, (p->reth.dmalen + mtu - 1) / mtu - 1);
	}
}

/* UC: the receiver dropped a packet at or past the PSN it expects (bad
 * ICRC), and nothing will resend it. The message in progress can never
 * complete, and the capture saw why; what follows a dropped FIRST, ONLY or
 * LAST belongs to the next message (orphans until a FIRST), what follows a
 * dropped MIDDLE is the rest of the broken message. */
static void uc_dropped(struct rw_flow *f, const struct rw_opcode_info *op, uint32_t psn,
		       struct rw_note *n)
{
	if (f->msg.open) {
		f->msg.open = 0;
		f->msg.broken = 1;
		f->msg_incomplete++;
		n->flags |= RW_N_MSG_BROKEN;
	}
	if (op->flags & (RW_OPF_FIRST | RW_OPF_LAST) || !(op->flags & RW_OPF_MIDDLE)) {
		f->msg.broken = 0;
		f->msg.seen_start = 1;
	}
	f->msg_psn = psn_add(psn, 1);
	f->msg_slack = 0;
}

/* Whether a NAK of the reverse address pair may name one of f's PSNs: one
 * it sent (at most PSN_WINDOW back from its highest), or one of the few
 * before its first that the capture missed. A NAK of another QP of the
 * same hosts names PSNs of its own range. */
int msg_nak_fits(const struct rw_flow *f, uint32_t psn)
{
	if (!f->req.valid)
		return 0;
	int32_t below = rw_psn_diff(f->req.high_psn, psn);
	return below >= 0 && (uint32_t)below <= PSN_WINDOW;
}

/* Whether o holds the unattributed NAK (psn, src); its index, or -1. */
static int nak_held(const struct rw_flow *o, uint32_t psn, int32_t src)
{
	for (unsigned j = 0; j < o->msg_nak_n; j++)
		if (o->msg_nak_psn[j] == psn && o->msg_nak_src[j] == src)
			return (int)j;
	return -1;
}

/* Keeps an unattributed NAK's PSN for f (the oldest goes when full). */
void msg_nak_add(struct rw_flow *f, uint32_t psn, int32_t src)
{
	if (nak_held(f, psn, src) >= 0)
		return; /* a duplicate NAK: one go-back answers both */
	if (f->msg_nak_n == RW_MSG_NAKS) {
		memmove(f->msg_nak_psn, f->msg_nak_psn + 1, (RW_MSG_NAKS - 1) * sizeof(uint32_t));
		memmove(f->msg_nak_src, f->msg_nak_src + 1, (RW_MSG_NAKS - 1) * sizeof(int32_t));
		f->msg_nak_n--;
	}
	f->msg_nak_src[f->msg_nak_n] = src;
	f->msg_nak_psn[f->msg_nak_n++] = psn;
}

/* Removes f's entry k. */
static void nak_drop(struct rw_flow *f, unsigned k)
{
	f->msg_nak_n--;
	memmove(f->msg_nak_psn + k, f->msg_nak_psn + k + 1, (f->msg_nak_n - k) * sizeof(uint32_t));
	memmove(f->msg_nak_src + k, f->msg_nak_src + k + 1, (f->msg_nak_n - k) * sizeof(int32_t));
}

/* Whether an unattributed NAK named psn: f, going back to it, is the flow
 * it refused. A go-back a NAK asked for starts at its PSN (IBA 9.7.5.1.3);
 * a resend run that began below it passes it on the way, and answers it
 * only when no other request flow of the address pair may still start
 * its go-back there (several QPs of a host pair often send the same PSNs;
 * each NAK is one of theirs). Once answered, f and every other flow it
 * was offered to forget it. */
int msg_nak_take(struct rw_analyzer *a, struct rw_flow *f, uint32_t psn, int starts_go_back)
{
	for (unsigned k = 0; k < f->msg_nak_n; k++) {
		if (f->msg_nak_psn[k] != psn)
			continue;
		int32_t src = f->msg_nak_src[k];
		struct rw_flow *o;
		if (!starts_go_back) {
			FOR_EACH_REQ_IN_PAIR(a, f->addr_pair, o)
				if (o != f && o->peer < 0 && !o->closed && nak_held(o, psn, src) >= 0)
					return 0;
		}
		nak_drop(f, k);
		FOR_EACH_REQ_IN_PAIR(a, f->addr_pair, o) {
			int j = o != f ? nak_held(o, psn, src) : -1;
			if (j >= 0)
				nak_drop(o, (unsigned)j);
		}
		return 1;
	}
	return 0;
}

/* A go-back seen starting a few PSNs past the PSN an unattributed NAK
 * named (at most NAK_SKIP_MAX): it started there, and its first resends
 * were lost before the capture point, as the one it answers was (IBA
 * 9.7.5.1.3: the requester resends from the NAKed PSN). Taken only when no
 * other request flow of the address pair holds that NAK (several QPs of a
 * host pair often send the same PSNs: the NAK may be one whose go-back is
 * still to come); *naked: its PSN. */
#define NAK_SKIP_MAX 8
static int nak_take_below(struct rw_analyzer *a, struct rw_flow *f, uint32_t psn, uint32_t *naked)
{
	for (unsigned k = 0; k < f->msg_nak_n; k++) {
		int32_t d = rw_psn_diff(psn, f->msg_nak_psn[k]);
		if (d <= 0 || d > NAK_SKIP_MAX)
			continue;
		struct rw_flow *o;
		FOR_EACH_REQ_IN_PAIR(a, f->addr_pair, o)
			if (o != f && o->peer < 0 && !o->closed &&
			    nak_held(o, f->msg_nak_psn[k], f->msg_nak_src[k]) >= 0)
				return 0;
		*naked = f->msg_nak_psn[k];
		return msg_nak_take(a, f, *naked, 1);
	}
	return 0;
}

void msg_take_request(struct rw_analyzer *a, struct rw_flow *f, const struct rw_packet *p,
		      uint64_t ts, uint64_t frame, struct rw_note *n)
{
	uint32_t psn = p->bth.psn;
	uint32_t len = p->op->op == RW_OP_READ_REQ ? p->reth.dmalen : p->payload_len;

	/* A packet whose ICRC is bad is silently dropped by the responder
	 * (IBA: a packet failing its CRC checks is discarded): it starts,
	 * continues and completes nothing, and the PSN the responder expects
	 * stays its own. */
	if (p->icrc_status == RW_CRC_BAD) {
		if (!f->msg_psn_valid && p->op->transport != RW_TRANSPORT_UC) {
			/* The flow's first packet: the responder dropped it and
			 * waits for its resend, so what comes after it is past a
			 * hole (an RC responder takes only the expected PSN). */
			f->msg_psn_valid = 1;
			f->msg_psn = psn;
			f->msg_start_psn = psn;
			return;
		}
		if (!f->msg_psn_valid) {
			/* A UC flow's first packet: the receiver dropped it,
			 * and a FIRST or ONLY still shows where a message
			 * began (its rest are orphans, README "orphan"). */
			f->msg_psn_valid = 1;
			f->msg_psn = psn;
			f->msg_start_psn = psn;
		}
		int32_t d = rw_psn_diff(psn, f->msg_psn);
		if (p->op->transport != RW_TRANSPORT_UC && d >= 0 && (uint32_t)d <= f->msg_slack) {
			/* Inside the PSNs the last READ may have used (its MTU
			 * unknown): the READ ended before psn, which the
			 * responder expects next and has not got. */
			f->msg_psn = psn;
			f->msg_slack = 0;
			return;
		}
		if (p->op->transport == RW_TRANSPORT_UC && f->msg_psn_valid &&
		    rw_psn_diff(psn, f->msg_psn) >= 0 && (uint32_t)rw_psn_diff(psn, f->msg_psn) < PSN_WINDOW)
			uc_dropped(f, p->op, psn, n);
		/* A resend below the window's first PSN that would be counted
		 * cut by the capture start (pre_cut), dropped: its next copy
		 * is, even below the resends counted after it. */
		if (f->msg_psn_valid && rw_psn_diff(psn, f->msg_start_psn) < 0 &&
		    ((p->op->flags & RW_OPF_LAST) || op_index(p->op->op) == 3) &&
		    !(f->msg_pre_valid && rw_psn_diff(psn, f->msg_pre_psn) <= 0) &&
		    (!f->msg_pre_skip_valid || rw_psn_diff(psn, f->msg_pre_skip_psn) < 0)) {
			f->msg_pre_skip_valid = 1;
			f->msg_pre_skip_psn = psn;
		}
		return;
	}
	if (!f->msg_psn_valid) {
		f->msg_psn_valid = 1;
		f->msg_psn = psn;
		f->msg_start_psn = psn;
	}
	if (f->hold && f->hold->n && f->req.acked_valid &&
	    rw_psn_diff(f->req.acked_psn, f->msg_psn) >= 0 &&
	    !((n->flags & RW_N_RETRANS) && rw_psn_diff(psn, f->msg_psn) <= 0))
		/* (unless this resend goes back over the hole: it fills it) */
		give_up_hole(a, f, n, 0, 1, 0); /* the responder took the hole's PSN: the capture lost it */
	uint32_t naked = psn;
	if (f->msg_nak_n && (n->flags & RW_N_RETRANS) && f->peer < 0 &&
	    (msg_nak_take(a, f, psn, (n->flags & RW_N_GBN_START) != 0) ||
	     ((n->flags & RW_N_GBN_START) && nak_take_below(a, f, psn, &naked))))
		/* The go-back a NAK carried before the pairing asked for: the
		 * responder refused the NAKed PSN and what came after it. */
		msg_refused(f, naked);
	if (rw_psn_diff(psn, f->msg_psn) < 0) {
		/* assembled before: a resend */
		if (rw_psn_diff(psn, f->msg_start_psn) < 0)
			pre_cut(a, f, p->bth.opcode, psn, n);
		return;
	}
	if (takes(f, psn)) {
		int32_t in_slack = rw_psn_diff(psn, f->msg_psn);
		if (in_slack > 0 && p->op->transport != RW_TRANSPORT_UC && !f->msg.open &&
		    !(p->op->flags & RW_OPF_FIRST)) {
			/* Inside the PSNs a READ may have used (its MTU
			 * unknown), a MIDDLE or LAST with no message open: its
			 * FIRST came after the READ's end and was lost — a
			 * hole, not the READ's end with an orphan after it.
			 * The READ ended before psn - 1 at the latest. */
			f->msg_slack = (uint32_t)in_slack - 1;
			hold_put(a, f, p, len, ts, frame, n);
			return;
		}
		assemble(a, f, p->bth.opcode, psn, len, frame, n);
		if (p->op->transport == RW_TRANSPORT_UC)
			uc_write_end(f, p);
		if (f->hold && f->hold->n && (n->flags & RW_N_RETRANS)) {
			/* The sender went back to fill the hole: the responder
			 * discarded what came beyond it (IBA 9.7.5: out of
			 * sequence), which go-back-N sends again. The held
			 * copies are not the ones it takes: they wait for
			 * their resends (or the capture end). */
			prune(f);
			return;
		}
		drain(a, f, n);
		return;
	}
	if (p->op->transport == RW_TRANSPORT_UC) {
		/* UC has no resends and its responder does not wait: a PSN
		 * past the expected one leaves the message in progress
		 * incomplete, the rest of it is dropped, and the next FIRST
		 * or ONLY starts a new one (IBA, UC responder: a PSN error
		 * drops the message). A late packet below it is dropped. */
		if (f->msg.open) {
			f->msg.open = 0;
			f->msg.broken = 1;
			f->msg_incomplete++;
			n->flags |= RW_N_MSG_BROKEN;
		}
		f->msg_psn = psn;
		f->msg_slack = 0;
		assemble(a, f, p->bth.opcode, psn, len, frame, n);
		uc_write_end(f, p);
		return;
	}
	hold_put(a, f, p, len, ts, frame, n);
}

/* The responder refused request psn (an RNR NAK, or a sequence NAK naming
 * the PSN it expects): it took every request before it and none from it on
 * until the sender resends it. The assembler goes back to psn when it went
 * past it: a message whose FIRST was refused is not open, and what it held
 * beyond is dropped. A message the capture saw complete at or past psn
 * (the responder had refused it: an RNR NAK, or a hole before the capture
 * started) was not taken: its count and bytes are taken back (the packet
 * keeps its msg_done note: the capture saw it complete there) and its
 * resend completes it; one whose FIRST came before psn is open again. */
void msg_refused(struct rw_flow *f, uint32_t psn)
{
	if (!f->msg_psn_valid)
		return;
	int32_t d = rw_psn_diff(f->msg_psn, psn);
	if (d < 0 && (uint32_t)-d <= f->msg_slack) {
		/* Inside the PSNs the last READ may have used (its MTU
		 * unknown): the READ ended before psn, which the responder
		 * expects next. */
		f->msg_psn = psn;
		f->msg_slack = 0;
		return;
	}
	if (d <= 0 || (uint32_t)d > PSN_WINDOW)
		return;
	if (f->msg.open && rw_psn_diff(f->msg.first_psn, psn) >= 0) {
		f->msg.open = 0;
		if (!f->msg_open_back || rw_psn_diff(f->msg.first_psn, f->msg_open_back_psn) < 0) {
			f->msg_open_back = 1;
			f->msg_open_back_psn = f->msg.first_psn;
		}
	}
	if (f->msg_cut_valid && rw_psn_diff(f->msg_cut_psn, psn) >= 0) {
		/* The responder had not taken the first packet the window
		 * showed of the message the capture started inside, and its
		 * resend from psn (its FIRST, or an earlier message) comes:
		 * should it complete the message, that counts instead. */
		f->msg_cut_valid = 0;
		f->msg.in_cut = 0;
		f->msg_cut_back = 1;
		f->msg_cut_back_psn = f->msg_cut_psn;
	} else if (f->msg_cut_valid && f->msg_cut_ended && rw_psn_diff(psn, f->msg_cut_last) <= 0) {
		/* Inside that message, past the first packet the window
		 * showed of it, its LAST seen: the resend of its rest is the
		 * same message, counted already (its FIRST is not sent
		 * again, so it starts with no FIRST as it did). */
		f->msg.open = 0;
		f->msg.seen_start = 0;
		f->msg.in_cut = 1;
	}
	if (rw_psn_diff(psn, f->msg_start_psn) < 0) {
		/* back before anything the window showed: what comes first
		 * may be the rest of a message begun before the capture */
		f->msg_start_psn = psn;
		f->msg.seen_start = 0;
		f->msg.in_cut = 0;
	}
	struct rw_done_ring *r = f->done;
	while (r && r->n) {
		struct rw_done_msg *e = DONE_AT(r, r->n - 1);
		if (rw_psn_diff(e->last_psn, psn) < 0)
			break;
		r->n--;
		f->messages--;
		f->msgs_by_op[e->op]--;
		f->bytes_by_op[e->op] -= e->bytes;
		if (rw_psn_diff(e->first_psn, psn) >= 0) {
			if (!f->msg_back_n || rw_psn_diff(e->last_psn, f->msg_back_psn) > 0)
				f->msg_back_psn = e->last_psn;
			if (!f->msg_back_n || rw_psn_diff(e->first_psn, f->msg_back_lo) < 0)
				f->msg_back_lo = e->first_psn;
			f->msg_back_n++;
		}
		if (rw_psn_diff(e->first_psn, psn) < 0) {
			/* The responder took its FIRST, not its LAST: it
			 * goes on from psn. */
			f->msg.open = 1;
			f->msg.seen_start = 1;
			f->msg.in_cut = 0;
			f->msg.broken = 0;
			f->msg.op = (uint8_t)e->op;
			f->msg.first_psn = e->first_psn;
			f->msg.first_frame = e->first_frame;
			f->msg.bytes = e->bytes;
			break;
		}
	}
	f->msg_psn = psn;
	f->msg_slack = 0;
}

/* Room for twice as many held requests, up to RW_HOLD_MAX (or the first
 * RW_HOLD_MIN); 0 if there is none (memory limit). */
static int hold_grow(struct rw_analyzer *a, struct rw_flow *f)
{
	struct rw_hold_queue *h = f->hold;
	uint32_t cap = h ? h->cap * 2 : RW_HOLD_MIN;
	if (cap > RW_HOLD_MAX)
		return 0;
	struct rw_hold_queue *nh = an_alloc(a, HOLD_BYTES(cap), 0);
	if (!nh)
		return 0;
	nh->cap = cap;
	if (h) {
		memcpy(nh->e, h->e + h->head, h->n * sizeof(h->e[0]));
		nh->n = h->n;
		nh->since_ns = h->since_ns;
		an_free(a, h, HOLD_BYTES(h->cap));
	}
	f->hold = nh;
	return 1;
}

/* Whether the capture shows traffic from f's responder host back to its
 * requester: then a QP whose own answers it has not shown yet (they were
 * lost: the NAK of the hole with them) may still be answered, or time out
 * and resend; a capture of one direction only shows neither. */
static int answers_seen(struct rw_analyzer *a, const struct rw_flow *f)
{
	return an_pair_lookup(a, f->key.family, f->key.dst, f->key.src, 0) >= 0;
}

static void hold_put(struct rw_analyzer *a, struct rw_flow *f, const struct rw_packet *p,
		     uint32_t len, uint64_t ts, uint64_t frame, struct rw_note *n)
{
	uint32_t psn = p->bth.psn;
	if (!f->hold && !hold_grow(a, f)) {
		/* No memory for a hold: the hole is given up at once. */
		if (f->msg.open) {
			f->msg.open = 0;
			f->msg_incomplete++;
			n->flags |= RW_N_MSG_BROKEN;
		}
		f->msg_psn = psn;
		f->msg_slack = 0;
		msg_take_request(a, f, p, ts, frame, n);
		return;
	}
	struct rw_hold_queue *h = f->hold;
	/* Sorted by distance from the assembler's PSN; a new request usually
	 * goes last. */
	int32_t d = rw_psn_diff(psn, f->msg_psn);
	uint32_t i = h->n;
	if (i && rw_psn_diff(HOLD_PSN(h, i - 1), f->msg_psn) >= d) {
		/* a resend of a held PSN, or one that fills in between: the
		 * first entry at or past d (a hold grows to thousands) */
		uint32_t lo = 0, hi = i - 1;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			if (rw_psn_diff(HOLD_PSN(h, mid), f->msg_psn) < d)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (rw_psn_diff(HOLD_PSN(h, lo), f->msg_psn) == d)
			return; /* held already */
		i = lo;
	}
	if (h->n == h->cap) {
		/* Worth waiting for while a resend is due, or while the
		 * responder, whose direction the capture shows (this QP's, or
		 * its host's for other QPs), may still NAK
		 * the hole or acknowledge past it: its answer lags the requests
		 * by the time they take to reach it and the answer to come
		 * back. While the hole is younger than any resend takes
		 * (RESEND_MIN_NS), in a capture that shows answers at all,
		 * the responder may not have answered anything yet: a
		 * congested queue towards it holds the requests that would
		 * make it NAK, while the sender goes on at line rate. */
		int due = seq_resend_due(&f->req, f->msg_psn);
		int young = a->answers_shown && ts - h->since_ns < RESEND_MIN_NS;
		/* (a hole the capture saw filled by a packet with a bad ICRC:
		 * the responder dropped it, the capture did not lose it) */
		int dropped = seq_seen(&f->req, f->msg_psn);
		if ((due || young || dropped || f->peer >= 0 || answers_seen(a, f)) && hold_grow(a, f)) {
			h = f->hold;
		} else if (!due) {
			/* Nothing says the network lost the hole's packet, and
			 * nothing more will: the capture lost it. */
			give_up_hole(a, f, n, 0, 0, 0);
			msg_take_request(a, f, p, ts, frame, n);
			return;
		} else {
			/* The resend brings the hole and everything after it
			 * again: keep the requests nearest the hole, let the
			 * furthest go. */
			if (i == h->n)
				return;
			h->n--;
		}
	}
	if (h->head + h->n == h->cap) {
		memmove(h->e, h->e + h->head, h->n * sizeof(h->e[0]));
		h->head = 0;
	}
	if (!h->n)
		h->since_ns = ts;
	uint32_t at = h->head + i;
	memmove(h->e + at + 1, h->e + at, (h->n - i) * sizeof(h->e[0]));
	h->e[at].psn_op = psn << 8 | p->bth.opcode;
	h->e[at].len = len;
	h->e[at].frame = frame;
	h->n++;
}

void msg_release(struct rw_analyzer *a, struct rw_flow *f)
{
	if (f->hold)
		an_free(a, f->hold, HOLD_BYTES(f->hold->cap));
	f->hold = NULL;
	if (f->done)
		an_free(a, f->done, DONE_BYTES(f->done->cap));
	f->done = NULL;
	an_free(a, f->msg_pre_cut, PSN_WINDOW / 8);
	f->msg_pre_cut = NULL;
	an_free(a, f->rd_asked, PSN_WINDOW / 8);
	an_free(a, f->rd_late, PSN_WINDOW / 8);
	an_free(a, f->rd_answered, PSN_WINDOW / 8);
	an_free(a, f->rd_dropped, PSN_WINDOW / 8);
	f->rd_asked = f->rd_late = f->rd_answered = f->rd_dropped = NULL;
	an_free(a, f->rwait, f->rwait_cap * sizeof(*f->rwait));
	f->rwait = NULL;
	f->rwait_cap = 0;
}

void msg_finish(struct rw_analyzer *a, struct rw_flow *f, uint64_t end_ns)
{
	struct rw_note n;
	memset(&n, 0, sizeof(n));
	/* The resend of one a NAK took back, open at the end: counted as
	 * open (or held), not also as taken back. */
	if (f->msg.open && f->msg_back_n && rw_psn_diff(f->msg.first_psn, f->msg_back_lo) >= 0 &&
	    rw_psn_diff(f->msg.first_psn, f->msg_back_psn) <= 0)
		f->msg_back_n--;
	/* One refused while open whose resend the capture did not show
	 * complete, nor open at the end: its receiver completes it after.
	 * (One whose PSNs the hold reaches is counted with the hold: its
	 * resend held, or the rest of it as the message a hole broke.) */
	const struct rw_hold_queue *h = f->hold;
	int rest_held = h && h->n && rw_psn_diff(HOLD_PSN(h, h->n - 1), f->msg_open_back_psn) >= 0;
	if (f->msg_open_back && !(f->msg.open && f->msg.first_psn == f->msg_open_back_psn) && !rest_held)
		f->msg_cut_end++;
	give_up_hole(a, f, &n, 1, 0, end_ns);
	f->msg_open_back = 0;
	f->msg_cut_end += f->msg_back_n; /* refused, and their resends not seen whole */
	f->msg_back_n = 0;
	/* A message wholly below the window's first PSN whose LAST the
	 * capture ended before: cut by the capture start all the same (its
	 * first copies went by before it), unless the window started inside
	 * a message (a MIDDLE or LAST first): with no LAST seen after its
	 * resends and nothing seen between them and the window's first PSN,
	 * it is the message the window starts inside, counted there. */
	if (f->msg_pre_open && psn_add(f->msg_pre_psn, 1) != f->msg_start_psn && !f->first_mid_message)
		f->msg_cut_start++;
	else if (f->msg_pre_open == 2 && psn_add(f->msg_pre_psn, 1) == f->msg_start_psn && f->first_mid_message &&
		 f->msg.in_cut && f->msg_cut_valid && f->msg_cut_psn == f->msg_start_psn) {
		/* The message the window starts inside, its LAST not shown,
		 * sent again from its FIRST (below the window's first PSN) and
		 * open at the end: the capture saw it begin; cut by the
		 * capture end instead, once. */
		f->msg_cut_start--;
		f->msg_cut_end++;
	}
	f->msg_pre_open = 0;
	if (f->msg.open) {
		if (f->msg_cut_back && rw_psn_diff(f->msg_cut_back_psn, f->msg.first_psn) >= 0 &&
		    rw_psn_diff(f->msg_cut_back_psn, f->msg_psn) < 0) {
			/* the message the capture started inside, its resend
			 * open from its FIRST past the first PSN the window
			 * showed of it: cut by the capture end instead */
			f->msg_cut_back = 0;
			f->msg_cut_start--;
		}
		f->msg_cut_end++;
		f->msg.open = 0;
	}
	if (f->rmsg.open) {
		if (f->rmsg.pre && f->rcut_state == 2 && f->rmsg.first_psn == f->rcut_first)
			; /* the READ the capture started inside, counted */
		else if (f->rmsg.pre)
			read_cut_before(f, f->rmsg.pre, f->rmsg.first_psn, f->rmsg.first_psn, NULL);
		else
			f->msg_cut_end++;
		f->rmsg.open = 0;
	}
	for (unsigned k = 0; k < f->rwait_cap; k++) {
		if (!f->rwait[k].open)
			continue;
		if (f->rwait[k].in_cut)
			f->msg_cut_start++;
		else if (f->rwait[k].pre)
			read_cut_before(f, f->rwait[k].pre, f->rwait[k].first_psn, f->rwait[k].first_psn, NULL);
		else
			f->msg_cut_end++;
		f->rwait[k].open = 0;
	}
	msg_release(a, f);
}
