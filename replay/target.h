/* SPDX-License-Identifier: BSD-3-Clause */
/* --target: re-targeting a recorded requester stream to a live endpoint,
 * rocewire-verbs' fixed-peer server (its "ready" JSON line or its record). */
#ifndef RWREPLAY_TARGET_H
#define RWREPLAY_TARGET_H

#include <stddef.h>

#include "opts.h"

/* Reads o->target and the capture o->input (its first request: QPN, PSN,
 * R_Key, VA, destination address) and adds the rules that send that
 * stream to the target: destination QPN, PSN base, R_Key, VA, and the
 * destination IP from the target's GID. 0, or -1 with one line in err. */
int rp_target_apply(struct rp_opts *o, char *err, size_t errlen);

#endif
