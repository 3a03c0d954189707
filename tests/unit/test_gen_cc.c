/* SPDX-License-Identifier: BSD-3-Clause */
/* The congestion models (gen/cc*.c) against the DCQCN paper's update
 * equations, IEEE 802.1Qbb's pause arithmetic and plain queueing arithmetic.
 *
 * Every expected value is computed here, by a second and differently built
 * reading of the rules: the reaction point's reference steps time in whole
 * microseconds and tests "is a timer due now" by division, where the model
 * jumps from event to event; the switch's expectations are closed forms for
 * a constant-rate overload. None is read back from the code under test. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cc.h"

static void assert_close(double got, double want, const char *what, long step)
{
	double tol = 1e-12 * fabs(want) + 1e-9;
	if (fabs(got - want) > tol)
		fail_msg("%s at step %ld: got %.17g, want %.17g", what, step, got, want);
}

/* ---- reaction point ----------------------------------------------------- */

/* The paper's reaction point, stepped in microseconds. */
struct ref_rp {
	double line, rc, rt, alpha;
	double g, rai, rhai, rmin;
	long k_us, t_us, f;
	uint64_t b, bytes;
	long tc, bc, last_cut;
	int active;
};

static void ref_cut(struct ref_rp *r, long now)
{
	r->rt = r->rc;
	r->rc = r->rc - r->rc * r->alpha / 2; /* Rc(1 - alpha/2) */
	if (r->rc < r->rmin)
		r->rc = r->rmin;
	r->alpha = r->alpha * (1 - r->g) + r->g;
	r->tc = r->bc = 0;
	r->bytes = 0;
	r->last_cut = now;
	r->active = 1;
}

static void ref_increase(struct ref_rp *r)
{
	long big = r->tc > r->bc ? r->tc : r->bc, small = r->tc < r->bc ? r->tc : r->bc;
	if (big > r->f && small > r->f)
		r->rt += (double)(small - r->f) * r->rhai; /* hyper: i = min - F */
	else if (big > r->f)
		r->rt += r->rai;                            /* additive */
	if (r->rt > r->line)
		r->rt = r->line;
	r->rc = (r->rc + r->rt) / 2;                        /* all three stages */
	if (r->rc > r->line - 1.0)
		r->rc = r->line;
}

/* One microsecond: alpha timer, rate timer, CNP, then the bytes sent. */
static void ref_step(struct ref_rp *r, long now, int cnp, uint64_t sent)
{
	if (r->active && now > r->last_cut) {
		long since = now - r->last_cut;
		if (since % r->k_us == 0)
			r->alpha *= 1 - r->g;
		if (since % r->t_us == 0) {
			r->tc++;
			ref_increase(r);
		}
	}
	if (cnp)
		ref_cut(r, now);
	if (r->active) {
		r->bytes += sent;
		while (r->bytes >= r->b) {
			r->bytes -= r->b;
			r->bc++;
			ref_increase(r);
		}
	}
}

static struct cc_dcqcn_params paper_params(void)
{
	struct cc_dcqcn_params p;
	assert_int_equal(cc_dcqcn_preset("paper", &p), 0);
	return p;
}

static void test_rp_known_answers(void **state)
{
	(void)state;
	struct cc_dcqcn_params p = paper_params();
	struct cc_rp rp;
	cc_rp_init(&rp, &p, 100e9, 0);
	assert_true(cc_rp_rate(&rp) == 100e9);
	assert_true(cc_rp_next_event(&rp) == CC_NEVER); /* nothing runs before a CNP */
	cc_rp_on_cnp(&rp, 1000);
	/* alpha = 1: Rc halves, Rt keeps the old rate, alpha stays 1 */
	assert_true(rp.rc == 50e9);
	assert_true(rp.rt == 100e9);
	assert_true(rp.alpha == 1.0);
	assert_true(cc_rp_next_event(&rp) == 1000 + 55000);
	cc_rp_advance(&rp, 1000 + 55000 - 1);
	assert_true(rp.rc == 50e9);
	cc_rp_advance(&rp, 1000 + 55000);
	assert_true(rp.rc == 75e9);             /* fast recovery 1 */
	assert_true(rp.alpha == 255.0 / 256);   /* one decay */
	cc_rp_advance(&rp, 1000 + 4 * 55000);
	assert_true(rp.rc == 96.875e9);         /* 100 - 50/2^4 */
	cc_rp_advance(&rp, 1000 + 5 * 55000);
	assert_true(rp.rc == 98.4375e9);        /* fast recovery 5 = F */
	cc_rp_advance(&rp, 1000 + 6 * 55000);
	/* additive: Rt would be 100.04G, clamped to the line */
	assert_true(rp.rt == 100e9);
	assert_true(rp.rc == 99.21875e9);
	assert_int_equal(rp.increases[CC_RP_FAST_RECOVERY], 5);
	assert_int_equal(rp.increases[CC_RP_ADDITIVE], 1);
	/* a second CNP: cut by the decayed alpha */
	double a = pow(255.0 / 256, 6);
	cc_rp_on_cnp(&rp, 1000 + 6 * 55000 + 10);
	assert_close(rp.rc, 99.21875e9 * (1 - a / 2), "rc", 0);
	assert_close(rp.alpha, a * 255 / 256 + 1.0 / 256, "alpha", 0);
	assert_true(rp.rt == 99.21875e9);
}

/* A scripted run: CNPs in bursts and silences, the QP sending at its rate,
 * compared with the reference after every microsecond. */
