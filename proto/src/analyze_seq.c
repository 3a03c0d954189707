/* SPDX-License-Identifier: BSD-3-Clause */
/* PSN sequences: what each packet's PSN says about the stream it belongs to
 * (new, after a gap, resent, late), and what cannot be known because the
 * capture started in the middle of the conversation. */
#include <string.h>

#include "analyze_int.h"

/* seen[] is circular: bit (psn % 1024) says whether psn was seen, valid for
 * the 1024 PSNs below high_psn; moving high_psn forward clears the bits of
 * the PSNs it passes. */
static int seen_get(const struct rw_seq *s, uint32_t psn)
{
	return psn_bit(s->seen, psn);
}

static void seen_set(struct rw_seq *s, uint32_t psn)
{
	psn_bit_put(s->seen, psn, 1);
}

/* Moves high_psn forward by k PSNs, marking them seen or not. */
static void seen_advance(struct rw_seq *s, uint32_t k, int mark)
{
	if (k >= PSN_WINDOW) {
		memset(s->seen, mark ? 0xFF : 0, sizeof(s->seen));
	} else {
		for (uint32_t i = 0; i < k; i++)
			psn_bit_put(s->seen, (s->high_psn + i) & RW_PSN_MASK, mark);
	}
	s->high_psn = psn_add(s->high_psn, k);
	if (!s->wide && (uint32_t)rw_psn_diff(s->high_psn, s->first_psn) >= PSN_WINDOW)
		s->wide = 1;
}

/* Whether psn, one of the PSN_WINDOW below the highest, was seen. */
int seq_seen(const struct rw_seq *s, uint32_t psn)
{
	if (!s->valid)
		return 0;
	int32_t d = rw_psn_diff(s->high_psn, psn);
	return d > 0 && (uint32_t)d <= PSN_WINDOW && seen_get(s, psn);
}

/* PSNs after high_psn that were used without being seen on this flow (the
 * responses of a READ take the requester's PSNs). */
void seq_consume(struct rw_seq *s, uint32_t k)
{
	seen_advance(s, k, 1);
	s->next_psn = s->high_psn;
}

/* A response acknowledged everything up to acked_psn. Once that reaches a
 * PSN this capture saw the requester send, the stream is known: a later
 * first copy of a PSN was not sent before the capture started, as far as
 * the responder can tell (it accepted everything before it). Until then a
 * new PSN may resend a packet that went by before the capture started. */
void seq_sync_on_ack(struct rw_seq *s, uint32_t acked_psn, int heard)
{
	if (!s->valid)
		return;
	int32_t from_first = rw_psn_diff(acked_psn, s->first_psn);
	int32_t to_high = rw_psn_diff(s->high_psn, acked_psn);
	if (from_first >= 0 && to_high > 0)
		s->synced = 1;
	if (to_high > 0 && (!s->acked_valid || rw_psn_diff(acked_psn, s->acked_psn) > 0)) {
		s->acked_psn = acked_psn;
		s->acked_valid = 1;
	}
	if (heard && to_high > 0 && (!s->heard_valid || rw_psn_diff(acked_psn, s->heard_psn) > 0)) {
		s->heard_psn = acked_psn;
		s->heard_valid = 1;
	}
	/* The PSN a sequence NAK asked for has arrived: the responder no
	 * longer discards what follows it (IBA 9.7.5.2.2). Until then every
	 * PSN from it up comes again, however many resends the network
	 * drops on the way. */
	if (s->nak_wait && rw_psn_diff(acked_psn, s->nak_psn) >= 0)
		s->nak_wait = 0;
}

/* Whether the sender is known to go back over psn, a PSN below high_psn:
 * the responder waits for a PSN at or before it (a sequence NAK not yet
 * acknowledged: go-back-N sends everything from that PSN again), or the
 * sender went back, or was asked to, while psn was below its highest PSN
 * (a go-back-N run resends everything up to where the sender had got). */
static int going_back(const struct rw_seq *s, uint32_t psn)
{
	return (s->nak_wait && rw_psn_diff(psn, s->nak_psn) >= 0) ||
	       (s->recov_valid && rw_psn_diff(psn, s->recov_high) < 0);
}

