// SPDX-License-Identifier: BSD-3-Clause
/* EAL arguments and start (rw_dpdk.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_log.h>

#include "rw_dpdk.h"

int rw_dpdk_args_pcap(struct rw_dpdk_args *a, const char *prog, const char *tx_pcap, int two_cores,
		      unsigned mem_mb, char *err, size_t n)
{
	/* static: EAL keeps pointers into argv for the life of the process */
	static char mem[16];

	if (strchr(tx_pcap, ',') || strchr(tx_pcap, '=')) {
		snprintf(err, n, "a file name with ',' or '=' cannot be passed to net_pcap: %s", tx_pcap);
		return -1;
	}
	snprintf(a->vdev, sizeof(a->vdev), "--vdev=net_pcap0,tx_pcap=%s", tx_pcap);
	snprintf(mem, sizeof(mem), "%u", mem_mb);
	a->argc = 0;
	a->argv[a->argc++] = (char *)prog;
	a->argv[a->argc++] = "-l";
	a->argv[a->argc++] = two_cores && sysconf(_SC_NPROCESSORS_ONLN) > 1 ? "0-1" : "0";
	a->argv[a->argc++] = "--no-huge";
	a->argv[a->argc++] = "--no-pci";
	a->argv[a->argc++] = "--no-shconf";
	a->argv[a->argc++] = "-m";
	a->argv[a->argc++] = mem;
	a->argv[a->argc++] = "--no-telemetry";
	a->argv[a->argc++] = "--log-level=*:warning";
	a->argv[a->argc++] = a->vdev;
	return 0;
}

int rw_dpdk_args_user(struct rw_dpdk_args *a, const char *prog, int argc, char **argv, char *err,
		      size_t n)
{
	if (argc + 1 > RW_DPDK_MAX_ARGS) {
		snprintf(err, n, "too many EAL options (%d at most)", RW_DPDK_MAX_ARGS - 1);
		return -1;
	}
	a->argc = 0;
	a->argv[a->argc++] = (char *)prog;
	for (int i = 0; i < argc; i++)
		a->argv[a->argc++] = argv[i];
	return 0;
}

int rw_dpdk_eal_start(struct rw_dpdk_args *a, char *err, size_t n)
{
	/* EAL's messages go to a buffer: on failure its last line is the
	 * reason, given in our one line; else they are dropped, as the tools
	 * print their own (a user's --log-level still applies to later ones). */
	char *logbuf = NULL;
	size_t loglen = 0;
	FILE *logf = open_memstream(&logbuf, &loglen);
	if (logf)
		rte_openlog_stream(logf);
	/* EAL also writes its fatal errors straight to stderr: hold that too
	 * while it starts (the reason is in the log buffer) */
	fflush(stderr);
	int saved_err = dup(STDERR_FILENO);
	FILE *hold = tmpfile();
	if (saved_err >= 0 && hold)
		dup2(fileno(hold), STDERR_FILENO);
	/* EAL parses with getopt: save the caller's state. rte_eal_init may
	 * reorder argv; a copy keeps a->argv as given. */
	char *argv[RW_DPDK_MAX_ARGS + 1];
	memcpy(argv, a->argv, (size_t)a->argc * sizeof(argv[0]));
	argv[a->argc] = NULL;
	int saved_optind = optind;
	optind = 1;
	int rc = rte_eal_init(a->argc, argv);
	int eal_errno = rte_errno;
	optind = saved_optind;
	fflush(stderr);
	if (saved_err >= 0) {
		dup2(saved_err, STDERR_FILENO);
		close(saved_err);
	}
	if (hold)
		fclose(hold);
	rte_openlog_stream(NULL);
	if (logf)
		fclose(logf);
	if (rc < 0) {
		char why[256] = "";
		/* the last non-empty line EAL wrote */
		for (char *line = logbuf ? strtok(logbuf, "\n") : NULL; line; line = strtok(NULL, "\n"))
			if (line[0])
				snprintf(why, sizeof(why), "%s", line);
		free(logbuf);
		snprintf(err, n,
			 "DPDK initialisation failed: %s (check the EAL options; on a machine without "
			 "hugepages pass --no-huge -m 512)",
			 why[0] ? why : rte_strerror(eal_errno));
		return -1;
	}
	free(logbuf);
	return 0;
}