static int cnp_at(long us)
{
	if (us == 100 || us == 150)
		return 1;
	if (us >= 3000 && us <= 3500 && us % 50 == 0)
		return 1;
	if (us >= 9000 && us <= 9040 && us % 7 == 0)
		return 1;
	return 0;
}

static void test_rp_trace(void **state)
{
	(void)state;
	struct cc_dcqcn_params p = paper_params();
	p.byte_counter = 1000000; /* 1 MB, so that both counters pass F */
	struct ref_rp r = { .line = 100e9, .rc = 100e9, .rt = 100e9, .alpha = 1, .g = 1.0 / 256,
			    .rai = 40e6, .rhai = 100e6, .rmin = 100e6, .k_us = 55, .t_us = 55, .f = 5,
			    .b = 1000000 };
	struct cc_rp rp;
	cc_rp_init(&rp, &p, 100e9, 0);
	long cnps = 0;
	for (long us = 1; us <= 40000; us++) {
		uint64_t now = (uint64_t)us * 1000;
		int cnp = cnp_at(us);
		/* sends what the rate allows in the microsecond before */
		uint64_t sent = (uint64_t)(r.rc / 8e6);
		ref_step(&r, us, cnp, sent);
		if (cnp) {
			cc_rp_on_cnp(&rp, now);
			cnps++;
		} else {
			cc_rp_advance(&rp, now);
		}
		cc_rp_on_sent(&rp, sent, now);
		assert_close(rp.rc, r.rc, "rc", us);
		assert_close(rp.rt, r.rt, "rt", us);
		assert_close(rp.alpha, r.alpha, "alpha", us);
		if (r.rc < r.line) { /* at rest the model's timer stops counting */
			assert_int_equal(rp.tc, r.tc);
			assert_int_equal(rp.bc, r.bc);
		}
	}
	assert_int_equal(rp.cnps, cnps);
	assert_true(rp.increases[CC_RP_HYPER] > 0);
	/* long after the last CNP: back at the line rate, and at rest */
	assert_true(rp.rc == 100e9);
	assert_true(cc_rp_next_event(&rp) == CC_NEVER);
}

static void test_rp_min_rate_and_floor(void **state)
{
	(void)state;
	struct cc_dcqcn_params p = paper_params();
	struct cc_rp rp;
	cc_rp_init(&rp, &p, 10e9, 0);
	for (uint64_t t = 1; t <= 200; t++)
		cc_rp_on_cnp(&rp, t * 1000);
	assert_true(rp.rc == p.rmin_bps); /* 10G halved 200 times stops at Rmin */

	/* a cut keeps at least min_dec_factor of the rate */
	p.min_dec_factor = 0.75;
	cc_rp_init(&rp, &p, 10e9, 0);
	cc_rp_on_cnp(&rp, 5);
	assert_true(rp.rc == 7.5e9);
}

static void test_rp_mlx5_reduce_period(void **state)
{
	(void)state;
	struct cc_dcqcn_params p;
	assert_int_equal(cc_dcqcn_preset("mlx5", &p), 0);
	assert_true(p.g == 1019.0 / 1024 && p.alpha_init == 1023.0 / 1024);
	assert_true(p.timer_ns == 300000 && p.byte_counter == 32767);
	assert_true(p.rai_bps == 5e6 && p.rhai_bps == 50e6 && p.min_dec_factor == 0.5);
	assert_true(p.reduce_period_ns == 4000);
	assert_int_equal(cc_dcqcn_preset("nonsense", &p), -1);
	assert_int_equal(cc_dcqcn_preset("mlx5", &p), 0);

	struct cc_rp rp;
	cc_rp_init(&rp, &p, 25e9, 0);
	double g = 1019.0 / 1024, a = 1023.0 / 1024, rc = 25e9;
	cc_rp_on_cnp(&rp, 0);
	rc = rc * (1 - a / 2);
	a = (1 - g) * a + g;
	assert_close(rp.rc, rc, "rc", 0);
	/* two more inside the 4 us period fold into one cut at its end */
	cc_rp_on_cnp(&rp, 1000);
	cc_rp_on_cnp(&rp, 2000);
	assert_close(rp.rc, rc, "rc", 1);
	assert_true(cc_rp_next_event(&rp) == 4000);
	cc_rp_advance(&rp, 3999);
	assert_int_equal(rp.cuts, 1);
	cc_rp_advance(&rp, 4000);
	assert_int_equal(rp.cuts, 2);
	double keep = 1 - a / 2 > 0.5 ? 1 - a / 2 : 0.5;
	double rt = rc;
	rc = rc * keep;
	assert_close(rp.rc, rc, "rc", 2);
	assert_close(rp.rt, rt, "rt", 2);
	/* a CNP after the period cuts at once */
	cc_rp_on_cnp(&rp, 8000);
	assert_int_equal(rp.cuts, 3);
	/* the byte counter: 32767 bytes are one increase event */
	uint64_t before = rp.increases[0];
	cc_rp_on_sent(&rp, 32766, 8001);
	assert_int_equal(rp.increases[0], before);
	cc_rp_on_sent(&rp, 1, 8002);
	assert_int_equal(rp.increases[0], before + 1);
}

static void test_rp_offered_rate(void **state)
{
	(void)state;
	struct cc_dcqcn_params p = paper_params();
	struct cc_rp rp;
	cc_rp_init(&rp, &p, 40e9, 0);
	cc_rp_on_cnp(&rp, 0);
	cc_rp_set_max(&rp, 10e9, 1);
	assert_true(rp.rc <= 10e9 && rp.rt <= 10e9);
	cc_rp_advance(&rp, 1000000000);
	assert_true(rp.rc == 10e9); /* never above the offered rate */
	assert_true(cc_rp_next_event(&rp) == CC_NEVER);
}

