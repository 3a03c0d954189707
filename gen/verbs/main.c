/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-verbs: a perftest-like pair of libibverbs endpoints that checks
 * what it moved and records it as JSON. See rocewire-verbs(1), README.md. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "endpoint.h"
#include "oob.h"
#include "opts.h"

static void on_signal(int sig)
{
	(void)sig;
	rwv_stop_requested = 1;
}

int main(int argc, char **argv)
{
	struct rwv_opts o;
	char err[512];
	struct sigaction sa;
	struct timespec ts;

	int r = rwv_opts_parse(argc, argv, &o, err, sizeof(err));
	if (r >= 0) {
		if (r != RWV_EXIT_OK)
			fprintf(stderr, "rocewire-verbs: %s\n", err);
		return r;
	}

	/* No SA_RESTART: a signal wakes poll(), and every wait checks the flag. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	clock_gettime(CLOCK_REALTIME, &ts);
	srand48((long)(ts.tv_nsec ^ ts.tv_sec ^ (long)getpid() << 16));

	if (o.role == RWV_CLIENT)
		return rwv_run_client(&o);
	if (o.fixed_peer)
		return rwv_run_fixed_peer(&o);
	return rwv_run_server(&o);
}
