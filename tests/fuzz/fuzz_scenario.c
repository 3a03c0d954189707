/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: generator scenario files (gen/scenario*.c) from memory.
 *
 * Input: the bytes of a scenario file, given to gen_scenario_parse as they
 * are. The parser must never crash, leak or allocate without bound (the
 * fuzzer's -malloc_limit_mb and LeakSanitizer see to the last two), and
 * its answer is held to the contract of scenario.h:
 *  - a refusal is ONE line "fuzz.yaml:LINE:COLUMN: what" (or "fuzz.yaml:
 *    reason" for a file over the size limit), *out untouched;
 *  - an accepted scenario keeps the bounds README-scenario.md states and
 *    that size the flow model's allocations (hosts, flows, faults, QPs in
 *    all, storms, the congestion model's pools), and every index it holds
 *    points inside its arrays. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                                      \
	do {                                                                                             \
		if (!(cond)) {                                                                           \
			fprintf(stderr, "fuzz_scenario: %s:%d: check failed: %s\n", __FILE__, __LINE__, \
				#cond);                                                                  \
			abort();                                                                         \
		}                                                                                        \
	} while (0)

/* The bounds of README-scenario.md and scenario_cc.c, restated: a change
 * there that loosens them is meant to fail here first. */
#define FZ_MAX_HOSTS 256u
#define FZ_MAX_FLOWS 1024u
#define FZ_MAX_FAULTS 1024u
#define FZ_MAX_QPS_ALL 65536u
#define FZ_MAX_SW_PACKETS (1u << 26)
#define FZ_MAX_SW_BUFFER (1ull << 30)
#define FZ_MAX_NP_KEYS (1u << 20)

static int is_digits(const char *p, const char **end)
{
	const char *s = p;
	while (*p >= '0' && *p <= '9')
		p++;
	*end = p;
	return p > s;
}

/* "fuzz.yaml:LINE:COLUMN: what", one line. */
static void check_error(const char *err)
{
	static const char pre[] = "fuzz.yaml:";
	const char *p;
	CHECK(strchr(err, '\n') == NULL);
	CHECK(strncmp(err, pre, sizeof(pre) - 1) == 0);
	p = err + sizeof(pre) - 1;
	if (strncmp(p, " larger than", 12) == 0)
		return;
	CHECK(is_digits(p, &p) && *p == ':');
	CHECK(is_digits(p + 1, &p) && p[0] == ':' && p[1] == ' ' && p[2] != 0);
}

static void check_scenario(const struct gen_scenario *s)
{
	CHECK(s->n_hosts >= 2 && s->n_hosts <= FZ_MAX_HOSTS && s->hosts);
	CHECK(s->n_flows >= 1 && s->n_flows <= FZ_MAX_FLOWS && s->flows);
	CHECK(s->n_faults <= FZ_MAX_FAULTS && (s->n_faults == 0 || s->faults));
	uint64_t qps = 0;
	for (uint32_t i = 0; i < s->n_flows; i++) {
		const struct gen_flow *f = &s->flows[i];
		CHECK(f->src < s->n_hosts && f->dst < s->n_hosts);
		CHECK(f->qps >= 1);
		CHECK(f->src_qpn > 1 && f->src_qpn + f->qps - 1 <= 0xFFFFFF);
		CHECK(f->dst_qpn > 1 && f->dst_qpn + f->qps - 1 <= 0xFFFFFF);
		CHECK(f->pattern_len <= GEN_PATTERN_MAX);
		CHECK(f->size.n <= GEN_SIZE_CHOICES);
		CHECK(memchr(f->name, 0, sizeof(f->name)) != NULL);
		qps += f->qps;
	}
	CHECK(qps <= FZ_MAX_QPS_ALL);
	for (uint32_t i = 0; i < s->n_faults; i++)
		CHECK(s->faults[i].flow < (int32_t)s->n_flows);
	CHECK(s->cc.n_storms <= GEN_CC_STORMS);
	CHECK(s->cc.sw.max_packets <= FZ_MAX_SW_PACKETS);
	CHECK(s->cc.sw.buffer <= FZ_MAX_SW_BUFFER);
	CHECK(s->cc.np.max_keys <= FZ_MAX_NP_KEYS);
	CHECK(memchr(s->name, 0, sizeof(s->name)) != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gen_scenario s, before;
	char err[512];
	memset(&s, 0xA5, sizeof(s));
	before = s;
	int rc = gen_scenario_parse((const char *)data, size, "fuzz.yaml", &s, err, sizeof(err));
	if (rc != 0) {
		CHECK(rc == -1);
		check_error(err);
		CHECK(memcmp(&s, &before, sizeof(s)) == 0);
		return 0;
	}
	check_scenario(&s);
	/* A scenario is checked once and run; reading it twice must agree. */
	struct gen_scenario t;
	CHECK(gen_scenario_parse((const char *)data, size, "fuzz.yaml", &t, err, sizeof(err)) == 0);
	CHECK(t.n_hosts == s.n_hosts && t.n_flows == s.n_flows && t.n_faults == s.n_faults);
	for (uint32_t i = 0; i < s.n_flows; i++)
		CHECK(t.flows[i].qps == s.flows[i].qps && t.flows[i].src_qpn == s.flows[i].src_qpn &&
		      t.flows[i].dst_qpn == s.flows[i].dst_qpn);
	gen_scenario_free(&t);
	gen_scenario_free(&s);
	return 0;
}