/* ---- notification point --------------------------------------------------- */

static struct cc_np_key key_of(uint32_t host, uint32_t qpn)
{
	struct cc_np_key k;
	memset(&k, 0, sizeof(k));
	/* ::ffff:10.0.x.y -> ::ffff:10.1.0.1 */
	k.src[10] = k.src[11] = k.dst[10] = k.dst[11] = 0xFF;
	k.src[12] = 10;
	k.src[14] = (uint8_t)(host >> 8);
	k.src[15] = (uint8_t)host;
	k.dst[12] = 10;
	k.dst[13] = 1;
	k.dst[15] = 1;
	k.qpn = qpn;
	return k;
}

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

#define NKEYS 200
#define NCE 200000

/* Random CE arrivals on NKEYS QPs; every CNP is checked against the rule. */
static void run_np(const struct cc_np_params *p, uint64_t announced, int expect_compliant)
{
	struct cc_np *np = cc_np_new(p);
	assert_non_null(np);
	static uint64_t last_cnp[NKEYS], last_ce[NKEYS], due[NKEYS];
	memset(last_cnp, 0xFF, sizeof(last_cnp));
	memset(last_ce, 0xFF, sizeof(last_ce));
	memset(due, 0xFF, sizeof(due));
	uint64_t seed = 7, t = 0, violations = 0, cnps = 0, min_due = UINT64_MAX;
	for (long i = 0; i < NCE; i++) {
		t += lcg(&seed) % 400;
		/* deferred CNPs due by now go first */
		for (uint32_t q = 0; t >= min_due && q < NKEYS; q++) {
			if (due[q] != UINT64_MAX && due[q] <= t) {
				struct cc_np_key k = key_of(q, 0x100 + q);
				if (cc_np_fire(np, &k, due[q])) {
					violations += last_cnp[q] != UINT64_MAX && due[q] - last_cnp[q] < announced;
					/* owed to a CE inside the interval before */
					assert_true(last_ce[q] != UINT64_MAX && due[q] - last_ce[q] <= announced);
					last_cnp[q] = due[q];
					cnps++;
				}
				due[q] = UINT64_MAX;
			}
			if (q == NKEYS - 1) {
				min_due = UINT64_MAX;
				for (uint32_t j = 0; j < NKEYS; j++)
					min_due = due[j] < min_due ? due[j] : min_due;
			}
		}
		uint32_t q = (uint32_t)(lcg(&seed) % NKEYS);
		struct cc_np_key k = key_of(q, 0x100 + q);
		uint64_t d = 0;
		enum cc_np_verdict v = cc_np_on_ce(np, &k, t, &d);
		last_ce[q] = t;
		if (v == CC_NP_SEND) {
			violations += last_cnp[q] != UINT64_MAX && t - last_cnp[q] < announced;
			last_cnp[q] = t;
			cnps++;
			due[q] = UINT64_MAX;
		} else if (v == CC_NP_DEFER) {
			assert_true(d > t && d - t <= announced);
			due[q] = d;
			min_due = d < min_due ? d : min_due;
		}
		/* every CE is answered within one interval: by a CNP already sent
		 * no longer than an interval ago, now, or one owed */
		if (expect_compliant)
			assert_true(due[q] != UINT64_MAX || (last_cnp[q] != UINT64_MAX && t - last_cnp[q] < announced));
	}
	const struct cc_np_stats *st = cc_np_stats(np);
	assert_int_equal(st->ce, NCE);
	assert_int_equal(st->cnps, cnps);
	if (expect_compliant)
		assert_int_equal(violations, 0);
	else
		assert_true(violations > 0);
	cc_np_free(np);
}

static void test_np_pacing(void **state)
{
	(void)state;
	struct cc_np_params p;
	assert_int_equal(cc_np_preset("paper", &p), 0);
	assert_true(p.interval_ns == 50000 && p.defer);
	run_np(&p, 50000, 1);
	assert_int_equal(cc_np_preset("mlx5", &p), 0);
	assert_true(p.interval_ns == 4000 && !p.defer);
	run_np(&p, 4000, 1);
	p.interval_ns = 50000;
	run_np(&p, 50000, 1);
}

static void test_np_misbehaving(void **state)
{
	(void)state;
	struct cc_np_params p;
	cc_np_preset("mlx5", &p);
	p.interval_ns = 50000;
	p.behaviour = CC_NP_EVERY_CE;
	run_np(&p, 50000, 0);
	p.behaviour = CC_NP_FAST;
	p.fast_interval_ns = 10000;
	run_np(&p, 50000, 0);
	/* every CE: as many CNPs as CEs */
	struct cc_np *np = cc_np_new(&p);
	p.behaviour = CC_NP_EVERY_CE;
	cc_np_free(np);
	np = cc_np_new(&p);
	struct cc_np_key k = key_of(1, 1);
	for (uint64_t t = 0; t < 100; t++)
		assert_int_equal(cc_np_on_ce(np, &k, t, NULL), CC_NP_SEND);
	assert_int_equal(cc_np_stats(np)->cnps, 100);
	cc_np_free(np);
}

