/* SPDX-License-Identifier: BSD-3-Clause */
/* -Z USER: giving up root (privdrop.h). The order is tcpdump's droproot():
 * the groups first (setgroups needs root), then the gid, then the uid; a
 * setuid() by root sets the real, effective and saved uids, so none is left
 * to go back to, and that is checked rather than assumed (a process without
 * CAP_SETUID, e.g. in a user namespace, may have changed only some). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "privdrop.h"

enum cap_drop_plan cap_drop_plan(uid_t ruid, uid_t euid, uid_t target)
{
	if (ruid == target && euid == target)
		return CAP_DROP_NOTHING;
	if (ruid == 0 || euid == 0)
		return CAP_DROP_SWITCH;
	return CAP_DROP_NOT_ROOT;
}

int cap_drop_lookup(const char *user, struct cap_drop_user *u, char *err, size_t cap)
{
	memset(u, 0, sizeof(*u));
	errno = 0;
	struct passwd *pw = getpwnam(user);
	if (!pw) {
		if (errno && errno != ENOENT && errno != ESRCH)
			snprintf(err, cap, "cannot look up user '%s': %s", user, strerror(errno));
		else
			snprintf(err, cap, "no user named '%s' on this system", user);
		return -1;
	}
	snprintf(u->name, sizeof(u->name), "%s", pw->pw_name);
	u->uid = pw->pw_uid;
	u->gid = pw->pw_gid;
	/* getgrouplist rather than initgroups: the list is read now, in one
	 * thread, so that the child of cap_drop_probe_dir (forked from a
	 * process that may run DPDK's threads) and the drop itself only make
	 * system calls */
	int n = CAP_DROP_MAX_GROUPS;
	if (getgrouplist(u->name, u->gid, u->groups, &n) < 0) {
		snprintf(err, cap, "user '%s' is in more than %d groups", user, CAP_DROP_MAX_GROUPS);
		return -1;
	}
	u->ngroups = n;
	return 0;
}

/* The drop's steps: 0, or the number of the one that failed (errno says
 * why), an index of step_names. */
static const char *const step_names[] = {"", "setgroups", "setgid", "setuid"};

static int drop_steps(const struct cap_drop_user *u)
{
	if (setgroups((size_t)u->ngroups, u->groups) != 0)
		return 1;
	if (setgid(u->gid) != 0)
		return 2;
	if (setuid(u->uid) != 0)
		return 3;
	return 0;
}

const char *cap_drop_dir_of(const char *name, char *buf, size_t cap)
{
	const char *slash = strrchr(name, '/');
	if (!slash)
		snprintf(buf, cap, ".");
	else if (slash == name)
		snprintf(buf, cap, "/");
	else
		snprintf(buf, cap, "%.*s", (int)(slash - name), name);
	return buf;
}

int cap_drop_probe_dir(const struct cap_drop_user *u, const char *dir, char *err, size_t cap)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0) {
		snprintf(err, cap, "%s", strerror(errno));
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, cap, "%s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		/* the child: system calls only, then _exit */
		int e = 0, step;
		char probe[4200];
		close(fds[0]);
		if ((step = drop_steps(u)) != 0) {
			e = errno;
		} else {
			snprintf(probe, sizeof(probe), "%s/.rocewire-cap-Z.%ld", dir, (long)getpid());
			int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
			if (fd < 0) {
				e = errno;
			} else {
				close(fd);
				if (unlink(probe) != 0)
					e = errno;
			}
		}
		/* which step failed: 0 the probe file, else the drop's */
		int msg[2] = {step, e};
		ssize_t wr = write(fds[1], msg, sizeof(msg));
		(void)wr;
		_exit(0);
	}
	close(fds[1]);
	int msg[2] = {0, 0}, st;
	ssize_t n;
	do
		n = read(fds[0], msg, sizeof(msg));
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (n != (ssize_t)sizeof(msg)) {
		snprintf(err, cap, "the probe process failed");
		return -1;
	}
	if (msg[0] > 0 && msg[0] <= 3) {
		snprintf(err, cap, "cannot change to user %s (uid %ld, gid %ld): %s: %s", u->name, (long)u->uid,
			 (long)u->gid, step_names[msg[0]], strerror(msg[1]));
		return -2;
	}
	if (msg[1] != 0) {
		snprintf(err, cap, "%s", strerror(msg[1]));
		return -1;
	}
	return 0;
}

int cap_drop_to(const struct cap_drop_user *u, char *err, size_t cap)
{
	uid_t r, e, s;
	gid_t rg, eg, sg;
	int step = drop_steps(u);

	if (step != 0) {
		snprintf(err, cap, "cannot change to user %s (uid %ld, gid %ld): %s: %s", u->name, (long)u->uid,
			 (long)u->gid, step_names[step], strerror(errno));
		return -1;
	}
	if (getresuid(&r, &e, &s) != 0 || getresgid(&rg, &eg, &sg) != 0 || r != u->uid || e != u->uid ||
	    s != u->uid || rg != u->gid || eg != u->gid || sg != u->gid) {
		snprintf(err, cap, "changed to user %s, but the process's ids are not all its own", u->name);
		return -1;
	}
	if (u->uid != 0 && setuid(0) == 0) {
		snprintf(err, cap, "changed to user %s, but setuid(0) still succeeds: the change is not for good",
			 u->name);
		return -1;
	}
	return 0;
}
