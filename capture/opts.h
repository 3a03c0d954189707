/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-cap's options (opts.c): parsing into struct cap_opts (cap.h),
 * --help, and the defaults. */
#ifndef ROCEWIRE_CAP_OPTS_H
#define ROCEWIRE_CAP_OPTS_H

#include <stdio.h>

struct cap_opts;

#define CAP_DEFAULT_MAX_WARNINGS 10
#define CAP_DEFAULT_STATUS_SECS 5
#define CAP_DEFAULT_LINK_GBPS 100.0
#define CAP_DEFAULT_STORM_MS 10.0
#define CAP_DEFAULT_CNP_WINDOW_US 1000.0

/* Fills o from argv; prints --help, --version or --list-options and exits
 * 0, or one line and exits 2 on a usage error. */
void cap_opts_parse(int argc, char **argv, struct cap_opts *o);
void cap_usage(FILE *f);

#endif