static void test_np_modes(void **state)
{
	(void)state;
	struct cc_np_params p;
	cc_np_preset("mlx5", &p);
	p.interval_ns = 1000;
	for (int mode = CC_NP_PER_QP; mode <= CC_NP_PER_DEST_IP; mode++) {
		p.mode = (enum cc_np_mode)mode;
		struct cc_np *np = cc_np_new(&p);
		struct cc_np_key a = key_of(1, 10), b = key_of(1, 11), c = key_of(1, 10);
		c.dst[15] = 2; /* same sender and QPN, another receiver address */
		assert_int_equal(cc_np_on_ce(np, &a, 0, NULL), CC_NP_SEND);
		/* another QP of the pair: its own key only per QP */
		assert_int_equal(cc_np_on_ce(np, &b, 1, NULL), mode == CC_NP_PER_QP ? CC_NP_SEND : CC_NP_SUPPRESS);
		/* another destination: the same key only per destination (sender) IP */
		assert_int_equal(cc_np_on_ce(np, &c, 2, NULL), mode == CC_NP_PER_DEST_IP ? CC_NP_SUPPRESS : CC_NP_SEND);
		/* the interval is a minimum: at exactly 1000 ns it may send again */
		assert_int_equal(cc_np_on_ce(np, &a, 999, NULL), CC_NP_SUPPRESS);
		assert_int_equal(cc_np_on_ce(np, &a, 1000, NULL), CC_NP_SEND);
		cc_np_free(np);
	}
}

static void test_np_bounded(void **state)
{
	(void)state;
	struct cc_np_params p;
	cc_np_preset("paper", &p);
	struct cc_np *np = cc_np_new(&p); /* 100k keys by default */
	assert_non_null(np);
	size_t mem = cc_np_mem_bytes(np);
	assert_true(mem < 16u << 20);
	/* 100k QPs, each CE-marked in one burst: all tracked */
	for (uint32_t q = 0; q < 100000; q++) {
		struct cc_np_key k = key_of(q % 60000, q);
		assert_int_equal(cc_np_on_ce(np, &k, q / 4, NULL), CC_NP_SEND);
	}
	uint64_t evicted = cc_np_stats(np)->evicted_live, resent = 0;
	assert_true(evicted < 1000);
	/* inside the interval again: only a forgotten key may send */
	for (uint32_t q = 0; q < 100000; q++) {
		struct cc_np_key k = key_of(q % 60000, q);
		resent += cc_np_on_ce(np, &k, 25000 + q / 4, NULL) == CC_NP_SEND;
	}
	assert_true(resent <= evicted + cc_np_stats(np)->evicted_live);
	cc_np_free(np);
	/* a tiny table: no growth, the oldest live keys are forgotten and counted */
	p.max_keys = 16;
	np = cc_np_new(&p);
	assert_true(cc_np_mem_bytes(np) < 4096);
	for (uint32_t q = 0; q < 1000; q++) {
		struct cc_np_key k = key_of(q, q);
		cc_np_on_ce(np, &k, q, NULL);
	}
	assert_true(cc_np_stats(np)->evicted_live > 900);
	cc_np_free(np);
}

/* ---- switch ------------------------------------------------------------- */

static void test_pfc_quanta(void **state)
{
	(void)state;
	/* 512 bit times: 5.12 ns at 100G, 20.48 ns at 25G */
	assert_int_equal(cc_pfc_quanta_ps(1, 100e9), 5120);
	assert_int_equal(cc_pfc_quanta_ps(0xFFFF, 100e9), 335539200);   /* 335.5392 us */
	assert_int_equal(cc_pfc_quanta_ps(0xFFFF, 25e9), 1342156800);   /* 1.3421568 ms */
	assert_int_equal(cc_pfc_quanta_ps(0xFFFF, 400e9), 83884800);
	assert_int_equal(cc_pfc_quanta_for_ns(5120, 100e9), 1000);
	assert_int_equal(cc_pfc_quanta_for_ns(8000, 100e9), 1563);      /* 1562.5 up */
	assert_int_equal(cc_pfc_quanta_for_ns(10000000, 25e9), 0xFFFF); /* capped */
	/* ideal FCT: 1 MB at 100G is 80 us; 1000 packets of 1000 B with 58
	 * bytes of headers each add 4.64 us; plus the RTT */
	assert_int_equal(cc_ideal_fct_ns(1000000, 0, 0, 100e9, 2000), 82000);
	assert_int_equal(cc_ideal_fct_ns(1000000, 1000, 58, 100e9, 2000), 86640);
	assert_int_equal(cc_ideal_fct_ns(1001, 1000, 58, 25e9, 0), 357); /* 1117 B */
}

static struct cc_sw *one_port(double bps, uint64_t buffer, int lossless, uint64_t xoff, uint64_t xon,
			      uint16_t quanta)
{
	struct cc_sw_params p;
	cc_sw_defaults(&p, bps, buffer, 8);
	p.pause_quanta = quanta;
	p.seed = 42;
	p.prio[3].lossless = (uint8_t)lossless;
	p.prio[3].ecn = 0;
	p.prio[3].xoff = xoff;
	p.prio[3].xon = xon;
	struct cc_sw *sw = cc_sw_new(&p);
	assert_non_null(sw);
	return sw;
}

static uint32_t drain(struct cc_sw *sw, uint64_t until)
{
	struct cc_sw_departure d[64];
	uint32_t n, total = 0;
	while ((n = cc_sw_poll(sw, until, d, 64)) > 0)
		total += n;
	return total;
}

/* 1000-byte packets every 40 ns into a 100G port (80 ns each): twice the
 * link. With the port busy from t = 0, packets start at 0, 80, 160, ... */
