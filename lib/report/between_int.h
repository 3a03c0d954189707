/* SPDX-License-Identifier: BSD-3-Clause */
/* Inside the two-tap report: what its text/JSON form (report_between.c)
 * and its HTML page (report_between_html.c) both need. */
#ifndef ROCEWIRE_CAP_BETWEEN_INT_H
#define ROCEWIRE_CAP_BETWEEN_INT_H

#include <stdint.h>

#include "rocewire/between.h"

#define CB_ADDR_LEN 48
/* "10.0.0.1", an IPv6 address or GID, "lid 5" (buf: CB_ADDR_LEN bytes). */
const char *cb_addr_str(char *buf, const struct rw_between_addr *a);
/* A flow's packets of one fate: its unmatched of the tap that fate reads. */
uint64_t cb_flow_fate(const struct rw_between_flow *f, enum rw_between_fate fate);

#endif
