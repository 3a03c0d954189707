/* SPDX-License-Identifier: BSD-3-Clause */
/* Temporary files for -w and --html.
 *
 * rocewire-cap often runs as root and writes where it is told, /tmp
 * included. A fixed temporary name (FILE.part, FILE.tmp) opened with
 * fopen("w") follows a symlink planted there and truncates its target, and
 * a stale file of that name would be overwritten or would block the run.
 * So every temporary gets a name nobody can know in advance, and is
 * created with O_EXCL, which fails on any existing name, a symlink
 * included (POSIX open(2)), as mkstemp(3) does; unlike mkstemp the mode is
 * 0666 less the umask, as fopen() gives the final file. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tmpfile.h"

/* Names taken by someone else (or by us a moment ago) before giving up:
 * with 62^6 names, only a directory flooded on purpose gets there. */
#define TMP_ATTEMPTS 100

static void random_name(char out[6])
{
	static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	static uint64_t counter;
	unsigned char r[6];

	if (getentropy(r, sizeof(r)) != 0) {
		/* No getrandom(2) (old kernel, seccomp): unpredictable enough
		 * for O_EXCL to do the rest. */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t x = (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 20 ^
			     (uint64_t)getpid() << 40 ^ ++counter * 0x9E3779B97F4A7C15u;
		for (size_t i = 0; i < sizeof(r); i++, x >>= 8)
			r[i] = (unsigned char)x;
	}
	for (size_t i = 0; i < sizeof(r); i++)
		out[i] = set[r[i] % (sizeof(set) - 1)];
}

FILE *cap_create_temp(const char *final_path, const char *suffix, char **tmp_path_out)
{
	size_t n = strlen(final_path), sn = strlen(suffix);
	char *tmp = malloc(n + 1 + 6 + sn + 1);

	*tmp_path_out = NULL;
	if (!tmp)
		return NULL;
	memcpy(tmp, final_path, n);
	tmp[n] = '.';
	memcpy(tmp + n + 7, suffix, sn + 1);
	for (int i = 0; i < TMP_ATTEMPTS; i++) {
		random_name(tmp + n + 1);
		int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0 && errno == EEXIST)
			continue;
		if (fd < 0)
			break;
		FILE *fp = fdopen(fd, "wb");
		if (!fp) {
			int e = errno;
			close(fd);
			unlink(tmp);
			errno = e;
			break;
		}
		*tmp_path_out = tmp;
		return fp;
	}
	int e = errno;
	free(tmp);
	errno = e;
	return NULL;
}