static void test_sw_overload_qlen(void **state)
{
	(void)state;
	struct cc_sw *sw = one_port(100e9, 10000000, 0, 0, 0, 0xFFFF);
	for (uint64_t k = 0; k <= 2000; k++) {
		uint64_t t = 40 * k;
		struct cc_sw_verdict v = cc_sw_enqueue(sw, t, 3, 1000, 0, k);
		assert_int_equal(v.result, CC_SW_QUEUED);
		if (k % 80 == 0) {
			/* arrived k+1, started t/80 + 1 */
			struct cc_sw_qlen s;
			cc_sw_sample(sw, t, &s);
			assert_int_equal(s.bytes[3], 1000 * ((k + 1) - (t / 80 + 1)));
			assert_int_equal(s.total, s.bytes[3]);
		}
		drain(sw, t);
	}
	/* departures: the k-th packet's last bit at 80 (k+1) */
	struct cc_sw_departure d[4];
	assert_int_equal(cc_sw_poll(sw, 40 * 2000 + 80, d, 4), 1);
	assert_int_equal(d[0].cookie, 1000);
	assert_int_equal(d[0].t_ns, 80 * 1001);
	assert_int_equal(d[0].t_start_ns, 80 * 1000);
	cc_sw_free(sw);
}

/* Early departures (one FIFO): each packet's departure comes with its
 * arrival. 1000 B at 100 Gb/s is 80 ns: three at t = 0 leave at 80, 160
 * and 240 (starting at 0, 80, 160); one at 500, on an idle port, at 580.
 * Nothing comes back from poll, the port names no next event while no
 * XOFF is on, and the queue is what has not started. */
static void test_sw_early_departures(void **state)
{
	(void)state;
	struct cc_sw *sw = one_port(100e9, 10000000, 0, 0, 0, 0xFFFF);
	struct cc_sw_departure d[4];
	struct cc_sw_qlen s;
	cc_sw_early_departures(sw);
	static const uint64_t at[4] = { 0, 0, 0, 500 }, start[4] = { 0, 80, 160, 500 },
			      dep[4] = { 80, 160, 240, 580 };
	for (int k = 0; k < 4; k++) {
		if (k == 3) {
			cc_sw_sample(sw, 100, &s); /* the first has left, the second is on the wire */
			assert_int_equal(s.bytes[3], 1000);
		}
		struct cc_sw_verdict v = cc_sw_enqueue(sw, at[k], 3, 1000, 0, (uint64_t)k);
		assert_int_equal(v.result, CC_SW_QUEUED);
		assert_int_equal(v.t_start_ns, start[k]);
		assert_int_equal(v.t_dep_ns, dep[k]);
		assert_int_equal(cc_sw_next_event(sw), CC_NEVER);
	}
	assert_int_equal(cc_sw_poll(sw, 1000, d, 4), 0);
	assert_int_equal(cc_sw_stats(sw, 3)->departed, 4);
	/* 3000 more at t = 1000, more than the port's first ring holds: the
	 * k-th leaves at 1000 + 80 (k + 1); at 1000 + 80 * 2000 + 40 the
	 * 2001st is on the wire and 999 wait */
	for (uint64_t k = 0; k < 3000; k++) {
		struct cc_sw_verdict v = cc_sw_enqueue(sw, 1000, 3, 1000, 0, k);
		assert_int_equal(v.result, CC_SW_QUEUED);
		assert_int_equal(v.t_dep_ns, 1000 + 80 * (k + 1));
	}
	cc_sw_sample(sw, 1000 + 80 * 2000 + 40, &s);
	assert_int_equal(s.bytes[3], 999 * 1000);
	assert_int_equal(cc_sw_stats(sw, 3)->departed, 4 + 2000);
	cc_sw_free(sw);
	/* lossless with XOFF at 2000 B, XON at 1000 B: the XON needs the
	 * start that brings the queue to 1000 B, so that one is named */
	sw = one_port(100e9, 10000000, 1, 2000, 1000, 0xFFFF);
	cc_sw_early_departures(sw);
	for (int k = 0; k < 3; k++)
		cc_sw_enqueue(sw, 0, 3, 1000, 0, (uint64_t)k);
	/* queued (not started) 2000 B: XOFF on; the port names its departure at 80 */
	assert_int_equal(cc_sw_next_event(sw), 80);
	struct cc_sw_pfc f[4];
	assert_int_equal(cc_sw_pfc_events(sw, f, 4), 1); /* the XOFF */
	cc_sw_sample(sw, 80, &s);
	assert_int_equal(s.bytes[3], 1000);
	assert_int_equal(cc_sw_pfc_events(sw, f, 4), 1); /* the XON at 80 */
	assert_int_equal(f[0].t_ns, 80);
	assert_int_equal(f[0].quanta[3], 0);
	assert_int_equal(cc_sw_next_event(sw), CC_NEVER);
	cc_sw_free(sw);
}

/* cc_sw_enqueue_early() (the flow model's path) against cc_sw_enqueue() on
 * a twin port: an ECN class with a small buffer, bursts that overflow it
 * (drops fall back to the general code), idle gaps, random sizes, and more
 * packets queued than the ring's first size (it grows through the general
 * code). Every verdict and the final counts must be the same; the fast path
 * must have taken most arrivals. */
