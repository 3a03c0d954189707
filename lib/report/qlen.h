/* SPDX-License-Identifier: BSD-3-Clause */
/* A queue-length trace beside a capture (--qlen FILE): what rocewire-gen's
 * simulated switch writes with `outputs: {qlen: FILE}` (gen/README-congestion.md),
 * CSV (`time_ns,prio,bytes`, a header line) or JSON Lines
 * ({"time_ns": .., "prio": .., "bytes": ..}). Times are nanoseconds from the
 * capture's first packet; the rows of one time are summed over the
 * priorities. The HTML report draws it on the CE/CNP timeline. */
#ifndef CAP_QLEN_H
#define CAP_QLEN_H

#include <stddef.h>
#include <stdint.h>

struct cap_qlen {
	uint64_t *t_ns;    /* increasing */
	uint64_t *bytes;   /* all priorities at t_ns[i] */
	size_t n;
	uint64_t max;
};

/* 0, or -1 with one line in err naming the file (as shown: escaped by the
 * caller) and the line. */
int cap_qlen_load(const char *path, const char *shown, struct cap_qlen *q, char *err, size_t errcap);
void cap_qlen_free(struct cap_qlen *q);

#endif
