/* SPDX-License-Identifier: BSD-3-Clause */
/* See pcap_lazy.h. (This file calls no libpcap function: it looks them up
 * by name.) */
#include "cap.h"

#ifdef CAP_PCAP_SONAME
#include <dlfcn.h>
#include <stdlib.h>

void *cap_pcap_fn[CAP_PCAP_NFUNCS];

static const char *const names[CAP_PCAP_NFUNCS] = {
#define CAP_PCAP_NAME(n) #n,
	CAP_PCAP_FUNCS(CAP_PCAP_NAME)
#undef CAP_PCAP_NAME
};

/* Only the main thread calls libpcap (the reader thread of pipeline.c reads
 * with pcapfile.c alone): no lock. */
void *cap_pcap_load(enum cap_pcap_fn i)
{
	static void *lib;
	if (!lib) {
		lib = dlopen(CAP_PCAP_SONAME, RTLD_NOW | RTLD_LOCAL);
		if (!lib) {
			fprintf(stderr, "rocewire-cap: cannot load libpcap: %s\n", dlerror());
			exit(CAP_EXIT_USAGE);
		}
	}
	void *f = dlsym(lib, names[i]);
	if (!f) {
		fprintf(stderr, "rocewire-cap: %s has no %s: %s\n", CAP_PCAP_SONAME, names[i],
			dlerror());
		exit(CAP_EXIT_USAGE);
	}
	return cap_pcap_fn[i] = f;
}
#endif