static void test_sw_early_fast_path(void **state)
{
	(void)state;
	struct cc_sw_params p;
	cc_sw_defaults(&p, 100e9, 1000000, 8);
	p.seed = 7;
	p.prio[3].ecn = 1;
	p.prio[3].kmin = 20000;
	p.prio[3].kmax = 200000;
	p.prio[3].pmax = 0.3;
	struct cc_sw *a = cc_sw_new(&p), *b = cc_sw_new(&p);
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(cc_sw_early_departures(a), 0);
	assert_int_equal(cc_sw_early_departures(b), 0);
	uint64_t rng = 99, t = 0, fast = 0, drops = 0, marks = 0;
	for (int i = 0; i < 200000; i++) {
		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		uint32_t r = (uint32_t)(rng >> 33);
		/* mostly back to back at twice the line rate, now and then a gap */
		t += r % 997 == 0 ? 20000 + r % 100000 : r % 3 == 0 ? 0 : 40;
		uint32_t bytes = 64 + r % 1000;
		int ect = r % 5 != 0;
		struct cc_sw_verdict va, vb = cc_sw_enqueue(b, t, 3, bytes, ect, 0);
		if (cc_sw_enqueue_early(a, t, 3, bytes, ect, &va))
			fast++;
		else
			va = cc_sw_enqueue(a, t, 3, bytes, ect, 0);
		assert_int_equal(va.result, vb.result);
		drops += vb.result == CC_SW_DROPPED;
		if (vb.result == CC_SW_DROPPED)
			continue;
		marks += vb.ce;
		assert_int_equal(va.ce, vb.ce);
		assert_int_equal(va.qlen, vb.qlen);
		assert_int_equal(va.t_start_ns, vb.t_start_ns);
		assert_int_equal(va.t_dep_ns, vb.t_dep_ns);
		assert_int_equal(va.next_ns, vb.next_ns);
		assert_int_equal(va.pfc, vb.pfc);
	}
	const struct cc_sw_prio_stats *sa = cc_sw_stats(a, 3);
	struct cc_sw_prio_stats ca = *sa;
	const struct cc_sw_prio_stats *sb = cc_sw_stats(b, 3);
	assert_int_equal(ca.packets, sb->packets);
	assert_int_equal(ca.bytes, sb->bytes);
	assert_int_equal(ca.dropped, sb->dropped);
	assert_int_equal(ca.marked, sb->marked);
	assert_int_equal(ca.departed, sb->departed);
	assert_int_equal(ca.max_qlen, sb->max_qlen);
	assert_true(drops > 100);
	assert_true(marks > 100);
	assert_true(fast > 150000);
	/* a lossless class never takes the fast path */
	p.prio[3].lossless = 1;
	p.prio[3].xoff = 100000;
	p.prio[3].xon = 50000;
	struct cc_sw *c = cc_sw_new(&p);
	assert_non_null(c);
	assert_int_equal(cc_sw_early_departures(c), 0);
	struct cc_sw_verdict v;
	assert_int_equal(cc_sw_enqueue_early(c, 0, 3, 1000, 1, &v), 0);
	cc_sw_free(a);
	cc_sw_free(b);
	cc_sw_free(c);
}

static void test_sw_lossy_drops(void **state)
{
	(void)state;
	const uint64_t buffer = 10000;
	struct cc_sw *sw = one_port(100e9, buffer, 0, 0, 0, 0xFFFF);
	/* the same overload; what a 10-packet buffer must refuse */
	uint64_t accepted = 0, want_drops = 0, drops = 0, n = 5000;
	for (uint64_t k = 0; k < n; k++) {
		uint64_t t = 40 * k;
		uint64_t started = k == 0 ? 0 : t / 80 + 1; /* port busy throughout */
		uint64_t q = 1000 * (accepted - started);
		if (q + 1000 > buffer)
			want_drops++;
		else
			accepted++;
		struct cc_sw_verdict v = cc_sw_enqueue(sw, t, 3, 1000, 0, k);
		drops += v.result == CC_SW_DROPPED;
		drain(sw, t);
	}
	assert_true(want_drops > 2000);
	assert_int_equal(drops, want_drops);
	const struct cc_sw_prio_stats *st = cc_sw_stats(sw, 3);
	assert_int_equal(st->dropped, want_drops);
	assert_int_equal(st->dropped_bytes, 1000 * want_drops);
	/* conservation once the port has drained */
	drain(sw, 40 * n + 1000000);
	st = cc_sw_stats(sw, 3);
	assert_int_equal(st->departed + st->dropped, n);
	assert_int_equal(st->max_qlen, buffer);
	cc_sw_free(sw);
}

static void test_sw_pfc_hysteresis(void **state)
{
	(void)state;
	/* lossless, XOFF at 20 KB, XON at 10 KB, buffer far below the offered
	 * overload: nothing may be dropped */
	struct cc_sw *sw = one_port(100e9, 15000, 1, 20000, 10000, 0xFFFF);
	struct cc_sw_pfc ev[16];
	/* after the k-th arrival (k >= 1) the queue is 1000 ceil(k/2): 20 KB at k = 39 */
	uint64_t k;
	for (k = 0; k < 39; k++) {
		struct cc_sw_verdict v = cc_sw_enqueue(sw, 40 * k, 3, 1000, 0, k);
		assert_int_equal(v.result, CC_SW_QUEUED);
		assert_int_equal(v.xoff, 0);
		drain(sw, 40 * k);
	}
	assert_int_equal(cc_sw_pfc_events(sw, ev, 16), 0);
	struct cc_sw_verdict v = cc_sw_enqueue(sw, 40 * 39, 3, 1000, 0, 39);
	assert_int_equal(v.xoff, 1);
	assert_int_equal(v.result, CC_SW_QUEUED);
	assert_int_equal(cc_sw_pfc_events(sw, ev, 16), 1);
	assert_int_equal(ev[0].t_ns, 1560);
	assert_int_equal(ev[0].dir, CC_SW_PFC_UPSTREAM);
	assert_int_equal(ev[0].cev, 1 << 3);
	assert_int_equal(ev[0].quanta[3], 0xFFFF);
	/* the sender stops; the queue drains one packet per 80 ns from 1600:
	 * 20 KB - 10 starts = 10 KB at 1600 + 9 * 80 = 2320 */
	drain(sw, 2319);
	assert_int_equal(cc_sw_pfc_events(sw, ev, 16), 0); /* 11 KB: still above XON */
	drain(sw, 2320);
	assert_int_equal(cc_sw_pfc_events(sw, ev, 16), 1);
	assert_int_equal(ev[0].t_ns, 2320);
	assert_int_equal(ev[0].cev, 1 << 3);
	assert_int_equal(ev[0].quanta[3], 0); /* XON */
	const struct cc_sw_prio_stats *st = cc_sw_stats(sw, 3);
	assert_int_equal(st->paused_ns, 2320 - 1560);
	assert_int_equal(st->xoff, 1);
	assert_int_equal(st->xon, 1);
	assert_int_equal(st->dropped, 0);
	assert_int_equal(st->headroom, 20000 - 15000);
	/* between XON and XOFF nothing is sent: the queue must climb back */
	for (k = 0; k < 8; k++) {
		v = cc_sw_enqueue(sw, 2400 + 40 * k, 3, 1000, 0, 100 + k);
		assert_int_equal(v.xoff, 0);
	}
	assert_int_equal(cc_sw_pfc_events(sw, ev, 16), 0);
	cc_sw_free(sw);
}