/* Whether a resend of psn, a PSN below high_psn the responder has not
 * taken, may still come: the responder waits for a PSN at or before it, or
 * the sender went back over it within its last PSN_WINDOW PSNs. A sender
 * that went on further than that with no NAK waiting and without going
 * back again is taken to have nothing left to resend there: the capture
 * lost the packet. */
int seq_resend_due(const struct rw_seq *s, uint32_t psn)
{
	if (!s->valid || rw_psn_diff(s->high_psn, psn) <= 0)
		return 0;
	if (s->nak_wait && rw_psn_diff(psn, s->nak_psn) >= 0)
		return 1;
	return s->recov_valid && rw_psn_diff(psn, s->recov_high) < 0 &&
	       (uint32_t)rw_psn_diff(s->high_psn, s->recov_high) < PSN_WINDOW;
}

/* The peer asked for what this stream sent to be sent again (a requester
 * re-issuing a READ asks its responder for the READ's responses from the
 * first one it missed, IBA 9.7.5.1.4): every hole below the highest PSN is
 * refilled by resends from now on. */
void seq_resend_asked(struct rw_seq *s)
{
	if (!s->valid)
		return;
	s->recov_valid = 1;
	s->recov_high = s->high_psn;
}

/* A READ request at psn, after seq_track: its responses take k PSNs at
 * least, k + slack at most (IBA 9.4.4: one per MTU of data, the MTU unknown
 * here). The PSNs it takes up to the highest seen and past it are used
 * without being seen on this flow, and the next request may come up to
 * slack PSNs later with no gap. A READ sent again inside what the flow has
 * shown takes nothing new: the next request continues the stream at
 * psn + k at the earliest, so a resent READ followed by the resend of the
 * next request is one run, not a second go-back. */
void seq_read_span(struct rw_seq *s, uint32_t psn, uint32_t k, uint32_t slack)
{
	uint32_t end = psn_add(psn, k);
	int32_t beyond = rw_psn_diff(end, s->high_psn);
	if (beyond >= 0) {
		seq_consume(s, (uint32_t)beyond);
		s->read_slack = slack;
	}
	s->next_psn = end;
	s->next_slack = slack;
}

static int starts_message(uint8_t opcode)
{
	const struct rw_opcode_info *op = rw_opcode(opcode);
	return (op->flags & RW_OPF_FIRST) || rw_op_answered_alone(op->op);
}

/* Whether a request starts a new conversation on the same key: its QP was
 * destroyed and the number given to a new QP, whose PSNs restart anywhere.
 * Within one conversation a requester only goes forward or back to what is
 * unacknowledged, so a message start after a silence that either jumps far
 * away (further than any window of outstanding PSNs) or goes back to a PSN
 * the responder had acknowledged, in an answer the requester took (one it
 * dropped for a bad ICRC leaves it to resend on its timer) with a SEND or
 * WRITE, is a new conversation. */
int seq_reused(const struct rw_flow *f, const struct rw_seq *s, uint32_t psn, uint8_t opcode,
	       uint64_t ts, uint64_t idle_ns)
{
	if (!s->valid || ts - f->last_ns < idle_ns || !starts_message(opcode))
		return 0;
	int32_t d = rw_psn_diff(psn, s->high_psn);
	if (d > 65536 || d < -65536)
		return 1;
	/* A READ or an atomic needs its own response, not a later ACK: the
	 * requester resends one whose response it lost, acknowledged or not
	 * (IBA 9.7.5.1.4 and 9.7.5.1.5). */
	if (rw_op_answered_alone(rw_opcode(opcode)->op))
		return 0;
	return d < 0 && s->heard_valid && rw_psn_diff(psn, s->heard_psn) <= 0 &&
	       rw_psn_diff(s->heard_psn, psn) < (int32_t)PSN_WINDOW * 64;
}

/* Whether psn is a hole of the stream: after its first PSN, before its
 * highest, and never seen; or one of the few PSNs just before its first,
 * which a NAK names when the flow's first requests were lost before the
 * capture point (the responder saw the first one the capture did, and
 * missed what came before it). */
