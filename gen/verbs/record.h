/* SPDX-License-Identifier: BSD-3-Clause */
/* The JSON record of a run (--record FILE) and the fixed-peer JSON lines.
 * The format is documented in README.md ("Record"). */
#ifndef RWV_RECORD_H
#define RWV_RECORD_H

#include <stddef.h>

#include <jansson.h>

#include "run.h"

#define RWV_RECORD_FORMAT "rocewire-verbs-record"
#define RWV_RECORD_VERSION 1

json_t *rwv_record_json(const struct rwv_run *r);
/* Writes the record to path (through path.tmp and a rename, so a reader never
 * sees half a file). Returns 0, or -1 with why. */
int rwv_record_write(const struct rwv_run *r, const char *path, char *why, size_t whylen);

/* Fixed peer: this side's coordinates, and the verdict. Each is one line of
 * compact JSON without the newline, malloc'd (NULL when out of memory). */
char *rwv_fixed_peer_line(const struct rwv_run *r);
char *rwv_verdict_line(const struct rwv_run *r);

#endif
