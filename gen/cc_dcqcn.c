/* SPDX-License-Identifier: BSD-3-Clause */
/* DCQCN reaction point (Zhu et al., "Congestion Control for Large-Scale RDMA
 * Deployments", SIGCOMM 2015, section 3.3), one per QP, event-driven on the
 * caller's clock.
 *
 * Rules as this model applies them (README-congestion.md has the reasons):
 * - cut (a CNP, or the end of a reduce period that saw CNPs):
 *     Rt = Rc; Rc = max(Rmin, Rc * max(1 - alpha/2, min_dec)); alpha = (1-g)alpha + g;
 *     timer, byte counter and alpha timer restart from the cut.
 * - alpha timer, every K after the last cut: alpha = (1-g)alpha.
 * - increase events: the timer every T, the byte counter every B bytes. The
 *   counter that fired counts one more (tc or bc); then with F:
 *     max(tc, bc) <= F         fast recovery   Rc = (Rt + Rc)/2
 *     min(tc, bc) <= F         additive        Rt += R_AI;             Rc = (Rt + Rc)/2
 *     otherwise                hyper           Rt += (min - F) R_HAI;  Rc = (Rt + Rc)/2
 *   Rt is clamped to the maximum before the average; Rc within 1 b/s of the
 *   maximum is the maximum, so a recovered QP comes to rest (no timer).
 * Before the first cut nothing runs: the QP sends at its maximum and alpha
 * keeps its initial value, so the first cut is by alpha_init. */
#include <string.h>
#include "cc.h"

/* Rc this close to the maximum counts as there: (Rt + Rc)/2 only halves the
 * gap, and a timer that never stops would keep a recovered QP in the
 * caller's event queue forever. */
#define CC_RP_SNAP_BPS 1.0

