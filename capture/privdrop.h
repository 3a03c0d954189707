/* SPDX-License-Identifier: BSD-3-Clause */
/* -Z USER: rocewire-cap gives up root for USER once its capture (socket and
 * ring, RDMA sniffer flow, DPDK port) and its -w file are open, before the
 * first packet is decoded, as tcpdump's -Z does (its droproot()). */
#ifndef ROCEWIRE_CAP_PRIVDROP_H
#define ROCEWIRE_CAP_PRIVDROP_H

#include <stddef.h>
#include <sys/types.h>

#define CAP_DROP_MAX_GROUPS 256

/* Who to become: looked up once, before anything is opened. */
struct cap_drop_user {
	char name[256];
	uid_t uid;
	gid_t gid;
	int ngroups;            /* supplementary groups, the primary one included */
	gid_t groups[CAP_DROP_MAX_GROUPS];
};

/* What -Z asks of a process running as (ruid, euid). */
enum cap_drop_plan {
	CAP_DROP_SWITCH,        /* root: change to the user */
	CAP_DROP_NOTHING,       /* already the user (or -Z root as root): nothing to do */
	CAP_DROP_NOT_ROOT,      /* another user: only root can change to it */
};

/* Pure: the decision, for the unit tests. */
enum cap_drop_plan cap_drop_plan(uid_t ruid, uid_t euid, uid_t target);

/* The user's uid, gid and groups (getpwnam, getgrouplist); 0, or -1 with one
 * line in err. */
int cap_drop_lookup(const char *user, struct cap_drop_user *u, char *err, size_t cap);

/* Whether u may create (and so rename) files in dir: a child process drops
 * to u and creates and removes a probe file there; the caller keeps its
 * privileges. 0; -1 when u cannot, with the reason in err (strerror's
 * words); -2 when the child could not change to u (one line in err). */
int cap_drop_probe_dir(const struct cap_drop_user *u, const char *dir, char *err, size_t cap);

/* Changes this process to u for good: setgroups, setgid, setuid, each
 * checked; then checks that the real, effective and saved ids are u's and
 * that setuid(0) fails. 0, or -1 with one line in err. */
int cap_drop_to(const struct cap_drop_user *u, char *err, size_t cap);

/* The folder a file is created in ("." when name has no '/'), into buf. */
const char *cap_drop_dir_of(const char *name, char *buf, size_t cap);

#endif