#define SEQ_LOST_FIRST 8
int seq_in_hole(const struct rw_seq *s, uint32_t psn)
{
	if (!s->valid)
		return 0;
	int32_t d = rw_psn_diff(s->high_psn, psn);
	int32_t from_first = rw_psn_diff(psn, s->first_psn);
	if (!s->wide && from_first < 0 && from_first >= -SEQ_LOST_FIRST)
		return 1;
	return d > 0 && (uint32_t)d <= PSN_WINDOW && (s->wide || from_first > 0) && !seen_get(s, psn);
}

/* Whether psn was never seen though the stream went past it: a hole, or
 * one of the PSNs a READ's unknown span was taken to cover when the next
 * request came later than its shortest span (a NAK for it shows the READ
 * ended before it). */
int seq_never_seen(const struct rw_seq *s, uint32_t psn)
{
	int32_t k = rw_psn_diff(psn, s->slack_psn);
	return seq_in_hole(s, psn) || (s->valid && k >= 0 && (uint32_t)k < s->slack_n);
}

/* How long ago the capture showed the gap psn is in (the packet past it),
 * or 0 when none of the gaps kept holds it and they are all younger. A
 * gap older than any kept is at least as old as the oldest kept one. */
static uint64_t gap_age(const struct rw_seq *s, uint32_t psn, uint64_t now)
{
	uint64_t oldest = now;
	for (unsigned k = 0; k < s->gap_n; k++) {
		int32_t d = rw_psn_diff(psn, s->gap[k].psn);
		if (d >= 0 && (uint32_t)d < s->gap[k].len)
			return now - s->gap[k].ns;
		if (s->gap[k].ns < oldest)
			oldest = s->gap[k].ns;
	}
	return s->gap_n == RW_SEQ_GAPS ? now - oldest : 0;
}

/* Classifies one PSN: new, gap before it, resent (and whether it starts a
 * go-back-N episode), or late (reordered).
 *
 * On a reliable flow a PSN below the highest one seen is a resend
 * (retransmission) when its first copy was captured (the seen window), when
 * it lies below the first PSN this capture saw (the original went by before
 * the capture started: a requester does not send below what it sent first,
 * except to resend), when the responder acknowledged it (it has it: this
 * copy is a second one), when the sender is known to go back over it
 * (going_back: a sequence NAK not yet acknowledged, a go-back or a re-issued
 * READ since it was passed), or when it comes after the sender was quiet
 * for RESEND_QUIET_NS (its timer), or RESEND_QUIET_NS after the capture
 * showed the gap it fills, or when the responder's READ responses went
 * past it (answered: it processed the PSN already). Such a first copy was lost between the
 * sender and the capture point, and its resend is what the capture sees,
 * however many resends before it the network dropped. Only a never-seen
 * PSN with none of that evidence is late: overtaken in flight by later
 * PSNs (a multi-path network reorders, one FIFO path never does). On an
 * unreliable flow nothing is resent: only a PSN seen before is one (a
 * duplicate).
 *
 * A go-back-N episode starts where the PSN goes back: below the PSN that
 * continues the previous packet (next_psn, past a READ's responses). A
 * resend run that skips ahead (the network dropped resends in between) is
 * the same episode. */
