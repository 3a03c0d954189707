/* SPDX-License-Identifier: BSD-3-Clause */
/* The three ways rocewire-verbs runs: client (requester), server (responder)
 * and fixed-peer server. Each returns the exit status (opts.h) after printing
 * its summary and writing the record when asked. */
#ifndef RWV_ENDPOINT_H
#define RWV_ENDPOINT_H

#include "opts.h"

int rwv_run_client(const struct rwv_opts *o);
int rwv_run_server(const struct rwv_opts *o);
int rwv_run_fixed_peer(const struct rwv_opts *o);

#endif