static void test_sw_pfc_refresh_ignored(void **state)
{
	(void)state;
	/* computed pause: drain 10 KB at 100G = 800 ns = 156.25 -> 157 quanta,
	 * 803.84 ns; refreshed every half of it while above XON */
	struct cc_sw *sw = one_port(100e9, 1000000, 1, 20000, 10000, 0);
	struct cc_sw_pfc ev[16];
	uint64_t k, ignored = 0;
	for (k = 0; k <= 39; k++)
		cc_sw_enqueue(sw, 40 * k, 3, 1000, 0, k);
	assert_int_equal(cc_sw_pfc_events(sw, ev, 16), 1);
	assert_int_equal(ev[0].quanta[3], 157);
	/* a sender that ignores the pause: 10 more packets */
	for (k = 40; k < 50; k++)
		ignored += cc_sw_enqueue(sw, 40 * k, 3, 1000, 0, k).while_paused;
	assert_int_equal(ignored, 10);
	assert_int_equal(cc_sw_stats(sw, 3)->sent_while_paused, 10);
	/* refresh at 1560 + 401.92 ns, seen at 1962 */
	drain(sw, 1961);
	assert_int_equal(cc_sw_pfc_events(sw, ev, 16), 0);
	drain(sw, 1962);
	assert_int_equal(cc_sw_pfc_events(sw, ev, 16), 1);
	assert_int_equal(ev[0].t_ns, 1962);
	assert_int_equal(ev[0].quanta[3], 157);
	cc_sw_free(sw);
}

static void test_sw_marking_curve(void **state)
{
	(void)state;
	struct cc_sw_params p;
	cc_sw_defaults(&p, 100e9, 10000000, 1);
	p.prio[0].kmin = 100000;
	p.prio[0].kmax = 400000;
	p.prio[0].pmax = 0.2;
	p.seed = 1234;
	/* queue seen by each arrival, and the probability the curve gives it */
	const uint64_t qs[] = { 50000, 99000, 100000, 175000, 250000, 325000, 400000, 401000, 600000 };
	const double want[] = { 0, 0, 0, 0.05, 0.10, 0.15, 0.20, 1, 1 };
	const uint16_t pause[CC_SW_PRIOS] = { 0xFFFF };
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		struct cc_sw *sw = cc_sw_new(&p);
		/* fill while the receiver holds the port, then let it go and
		 * send at exactly the link rate: the queue stands still. The
		 * first start takes one packet, every arrival meets the start
		 * of the one after: it sees the fill less two packets. */
		uint64_t fill = qs[i] + 2000;
		cc_sw_rx_pfc(sw, 0, 1, pause);
		for (uint64_t b = 0; b < fill; b += 1000)
			assert_int_equal(cc_sw_enqueue(sw, 0, 0, 1000, 0, 0).ce, 0);
		uint16_t resume[CC_SW_PRIOS] = { 0 };
		cc_sw_rx_pfc(sw, 1000, 1, resume);
		const long n = 20000;
		long marked = 0;
		for (long j = 1; j <= n; j++) {
			struct cc_sw_verdict v = cc_sw_enqueue(sw, 1000 + 80 * (uint64_t)j, 0, 1000, 1, 0);
			assert_int_equal(v.qlen, qs[i]);
			marked += v.ce;
			drain(sw, 1000 + 80 * (uint64_t)j);
		}
		double mean = (double)n * want[i], sd = sqrt((double)n * want[i] * (1 - want[i]));
		if (fabs((double)marked - mean) > 5 * sd + 0.5)
			fail_msg("q %lu: %ld of %ld marked, want %.0f +- %.0f", (unsigned long)qs[i], marked, n,
				 mean, 5 * sd);
		assert_int_equal(cc_sw_stats(sw, 0)->marked, marked);
		cc_sw_free(sw);
	}
	/* not-ECT packets are never marked */
	struct cc_sw *sw = cc_sw_new(&p);
	for (int j = 0; j < 1000; j++)
		assert_int_equal(cc_sw_enqueue(sw, 0, 0, 1000, 0, 0).ce, 0);
	cc_sw_free(sw);
}

