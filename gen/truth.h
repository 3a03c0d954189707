/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-gen --truth-jsonl FILE: the model's ground truth (flow.h,
 * struct gen_truth) as JSON Lines, one object per packet made, written to
 * a new file renamed into place when whole (rocewire-gen(1), TRUTH FILE). */
#ifndef RWGEN_TRUTH_H
#define RWGEN_TRUTH_H

#include <stddef.h>
#include <stdint.h>
#include "flow.h"

struct gen_truth_out;

/* NULL with one line in err when the file cannot be made. */
struct gen_truth_out *gen_truth_open(const char *path, const struct gen_scenario *sc, char *err, size_t errcap);
/* 0, or -1 (a write failed: reported at close). */
int gen_truth_write(struct gen_truth_out *o, const struct gen_truth *r, uint32_t n);
/* commit 1: renames the file into place; 0: removes it. 0, or -1 with one
 * line in err. Frees o. */
int gen_truth_close(struct gen_truth_out *o, int commit, char *err, size_t errcap);

#endif
