/* SPDX-License-Identifier: BSD-3-Clause */
/* bench-genmodel: the per-packet cost of rocewire-gen's stages without DPDK.
 *
 *   bench-genmodel [-n PACKETS] [-r ROUNDS] [--general] [--check N] SCENARIO...
 *
 * For each scenario (run with no duration, PACKETS packets, default 5M):
 *   model   gen_model_next() alone, 32 packets a call, as the TX worker
 *           asks for them;
 *   frames  the model and the frames the TX layer writes (gen/tx_frame.h:
 *           template lookup, header, ICRC, tail) into 512 buffers laid out
 *           like rocewire-gen's mbufs (the flow's payload pattern written
 *           once, the header before it, the previous tail put back).
 * The TX build's cost is the difference. Times are CPU time of the process,
 * the best of ROUNDS (default 5): the machine may be shared, and a round
 * that lost the CPU counts no time. rocewire-gen on net_null adds the port:
 * bench/bench_gen.py.
 *
 * Scenarios the lockstep stream sends (gen/flow.h: one UC/UD flow of one
 * op and size in one-packet messages) get two more columns: the stream's
 * rounds alone (gen_model_rounds) and with the frames patched in place
 * (gen_ls_patch) into 512 buffers stamped once, as rocewire-gen's pool is.
 *
 * --general: no ICRC tables (every ICRC by the general patch, as before
 * rw_tmpl_fast), to see what they save.
 *
 * --check N: before timing, builds the first N frames of each scenario the
 * slow, obvious way too (gen_pkt_describe + rw_packet_build, a full ICRC)
 * and fails on the first byte that differs; the lockstep's frames too. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "flow.h"
#include "rocewire/build.h"
#include "rocewire/link.h"
#include "rocewire/packet.h"
#include "scenario.h"
#include "tx.h"
#include "tx_frame.h"

#define BURST 32u
#define NBUF 512u

struct buf {
	uint8_t *base;       /* GEN_MBUF_DATA bytes, the payload at GEN_PAYLOAD_AT */
	uint16_t tail_at, tail_len;
};

static double cpu_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static uint64_t run_model(const struct gen_scenario *sc, uint64_t n, double *secs)
{
	struct gen_model *m = gen_model_new(sc, 0, 1);
	struct gen_pkt pk[BURST];
	uint64_t got = 0;
	double t0 = cpu_now();

	if (!m)
		return 0;
	while (got < n) {
		uint32_t k = gen_model_next(m, pk, BURST, UINT64_MAX);
		if (k == 0 && gen_model_done(m))
			break;
		got += k;
	}
	*secs = cpu_now() - t0;
	gen_model_free(m);
	return got;
}

/* One frame as rocewire-gen's put_frame writes it; returns its first byte. */
static uint8_t *put(struct gen_frames *fr, const uint8_t *pat, const struct gen_pkt *pk, struct buf *b,
		    uint32_t *len)
{
	const struct gen_fr_slot *s = gen_frames_get(fr, pk);
	uint8_t *pay = b->base + GEN_PAYLOAD_AT;

	if (!s)
		return NULL;
	if (b->tail_len)
		gen_frames_restore(pay + b->tail_at, pat + b->tail_at, b->tail_len);
	gen_frames_put(fr, s, pk, pay);
	b->tail_at = (uint16_t)s->t.payload_len;
	b->tail_len = (uint16_t)(s->t.frame_len - s->t.hdr_len - s->t.payload_len);
	*len = s->t.frame_len;
	return pay - s->t.hdr_len;
}

/* One pattern and one ring of buffers per flow, as rocewire-gen keeps one
 * mbuf pool per distinct pattern. */
struct rig {
	uint32_t nflows, nbuf;
	uint8_t **patterns;
	uint32_t *flow_pool;     /* flow i uses patterns[i] */
	struct buf *bufs;        /* nbuf per flow */
	uint32_t *next;
};

static int rig_init(struct rig *r, const struct gen_scenario *sc)
{
	memset(r, 0, sizeof(*r));
	r->nflows = sc->n_flows ? sc->n_flows : 1;
	r->nbuf = r->nflows == 1 ? NBUF : 64;
	r->patterns = calloc(r->nflows, sizeof(*r->patterns));
	r->flow_pool = calloc(r->nflows, sizeof(*r->flow_pool));
	r->bufs = calloc((size_t)r->nflows * r->nbuf, sizeof(*r->bufs));
	r->next = calloc(r->nflows, sizeof(*r->next));
	if (!r->patterns || !r->flow_pool || !r->bufs || !r->next)
		return -1;
	for (uint32_t i = 0; i < sc->n_flows; i++) {
		r->patterns[i] = malloc(GEN_PAYLOAD_MAX + GEN_TAIL_MAX);
		if (!r->patterns[i])
			return -1;
		gen_flow_payload(&sc->flows[i], r->patterns[i], GEN_PAYLOAD_MAX + GEN_TAIL_MAX);
		r->flow_pool[i] = i;
		for (uint32_t k = 0; k < r->nbuf; k++) {
			struct buf *b = &r->bufs[(size_t)i * r->nbuf + k];
			b->base = malloc(GEN_MBUF_DATA);
			if (!b->base)
				return -1;
			memcpy(b->base + GEN_PAYLOAD_AT, r->patterns[i], GEN_PAYLOAD_MAX + GEN_TAIL_MAX);
		}
	}
	return 0;
}

