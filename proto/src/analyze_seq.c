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
	uint32_t b = psn % PSN_WINDOW;
	return (int)(s->seen[b / 64] >> (b % 64) & 1);
}

static void seen_set(struct rw_seq *s, uint32_t psn)
{
	uint32_t b = psn % PSN_WINDOW;
	s->seen[b / 64] |= 1ull << (b % 64);
}

/* Moves high_psn forward by k PSNs, marking them seen or not. */
static void seen_advance(struct rw_seq *s, uint32_t k, int mark)
{
	if (k >= PSN_WINDOW) {
		memset(s->seen, mark ? 0xFF : 0, sizeof(s->seen));
	} else {
		for (uint32_t i = 0; i < k; i++) {
			uint32_t b = ((s->high_psn + i) & RW_PSN_MASK) % PSN_WINDOW;
			if (mark)
				s->seen[b / 64] |= 1ull << (b % 64);
			else
				s->seen[b / 64] &= ~(1ull << (b % 64));
		}
	}
	s->high_psn = psn_add(s->high_psn, k);
	if (!s->wide && (uint32_t)rw_psn_diff(s->high_psn, s->first_psn) >= PSN_WINDOW)
		s->wide = 1;
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
void seq_sync_on_ack(struct rw_seq *s, uint32_t acked_psn)
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
}

static int starts_message(uint8_t opcode)
{
	const struct rw_opcode_info *op = rw_opcode(opcode);
	return (op->flags & RW_OPF_FIRST) || op->op == RW_OP_READ_REQ || op->op == RW_OP_CMP_SWAP ||
	       op->op == RW_OP_FETCH_ADD;
}

/* Whether a request starts a new conversation on the same key: its QP was
 * destroyed and the number given to a new QP, whose PSNs restart anywhere.
 * Within one conversation a requester only goes forward or back to what is
 * unacknowledged, so a message start after a silence that either jumps far
 * away (further than any window of outstanding PSNs) or goes back to a PSN
 * the responder had acknowledged is a new conversation. */
int seq_reused(const struct rw_flow *f, const struct rw_seq *s, uint32_t psn, uint8_t opcode,
	       uint64_t ts, uint64_t idle_ns)
{
	if (!s->valid || ts - f->last_ns < idle_ns || !starts_message(opcode))
		return 0;
	int32_t d = rw_psn_diff(psn, s->high_psn);
	if (d > 65536 || d < -65536)
		return 1;
	return d < 0 && s->acked_valid && rw_psn_diff(psn, s->acked_psn) <= 0 &&
	       rw_psn_diff(s->acked_psn, psn) < (int32_t)PSN_WINDOW * 64;
}

/* Whether psn is a hole of the stream: after its first PSN, before its
 * highest, and never seen. */
int seq_in_hole(const struct rw_seq *s, uint32_t psn)
{
	if (!s->valid)
		return 0;
	int32_t d = rw_psn_diff(s->high_psn, psn);
	int32_t from_first = rw_psn_diff(psn, s->first_psn);
	return d > 0 && (uint32_t)d <= PSN_WINDOW && (s->wide || from_first > 0) && !seen_get(s, psn);
}

/* Classifies one PSN: new, gap before it, resent (and whether it starts a
 * go-back-N episode), or late (reordered). A PSN is "resent" if this flow
 * carried it before (the seen window), if the responder's NAK asked for it
 * or it continues a go-back-N run (the original was lost before the capture
 * point), or if it lies below the first PSN this capture saw on a reliable
 * flow (the original went by before the capture started: a requester does
 * not send below what it sent first, except to resend). */
uint32_t seq_track(struct rw_flow *f, struct rw_seq *s, uint32_t psn, int reliable,
		   struct rw_note *n)
{
	if (!s->valid) {
		s->valid = 1;
		s->first_psn = psn;
		memset(s->seen, 0, sizeof(s->seen));
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
			seq_consume(s, (uint32_t)d);
		} else if (d > 0) {
			f->psn_gaps++;
			f->missing_psns += (uint64_t)d;
			n->gap_len = (uint32_t)d;
			flags |= RW_N_GAP;
			s->resent_since_gap = 0;
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
		uint32_t span = (uint32_t)rw_psn_diff(s->high_psn, s->first_psn);
		int before_first = !s->wide && (uint32_t)(-d) > span;
		/* On a reliable flow, a hole filled after the sender went back
		 * (a NAK or a timeout it answered) is filled by a resend: a
		 * packet reordered in flight arrives before that. */
		int resend = (s->nak_wait && psn == s->nak_psn) || (s->in_resend && psn == s->next_psn) ||
			     (reliable && (before_first || s->resent_since_gap));
		if (known && !seen_get(s, psn) && !resend) {
			f->out_of_order++;
			if (f->missing_psns)
				f->missing_psns--;
			seen_set(s, psn);
			flags |= RW_N_NEW | RW_N_OOO;
		} else {
			if (known) {
				if (!seen_get(s, psn)) {
					flags |= RW_N_NEW; /* first copy this capture saw */
					if (before_first) {
						flags |= RW_N_PRECAPTURE;
						f->precapture_resends++;
					}
				}
				seen_set(s, psn);
			}
			s->nak_wait = 0;
			s->in_resend = 1;
			s->resent_since_gap = 1;
			f->retransmissions++;
			flags |= RW_N_RETRANS;
			if (psn != s->next_psn) {
				f->gbn_episodes++;
				flags |= RW_N_GBN_START;
			}
		}
	}
	s->next_psn = psn_add(psn, 1);
	return flags;
}