static void test_sw_storm_hol(void **state)
{
	(void)state;
	/* a stuck receiver holds priority 3 for 1 ms; priority 1 keeps going,
	 * and the flows sharing priority 3 wait behind it */
	struct cc_sw_params p;
	cc_sw_defaults(&p, 100e9, 10000000, 8);
	p.prio[3].lossless = 1;
	p.prio[3].ecn = p.prio[1].ecn = 0;
	p.prio[3].xoff = 50000;
	p.prio[3].xon = 30000;
	struct cc_sw *sw = cc_sw_new(&p);
	cc_sw_storm(sw, 10000, 3, 1000000);
	struct cc_sw_departure d[64];
	uint64_t dep3 = 0, dep1 = 0, upstream_xoff = 0, k;
	for (k = 0; k < 2000; k++) {
		uint64_t t = 10000 + 200 * k; /* 2 x 1000 B per 200 ns: 80 Gb/s */
		cc_sw_enqueue(sw, t, 3, 1000, 0, 3);
		cc_sw_enqueue(sw, t, 1, 1000, 0, 1);
		uint32_t n;
		while ((n = cc_sw_poll(sw, t, d, 64)) > 0)
			for (uint32_t i = 0; i < n; i++) {
				dep3 += d[i].prio == 3;
				dep1 += d[i].prio == 1;
			}
	}
	assert_int_equal(dep3, 0);      /* held through the storm */
	assert_true(dep1 >= 1990);      /* the other class unhurt */
	/* after it: XON from the receiver, the queue drains, XON upstream */
	drain(sw, 2000000);
	struct cc_sw_pfc ev[64];
	uint32_t n = cc_sw_pfc_events(sw, ev, 64), down = 0;
	int xon_down = 0, xon_up = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (ev[i].dir == CC_SW_PFC_DOWNSTREAM && ev[i].quanta[3] == 0) {
			xon_down = 1;
			assert_int_equal(ev[i].t_ns, 1010000);
		} else if (ev[i].dir == CC_SW_PFC_DOWNSTREAM) {
			/* refreshed every half of 335.5392 us */
			assert_int_equal(ev[i].t_ns, 10000 + (167769600 * (uint64_t)down + 999) / 1000);
			assert_int_equal(ev[i].quanta[3], 0xFFFF);
			down++;
		}
		if (ev[i].dir == CC_SW_PFC_UPSTREAM && ev[i].quanta[3] == 0)
			xon_up = 1;
		if (ev[i].dir == CC_SW_PFC_UPSTREAM && ev[i].quanta[3] != 0)
			upstream_xoff++;
	}
	/* frames at 0, 167.77 us, ... inside 1 ms: six, then XON */
	assert_int_equal(down, 6);
	assert_true(upstream_xoff >= 1); /* the storm spreads upstream */
	assert_true(xon_down && xon_up);
	const struct cc_sw_prio_stats *st = cc_sw_stats(sw, 3);
	assert_int_equal(st->egress_paused_ns, 1000000);
	assert_int_equal(st->departed, 2000);
	assert_int_equal(st->dropped, 0);
	assert_true(cc_sw_next_event(sw) == CC_NEVER);
	cc_sw_free(sw);
}

static void test_sw_round_robin(void **state)
{
	(void)state;
	struct cc_sw_params p;
	cc_sw_defaults(&p, 100e9, 1000000, 4);
	p.sched = CC_SW_ROUND_ROBIN;
	struct cc_sw *sw = cc_sw_new(&p);
	for (int i = 0; i < 4; i++) {
		cc_sw_enqueue(sw, 0, 0, 1000, 0, 0);
		cc_sw_enqueue(sw, 0, 2, 1000, 0, 2);
	}
	struct cc_sw_departure d[16];
	assert_int_equal(cc_sw_poll(sw, 1000000, d, 16), 8);
	/* the first goes at once; then the two classes alternate */
	for (int i = 1; i < 8; i++)
		assert_int_not_equal(d[i].prio, d[i - 1].prio);
	cc_sw_free(sw);
	/* strict: the higher class empties first */
	p.sched = CC_SW_STRICT;
	sw = cc_sw_new(&p);
	for (int i = 0; i < 4; i++) {
		cc_sw_enqueue(sw, 0, 0, 1000, 0, 0);
		cc_sw_enqueue(sw, 0, 2, 1000, 0, 2);
	}
	assert_int_equal(cc_sw_poll(sw, 1000000, d, 16), 8);
	const int want[] = { 0, 2, 2, 2, 2, 0, 0, 0 };
	for (int i = 0; i < 8; i++)
		assert_int_equal(d[i].prio, want[i]);
	cc_sw_free(sw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rp_known_answers),
		cmocka_unit_test(test_rp_trace),
		cmocka_unit_test(test_rp_min_rate_and_floor),
		cmocka_unit_test(test_rp_mlx5_reduce_period),
		cmocka_unit_test(test_rp_offered_rate),
		cmocka_unit_test(test_np_pacing),
		cmocka_unit_test(test_np_misbehaving),
		cmocka_unit_test(test_np_modes),
		cmocka_unit_test(test_np_bounded),
		cmocka_unit_test(test_pfc_quanta),
		cmocka_unit_test(test_sw_overload_qlen),
		cmocka_unit_test(test_sw_early_departures),
		cmocka_unit_test(test_sw_early_fast_path),
		cmocka_unit_test(test_sw_lossy_drops),
		cmocka_unit_test(test_sw_pfc_hysteresis),
		cmocka_unit_test(test_sw_pfc_refresh_ignored),
		cmocka_unit_test(test_sw_marking_curve),
		cmocka_unit_test(test_sw_storm_hol),
		cmocka_unit_test(test_sw_round_robin),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