static void rig_free(struct rig *r)
{
	for (size_t i = 0; r->bufs && i < (size_t)r->nflows * r->nbuf; i++)
		free(r->bufs[i].base);
	for (uint32_t i = 0; r->patterns && i < r->nflows; i++)
		free(r->patterns[i]);
	free(r->patterns);
	free(r->flow_pool);
	free(r->bufs);
	free(r->next);
}

static int general;

static uint64_t run_frames(const struct gen_scenario *sc, struct rig *r, uint64_t n, uint64_t check,
			   double *secs, int *bad)
{
	struct gen_model *m = gen_model_new(sc, 0, 1);
	struct gen_frames *fr = gen_frames_new(sc, 0, 1, (const uint8_t *const *)r->patterns, r->flow_pool);
	struct gen_pkt pk[BURST];
	static uint8_t ref[GEN_MBUF_DATA];
	uint64_t got = 0, sum = 0;
	double t0 = cpu_now();

	*bad = 0;
	if (!m || !fr)
		return 0;
	fr->general_only = general;
	while (got < n) {
		uint32_t k = gen_model_next(m, pk, BURST, UINT64_MAX);
		if (k == 0 && gen_model_done(m))
			break;
		for (uint32_t i = 0; i < k; i++) {
			uint32_t fl = pk[i].flow;
			struct buf *b = &r->bufs[(size_t)fl * r->nbuf + r->next[fl]++ % r->nbuf];
			uint32_t len;
			uint8_t *f = put(fr, r->patterns[fl], &pk[i], b, &len);
			if (!f) {
				*bad = 1;
				goto out;
			}
			sum += f[len - 1];
			if (got + i < check) {
				struct rw_packet p;
				size_t rn;
				unsigned bf = (pk[i].flags & GEN_PF_CORRUPT) ? RW_BUILD_BAD_ICRC : 0;
				gen_pkt_describe(sc, &pk[i], r->patterns[fl], &p);
				if (rw_packet_build(&p, RW_LINKTYPE_ETHERNET, bf, ref, sizeof(ref), &rn) != RW_OK)
					rn = 0;
				if (rn != len || memcmp(ref, f, len) != 0) {
					fprintf(stderr, "bench-genmodel: packet %llu (flow %u, opcode 0x%02x, PSN %u): "
							"frame differs from rw_packet_build's\n",
						(unsigned long long)(got + i), pk[i].flow, pk[i].opcode, pk[i].f.psn);
					*bad = 1;
					goto out;
				}
			}
		}
		got += k;
	}
out:
	*secs = cpu_now() - t0;
	if (sum == 1)
		fputc(' ', stderr); /* keeps the frames' last bytes read */
	gen_frames_free(fr);
	gen_model_free(m);
	return got;
}

/* The lockstep stream: rounds alone (ls NULL) or with frames patched into
 * NBUF buffers stamped with the stream's frame. 0 packets when the
 * scenario is not sent in lockstep. */
