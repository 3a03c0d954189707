/* SPDX-License-Identifier: BSD-3-Clause */
/* --filter: a display-filter-like expression over the fields proto/ decodes,
 * compiled once into a small tree and evaluated per frame.
 *
 *   expr    := and { ("||" | "or") and }
 *   and     := unary { ("&&" | "and") unary }
 *   unary   := ("!" | "not") unary | "(" expr ")" | FIELD [ OP VALUE ]
 *   OP      := "==" | "!=" | "<" | "<=" | ">" | ">="
 *   VALUE   := a number (0x for hex), an IPv4 address, or an opcode name
 *
 * FIELD alone is true when the frame carries it. Field names follow
 * Wireshark's where it has one (ip.src, udp.srcport, bth.destqp; the
 * "infiniband." prefix is accepted too). */
#ifndef RWREPLAY_FILTER_H
#define RWREPLAY_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "rocewire/packet.h"

#define RP_FILTER_MAX_NODES 64

struct rp_fnode {
	uint8_t kind;     /* enum in filter.c */
	uint8_t field;
	uint8_t op;
	int16_t a, b;     /* children */
	uint64_t value;
};

struct rp_filter {
	struct rp_fnode n[RP_FILTER_MAX_NODES];
	int count, root;
};

/* 0, or -1 with one line in err naming the column and what was expected. */
int rp_filter_compile(const char *expr, struct rp_filter *f, char *err, size_t errlen);
/* Whether the frame (its decode, its length) passes. */
int rp_filter_match(const struct rp_filter *f, const struct rw_packet *p, uint32_t frame_len);
/* The field names, for --help and messages: "ip.src, ip.dst, ..." */
const char *rp_filter_fields(void);

#endif
