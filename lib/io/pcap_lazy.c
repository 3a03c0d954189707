/* SPDX-License-Identifier: BSD-3-Clause */
/* See pcap_lazy.h. (This file calls no libpcap function: it looks them up
 * by name.) */
#include <stdio.h>
#include <stdlib.h>

#include "pcap_lazy.h"

void (*cap_pcap_fail)(const char *line);

#ifndef CAP_PCAP_SONAME
int cap_pcap_ready(char *err, size_t n)
{
	(void)err;
	(void)n;
	return 0;
}
#else
#include <dlfcn.h>

void *cap_pcap_fn[CAP_PCAP_NFUNCS];

static const char *const names[] = {
#define CAP_PCAP_NAME(n) #n,
	CAP_PCAP_FUNCS(CAP_PCAP_NAME)
#undef CAP_PCAP_NAME
};
_Static_assert(sizeof(names) / sizeof(names[0]) == CAP_PCAP_NFUNCS, "names: one entry per value");

/* Only the main thread calls libpcap (the reader thread of the tools'
 * pipelines reads with pcapfile.c alone): no lock. */
int cap_pcap_ready(char *err, size_t n)
{
	static void *lib;
	if (!lib) {
		lib = dlopen(CAP_PCAP_SONAME, RTLD_NOW | RTLD_LOCAL);
		if (!lib) {
			snprintf(err, n, "cannot load libpcap: %s", dlerror());
			return -1;
		}
	}
	for (int i = 0; i < CAP_PCAP_NFUNCS; i++) {
		if (cap_pcap_fn[i])
			continue;
		void *f = dlsym(lib, names[i]);
		if (!f) {
			snprintf(err, n, "%s has no %s: %s", CAP_PCAP_SONAME, names[i], dlerror());
			return -1;
		}
		cap_pcap_fn[i] = f;
	}
	return 0;
}

void *cap_pcap_load(enum cap_pcap_fn i)
{
	char err[512];
	if (cap_pcap_ready(err, sizeof(err)) != 0) {
		if (cap_pcap_fail)
			cap_pcap_fail(err);
		fprintf(stderr, "%s\n", err);
		abort();
	}
	return cap_pcap_fn[i];
}
#endif