static uint64_t run_lockstep(const struct gen_scenario *sc, const struct rig *r, int frames, uint64_t n,
			     uint64_t check, double *secs, int *bad)
{
	struct gen_model *m = gen_model_new(sc, 0, 1);
	const struct gen_lockstep *ls = m ? gen_model_lockstep(m) : NULL;
	struct gen_ls_frames *fr = NULL;
	struct gen_round rb[BURST];
	static uint8_t ref[GEN_MBUF_DATA];
	uint8_t *bufs[NBUF] = { NULL };
	uint64_t got = 0, sum = 0;
	char err[256];
	double t0;

	*bad = 0;
	*secs = 0;
	if (!ls) {
		gen_model_free(m);
		return 0;
	}
	if (frames) {
		fr = gen_ls_frames_new(sc, m, ls, r->patterns[ls->flow], err, sizeof(err));
		if (!fr) {
			fprintf(stderr, "bench-genmodel: %s\n", err);
			*bad = 1;
			gen_model_free(m);
			return 0;
		}
		for (uint32_t i = 0; i < NBUF; i++) {
			bufs[i] = malloc(GEN_MBUF_DATA);
			if (!bufs[i]) {
				*bad = 1;
				goto out;
			}
			memcpy(bufs[i], fr->frame, fr->t.frame_len);
		}
	}
	t0 = cpu_now();
	while (got < n) {
		uint32_t nr = gen_model_rounds(m, rb, BURST, BURST, UINT64_MAX);
		if (nr == 0 && gen_model_done(m))
			break;
		for (uint32_t k = 0; k < nr; k++) {
			if (!fr) {
				got += rb[k].n;
				continue;
			}
			uint32_t va_icrc = gen_ls_va_icrc(fr, rb[k].va);
			for (uint32_t i = 0; i < rb[k].n; i++, got++) {
				uint8_t *f = bufs[got % NBUF];
				gen_ls_patch(fr, rb[k].qp0 + i, rb[k].psn, rb[k].va, va_icrc, f);
				sum += f[fr->t.frame_len - 1];
				if (got < check) {
					struct gen_pkt pk;
					struct rw_packet p;
					size_t rn;
					gen_model_round_pkt(m, &rb[k], i, &pk);
					gen_pkt_describe(sc, &pk, r->patterns[ls->flow], &p);
					if (rw_packet_build(&p, RW_LINKTYPE_ETHERNET, 0, ref, sizeof(ref), &rn) != RW_OK ||
					    rn != fr->t.frame_len || memcmp(ref, f, rn) != 0) {
						fprintf(stderr, "bench-genmodel: lockstep packet %llu (QP %u, PSN %u): frame "
								"differs from rw_packet_build's\n",
							(unsigned long long)got, pk.qp, pk.f.psn);
						*bad = 1;
						goto out;
					}
				}
			}
		}
	}
	*secs = cpu_now() - t0;
out:
	if (sum == 1)
		fputc(' ', stderr); /* keeps the frames' last bytes read */
	for (uint32_t i = 0; i < NBUF; i++)
		free(bufs[i]);
	gen_ls_frames_free(fr);
	gen_model_free(m);
	return got;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "check", required_argument, NULL, 'c' },
		{ "general", no_argument, NULL, 'g' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t n = 5000000, check = 0;
	int rounds = 5, c, rc = 0;

	while ((c = getopt_long(argc, argv, "n:r:", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			n = strtoull(optarg, NULL, 0);
			break;
		case 'r':
			rounds = atoi(optarg);
			break;
		case 'c':
			check = strtoull(optarg, NULL, 0);
			break;
		case 'g':
			general = 1;
			break;
		default:
			fprintf(stderr, "usage: bench-genmodel [-n PACKETS] [-r ROUNDS] [--general] [--check N] SCENARIO...\n");
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: bench-genmodel [-n PACKETS] [-r ROUNDS] [--general] [--check N] SCENARIO...\n");
		return 2;
	}
	printf("| scenario | packets | model ns/pkt | model + frames ns/pkt | frames ns/pkt | lockstep rounds "
	       "ns/pkt | lockstep rounds + frames ns/pkt |\n");
	printf("| --- | --- | --- | --- | --- | --- | --- |\n");
	for (int a = optind; a < argc; a++) {
		struct gen_scenario sc;
		struct rig r;
		char err[512];
		double best_m = 1e30, best_f = 1e30, best_lr = 1e30, best_lf = 1e30;
		uint64_t got = 0;
		int bad = 0;

		if (gen_scenario_load(argv[a], &sc, err, sizeof(err)) != 0) {
			fprintf(stderr, "bench-genmodel: %s\n", err);
			return 2;
		}
		sc.duration_ns = 0;
		sc.packets = n;
		if (rig_init(&r, &sc) != 0) {
			fprintf(stderr, "bench-genmodel: %s: out of memory\n", argv[a]);
			return 1;
		}
		if (check && ((run_frames(&sc, &r, check, check, &best_f, &bad), bad) ||
			      (run_lockstep(&sc, &r, 1, check, check, &best_f, &bad), bad))) {
			rc = 1;
		} else {
			best_f = 1e30;
			for (int i = 0; i < rounds; i++) {
				double s;
				got = run_model(&sc, n, &s);
				if (got && s / (double)got < best_m)
					best_m = s / (double)got;
				got = run_frames(&sc, &r, n, 0, &s, &bad);
				if (got && s / (double)got < best_f)
					best_f = s / (double)got;
				uint64_t lg = run_lockstep(&sc, &r, 0, n, 0, &s, &bad);
				if (lg && s / (double)lg < best_lr)
					best_lr = s / (double)lg;
				lg = run_lockstep(&sc, &r, 1, n, 0, &s, &bad);
				if (lg && s / (double)lg < best_lf)
					best_lf = s / (double)lg;
			}
			char lr[32] = "-", lf[32] = "-";
			if (best_lr < 1e30)
				snprintf(lr, sizeof(lr), "%.1f", best_lr * 1e9);
			if (best_lf < 1e30)
				snprintf(lf, sizeof(lf), "%.1f", best_lf * 1e9);
			printf("| %s | %llu | %.1f | %.1f | %.1f | %s | %s |\n", argv[a], (unsigned long long)got,
			       best_m * 1e9, best_f * 1e9, (best_f - best_m) * 1e9, lr, lf);
		}
		rig_free(&r);
		gen_scenario_free(&sc);
	}
	return rc;
}