static uint64_t add_sat(uint64_t t, uint64_t d)
{
	return d == 0 || t > CC_NEVER - d ? CC_NEVER : t + d;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

int cc_dcqcn_preset(const char *name, struct cc_dcqcn_params *p)
{
	memset(p, 0, sizeof(*p));
	if (strcmp(name, "paper") == 0) {
		/* SIGCOMM 2015 DCQCN defaults (congestion.md): g, K, T, B, F, R_AI. */
		p->g = 1.0 / 256;
		p->alpha_period_ns = 55000;
		p->timer_ns = 55000;
		p->byte_counter = 10u * 1000 * 1000;
		p->fast_recovery = 5;
		p->rai_bps = 40e6;
		/* Not a number congestion.md gives: an assumed hyper step of
		 * 2.5 R_AI, the order follow-up simulations use. */
		p->rhai_bps = 100e6;
		/* alpha = 1: the first cut halves the rate, as the paper's
		 * model starts. Rmin: HPCC ns-3's MinRate default. */
		p->alpha_init = 1.0;
		p->rmin_bps = 100e6;
		return 0;
	}
	if (strcmp(name, "mlx5") == 0) {
		/* NVIDIA ConnectX defaults as NVIDIA documents them
		 * (congestion.md): dce_tcp_g 1019 and initial_alpha_value 1023
		 * in 1/1024, rpg_time_reset, rpg_byte_reset, rpg_ai_rate,
		 * rpg_hai_rate, rpg_min_dec_fac 50, rate_reduce_monitor_period. */
		p->g = 1019.0 / 1024;
		p->alpha_init = 1023.0 / 1024;
		p->timer_ns = 300000;
		p->byte_counter = 32767;
		p->rai_bps = 5e6;
		p->rhai_bps = 50e6;
		p->min_dec_factor = 0.5;
		p->reduce_period_ns = 4000;
		/* Not in the documented list above: the paper's K and F, and
		 * HPCC ns-3's minimum rate. */
		p->alpha_period_ns = 55000;
		p->fast_recovery = 5;
		p->rmin_bps = 100e6;
		return 0;
	}
	return -1;
}

void cc_rp_init(struct cc_rp *rp, const struct cc_dcqcn_params *p, double line_bps, uint64_t now)
{
	memset(rp, 0, sizeof(*rp));
	rp->p = *p;
	rp->rmax = line_bps;
	rp->rc = rp->rt = line_bps;
	rp->alpha = p->alpha_init;
	rp->now = now;
	rp->t_alpha = rp->t_rate = rp->t_cut = rp->last_cut = CC_NEVER;
}

static void clamp_max(struct cc_rp *rp)
{
	if (rp->rt > rp->rmax)
		rp->rt = rp->rmax;
	if (rp->rc > rp->rmax - CC_RP_SNAP_BPS)
		rp->rc = rp->rmax;
}

static int at_rest(const struct cc_rp *rp)
{
	return rp->rc >= rp->rmax && rp->rt >= rp->rmax;
}

static void cut(struct cc_rp *rp, uint64_t t)
{
	double keep = 1.0 - rp->alpha / 2;
	if (keep < rp->p.min_dec_factor)
		keep = rp->p.min_dec_factor;
	rp->rt = rp->rc;
	rp->rc = rp->rc * keep;
	if (rp->rc < rp->p.rmin_bps)
		rp->rc = rp->p.rmin_bps;
	if (rp->rc > rp->rmax)
		rp->rc = rp->rmax; /* a minimum above the offered rate */
	rp->alpha = (1.0 - rp->p.g) * rp->alpha + rp->p.g;
	rp->tc = rp->bc = 0;
	rp->bytes = 0;
	rp->t_rate = add_sat(t, rp->p.timer_ns);
	rp->t_alpha = add_sat(t, rp->p.alpha_period_ns);
	rp->t_cut = CC_NEVER;
	rp->last_cut = t;
	rp->active = 1;
	rp->cuts++;
}

static enum cc_rp_stage stage(const struct cc_rp *rp)
{
	uint32_t hi = rp->tc > rp->bc ? rp->tc : rp->bc;
	uint32_t lo = rp->tc > rp->bc ? rp->bc : rp->tc;
	if (hi <= rp->p.fast_recovery)
		return CC_RP_FAST_RECOVERY;
	if (lo <= rp->p.fast_recovery)
		return CC_RP_ADDITIVE;
	return CC_RP_HYPER;
}

static void increase(struct cc_rp *rp)
{
	enum cc_rp_stage s = stage(rp);
	if (s == CC_RP_ADDITIVE) {
		rp->rt += rp->p.rai_bps;
	} else if (s == CC_RP_HYPER) {
		uint32_t lo = rp->tc > rp->bc ? rp->bc : rp->tc;
		rp->rt += (double)(lo - rp->p.fast_recovery) * rp->p.rhai_bps;
	}
	if (rp->rt > rp->rmax)
		rp->rt = rp->rmax;
	rp->rc = (rp->rt + rp->rc) / 2;
	clamp_max(rp);
	rp->increases[s]++;
	if (at_rest(rp))
		rp->t_rate = CC_NEVER;
}

/* Decays due before `until` when nothing else is: one multiply each, in
 * order, stopping early once alpha is 0 (it stays 0). */
static void decay_alpha_to(struct cc_rp *rp, uint64_t until)
{
	uint64_t k = rp->p.alpha_period_ns;
	while (rp->t_alpha <= until && rp->t_alpha != CC_NEVER) {
		if (rp->alpha == 0) {
			uint64_t n = (until - rp->t_alpha) / k + 1;
			rp->t_alpha = add_sat(rp->t_alpha, n > CC_NEVER / k ? CC_NEVER : n * k);
			return;
		}
		rp->alpha *= 1.0 - rp->p.g;
		rp->t_alpha = add_sat(rp->t_alpha, k);
	}
}

void cc_rp_advance(struct cc_rp *rp, uint64_t now)
{
	if (now < rp->now)
		return;
	for (;;) {
		uint64_t t = min64(rp->t_alpha, min64(rp->t_rate, rp->t_cut));
		if (t > now || t == CC_NEVER)
			break;
		if (t == rp->t_alpha) {
			/* Nothing but alpha before the next other event: batch it. */
			uint64_t other = min64(rp->t_rate, rp->t_cut);
			decay_alpha_to(rp, other <= now ? other : now);
		} else if (t == rp->t_rate) {
			rp->tc++;
			rp->t_rate = add_sat(t, rp->p.timer_ns);
			increase(rp);
		} else {
			cut(rp, t);
		}
	}
	rp->now = now;
}

void cc_rp_on_cnp(struct cc_rp *rp, uint64_t now)
{
	cc_rp_advance(rp, now);
	rp->cnps++;
	uint64_t period_end = rp->last_cut == CC_NEVER ? 0 : add_sat(rp->last_cut, rp->p.reduce_period_ns);
	if (rp->p.reduce_period_ns == 0 || now >= period_end) {
		cut(rp, now);
		return;
	}
	/* NVIDIA's rate_reduce_monitor_period: CNPs inside a period since
	 * the last cut make one more cut when it ends. */
	rp->t_cut = period_end;
}

void cc_rp_on_sent(struct cc_rp *rp, uint64_t bytes, uint64_t now)
{
	cc_rp_advance(rp, now);
	if (!rp->active || rp->p.byte_counter == 0)
		return;
	rp->bytes += bytes;
	while (rp->bytes >= rp->p.byte_counter) {
		rp->bytes -= rp->p.byte_counter;
		rp->bc++;
		increase(rp);
	}
}

void cc_rp_set_max(struct cc_rp *rp, double bps, uint64_t now)
{
	cc_rp_advance(rp, now);
	rp->rmax = bps;
	if (!rp->active) {
		rp->rc = rp->rt = bps;
		return;
	}
	clamp_max(rp);
	if (rp->rc > rp->rmax)
		rp->rc = rp->rmax;
	if (!at_rest(rp) && rp->t_rate == CC_NEVER)
		rp->t_rate = add_sat(now, rp->p.timer_ns);
}
