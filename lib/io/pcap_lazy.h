/* SPDX-License-Identifier: BSD-3-Clause */
/* libpcap, loaded on first use (dlopen), not at start-up.
 *
 * Debian's libpcap pulls in libdbus, libsystemd, libgcrypt, liblzma, libzstd,
 * liblz4, libcap and libgpg-error: mapping and relocating them cost about
 * 1.7 ms of every run on the project's machine (a VM where page faults are
 * dear), a third of the start-up of `rocewire-cap -r FILE --report`, which
 * reads regular files with pcapfile.c and never calls libpcap. Live capture,
 * BPF filters, -D, the libpcap reader of standard input and pipes, and the
 * link type names load it when they first call it.
 *
 * Every file that calls libpcap includes this header instead of
 * <pcap/pcap.h>. When CMake found libpcap's soname (CAP_PCAP_SONAME, a
 * public definition of rocewire_io), each libpcap function is a macro that
 * calls through a pointer looked up on the first call; otherwise the
 * program links libpcap as before. A function missing from CAP_PCAP_FUNCS
 * fails the link, not the run.
 *
 * Loading can fail (libpcap removed after the build): cap_pcap_ready()
 * says so as an error a caller can return; a call that loads it without
 * asking first ends in cap_pcap_fail, which the program sets to say it in
 * its own words and exit with its own status. */
#ifndef ROCEWIRE_CAP_PCAP_LAZY_H
#define ROCEWIRE_CAP_PCAP_LAZY_H

#include <stddef.h>
#include <pcap/pcap.h>

/* 0 when libpcap and every function of CAP_PCAP_FUNCS are there (always,
 * without lazy loading); -1 with one line in err. */
int cap_pcap_ready(char *err, size_t n);
/* Called with that line when a libpcap call finds it cannot load it; must
 * not return. Unset: the line on stderr and abort(). */
extern void (*cap_pcap_fail)(const char *line);

#ifdef CAP_PCAP_SONAME

#define CAP_PCAP_FUNCS(X)                                                                         \
	X(pcap_activate) X(pcap_breakloop) X(pcap_close) X(pcap_compile) X(pcap_create)           \
	X(pcap_datalink) X(pcap_datalink_name_to_val) X(pcap_datalink_val_to_description)          \
	X(pcap_datalink_val_to_name) X(pcap_dispatch) X(pcap_findalldevs)                          \
	X(pcap_fopen_offline_with_tstamp_precision) X(pcap_free_datalinks) X(pcap_freealldevs)     \
	X(pcap_freecode) X(pcap_get_selectable_fd) X(pcap_get_tstamp_precision) X(pcap_geterr)    \
	X(pcap_lib_version) X(pcap_list_datalinks) X(pcap_major_version) X(pcap_next_ex)          \
	X(pcap_offline_filter) X(pcap_open_dead) X(pcap_set_buffer_size) X(pcap_set_datalink)     \
	X(pcap_set_immediate_mode) X(pcap_set_promisc) X(pcap_set_snaplen) X(pcap_set_timeout)     \
	X(pcap_set_tstamp_precision) X(pcap_setfilter) X(pcap_setnonblock) X(pcap_snapshot)       \
	X(pcap_stats) X(pcap_statustostr) X(bpf_dump)

enum cap_pcap_fn {
#define CAP_PCAP_ENUM(n) CAP_PCAP_##n,
	CAP_PCAP_FUNCS(CAP_PCAP_ENUM)
#undef CAP_PCAP_ENUM
	CAP_PCAP_NFUNCS
};

/* The functions looked up so far (NULL: not yet). */
extern void *cap_pcap_fn[CAP_PCAP_NFUNCS];
/* Loads libpcap if needed and looks function i up; when either fails,
 * calls cap_pcap_fail. */
void *cap_pcap_load(enum cap_pcap_fn i);

static inline void *cap_pcap_get(enum cap_pcap_fn i)
{
	void *f = cap_pcap_fn[i];
	return f ? f : cap_pcap_load(i);
}

/* (The name inside its own macro is not expanded again: &n is libpcap's
 * declaration.) */
#define CAP_PCAP_CALL(n) (*(__typeof__(&n))cap_pcap_get(CAP_PCAP_##n))

#define pcap_activate CAP_PCAP_CALL(pcap_activate)
#define pcap_breakloop CAP_PCAP_CALL(pcap_breakloop)
#define pcap_close CAP_PCAP_CALL(pcap_close)
#define pcap_compile CAP_PCAP_CALL(pcap_compile)
#define pcap_create CAP_PCAP_CALL(pcap_create)
#define pcap_datalink CAP_PCAP_CALL(pcap_datalink)
#define pcap_datalink_name_to_val CAP_PCAP_CALL(pcap_datalink_name_to_val)
#define pcap_datalink_val_to_description CAP_PCAP_CALL(pcap_datalink_val_to_description)
#define pcap_datalink_val_to_name CAP_PCAP_CALL(pcap_datalink_val_to_name)
#define pcap_dispatch CAP_PCAP_CALL(pcap_dispatch)
#define pcap_findalldevs CAP_PCAP_CALL(pcap_findalldevs)
#define pcap_fopen_offline_with_tstamp_precision \
	CAP_PCAP_CALL(pcap_fopen_offline_with_tstamp_precision)
#define pcap_free_datalinks CAP_PCAP_CALL(pcap_free_datalinks)
#define pcap_freealldevs CAP_PCAP_CALL(pcap_freealldevs)
#define pcap_freecode CAP_PCAP_CALL(pcap_freecode)
#define pcap_get_selectable_fd CAP_PCAP_CALL(pcap_get_selectable_fd)
#define pcap_get_tstamp_precision CAP_PCAP_CALL(pcap_get_tstamp_precision)
#define pcap_geterr CAP_PCAP_CALL(pcap_geterr)
#define pcap_lib_version CAP_PCAP_CALL(pcap_lib_version)
#define pcap_list_datalinks CAP_PCAP_CALL(pcap_list_datalinks)
#define pcap_major_version CAP_PCAP_CALL(pcap_major_version)
#define pcap_next_ex CAP_PCAP_CALL(pcap_next_ex)
#define pcap_offline_filter CAP_PCAP_CALL(pcap_offline_filter)
#define pcap_open_dead CAP_PCAP_CALL(pcap_open_dead)
#define pcap_set_buffer_size CAP_PCAP_CALL(pcap_set_buffer_size)
#define pcap_set_datalink CAP_PCAP_CALL(pcap_set_datalink)
#define pcap_set_immediate_mode CAP_PCAP_CALL(pcap_set_immediate_mode)
#define pcap_set_promisc CAP_PCAP_CALL(pcap_set_promisc)
#define pcap_set_snaplen CAP_PCAP_CALL(pcap_set_snaplen)
#define pcap_set_timeout CAP_PCAP_CALL(pcap_set_timeout)
#define pcap_set_tstamp_precision CAP_PCAP_CALL(pcap_set_tstamp_precision)
#define pcap_setfilter CAP_PCAP_CALL(pcap_setfilter)
#define pcap_setnonblock CAP_PCAP_CALL(pcap_setnonblock)
#define pcap_snapshot CAP_PCAP_CALL(pcap_snapshot)
#define pcap_stats CAP_PCAP_CALL(pcap_stats)
#define pcap_statustostr CAP_PCAP_CALL(pcap_statustostr)
#define bpf_dump CAP_PCAP_CALL(bpf_dump)

#endif /* CAP_PCAP_SONAME */
#endif
