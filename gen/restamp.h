/* SPDX-License-Identifier: BSD-3-Clause */
/* Model times into a pcap written by net_pcap (see restamp.c). */
#ifndef RWGEN_RESTAMP_H
#define RWGEN_RESTAMP_H

#include <stddef.h>
#include <stdint.h>

/* Record i gets base_ns + t_ns[i]. 0, or -1 with one line in err (the
 * file's record count differing from n is an error). */
int gen_restamp(const char *path, const uint64_t *t_ns, uint64_t n, uint64_t base_ns, char *err,
		size_t errlen);

#endif