uint32_t seq_track(struct rw_flow *f, struct rw_seq *s, uint32_t psn, int reliable, int answered,
		   struct rw_note *n)
{
	/* f->last_ns is this packet's time already. */
	int quiet = s->valid && f->last_ns - s->last_ns >= RESEND_QUIET_NS;
	s->last_ns = f->last_ns;
	if (!s->valid && s == &f->req && f->cm_psn_valid) {
		/* The CM handshake stated where the stream starts (REQ's or
		 * REP's starting PSN): it is known from its first packet, and
		 * PSNs before the first one captured were lost by the capture. */
		s->valid = 1;
		s->first_psn = s->high_psn = s->next_psn = f->cm_psn;
		memset(s->seen, 0, sizeof(s->seen));
		s->gap_n = s->gap_next = 0;
		s->slack_n = 0;
		s->synced = 1;
	}
	if (!s->valid) {
		s->valid = 1;
		s->first_psn = psn;
		memset(s->seen, 0, sizeof(s->seen));
		s->gap_n = s->gap_next = 0;
		s->slack_n = 0;
		s->high_psn = psn;
		s->synced = s->synced || !reliable; /* set by a matched READ; unreliable: no resends to mistake */
		seen_advance(s, 1, 1);
		s->next_psn = s->high_psn;
		n->expected_psn = psn;
		if (!s->synced) {
			f->unsynced_pkts++;
			return RW_N_NEW | RW_N_UNSYNCED;
		}
		return RW_N_NEW;
	}
	uint32_t flags = 0;
	n->expected_psn = s->next_psn;
	int32_t d = rw_psn_diff(psn, s->high_psn);
	if (d >= 0) {
		if (d > 0 && (uint32_t)d <= s->read_slack) {
			s->slack_psn = s->high_psn;
			s->slack_n = (uint32_t)d;
			seq_consume(s, (uint32_t)d);
		} else if (d > 0) {
			f->psn_gaps++;
			f->missing_psns += (uint64_t)d;
			n->gap_len = (uint32_t)d;
			flags |= RW_N_GAP;
			s->gap[s->gap_next].psn = s->high_psn;
			s->gap[s->gap_next].len = (uint32_t)d;
			s->gap[s->gap_next].ns = f->last_ns;
			s->gap_next = (uint8_t)((s->gap_next + 1) % RW_SEQ_GAPS);
			if (s->gap_n < RW_SEQ_GAPS)
				s->gap_n++;
			seen_advance(s, (uint32_t)d, 0);
		}
		seen_advance(s, 1, 1);
		s->read_slack = 0;
		s->in_resend = 0;
		flags |= RW_N_NEW;
		if (!s->synced) {
			flags |= RW_N_UNSYNCED;
			f->unsynced_pkts++;
		}
	} else {
		uint32_t back = (uint32_t)(-d) - 1; /* PSNs between psn and high_psn - 1 */
		int known = back < PSN_WINDOW;
		int seen = !known || seen_get(s, psn); /* beyond the window: taken as seen */
		uint32_t span = (uint32_t)rw_psn_diff(s->high_psn, s->first_psn);
		int before_first = !s->wide && (uint32_t)(-d) > span;
		int acked = s->acked_valid && rw_psn_diff(psn, s->acked_psn) <= 0;
		/* at or past the PSN a NAK of the reverse address pair named
		 * before the flows were paired: the go-back it asked for (the
		 * NAKed PSN's own resend may have been dropped again) */
		int naked = 0;
		for (unsigned k = 0; f->peer < 0 && k < f->msg_nak_n; k++)
			naked |= rw_psn_diff(psn, f->msg_nak_psn[k]) >= 0;
		/* last, the gaps' ages: a PSN that comes RESEND_QUIET_NS after
		 * the capture showed its gap was not overtaken in flight */
		int resend = seen || (reliable && (before_first || acked || answered || quiet || naked ||
						  going_back(s, psn) ||
						  gap_age(s, psn, f->last_ns) >= RESEND_QUIET_NS));
		if (!resend) {
			f->out_of_order++;
			if (f->missing_psns)
				f->missing_psns--;
			seen_set(s, psn);
			flags |= RW_N_NEW | RW_N_OOO;
		} else {
			if (!seen) {
				flags |= RW_N_NEW; /* first copy this capture saw */
				seen_set(s, psn);
			}
			if (before_first) {
				/* every copy: its first went by before the capture */
				flags |= RW_N_PRECAPTURE;
				f->precapture_resends++;
			}
			/* A resend run that skips PSNs (past any a READ before it
			 * may have used): the network lost the resends between
			 * before the capture point. */
			int32_t ahead = rw_psn_diff(psn, s->next_psn);
			if (s->in_resend && ahead > 0 && (uint32_t)ahead > s->next_slack)
				s->resends_lost = 1;
			s->in_resend = 1;
			/* Everything the sender had sent it sends again from here:
			 * holes below its highest PSN are refilled by resends. */
			if (reliable) {
				s->recov_valid = 1;
				s->recov_high = s->high_psn;
			}
			f->retransmissions++;
			flags |= RW_N_RETRANS;
			if (rw_psn_diff(psn, s->next_psn) < 0) {
				f->gbn_episodes++;
				flags |= RW_N_GBN_START;
			}
		}
	}
	s->next_psn = psn_add(psn, 1);
	s->next_slack = 0;
	return flags;
}
