/* Read-ahead for offline captures: a thread moves the file's bytes from the
 * kernel into a ring of large slots while the main thread decodes, and
 * libpcap reads the ring through a stdio cookie stream. The page-cache copy
 * (a third of the single-threaded time on large files) then runs on the
 * other core, and libpcap stays the only pcap/pcapng parser. */
#ifndef ROCEWIRE_CAP_PREFETCH_H
#define ROCEWIRE_CAP_PREFETCH_H

#include <stdio.h>

struct cap_prefetch;

/* Files smaller than this are read directly: a thread is not worth it. */
#define CAP_PREFETCH_MIN (8L << 20)

/* Opens path for reading through a read-ahead thread. Returns a FILE whose
 * ftell answers without a system call (fseek is not supported); NULL with
 * errno on failure. The FILE must
 * be closed with cap_prefetch_close (fclose alone would not join the
 * thread). */
FILE *cap_prefetch_open(const char *path, struct cap_prefetch **pf);
/* Stops the thread and frees everything; the FILE is closed too unless
 * closed_by_caller is set (libpcap's pcap_close closes the FILE it was
 * given). */
void cap_prefetch_close(struct cap_prefetch *pf, FILE *fp, int closed_by_caller);

#endif
