/* SPDX-License-Identifier: BSD-3-Clause */
/* Runs a libFuzzer target's entry point over files and folders of inputs,
 * without libFuzzer: the regression replay for builds with any compiler. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long replayed;

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "fuzz-replay: %s: %s\n", path, strerror(errno));
		return 1;
	}
	size_t cap = 1 << 16, len = 0;
	uint8_t *buf = malloc(cap);
	size_t n;
	while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			uint8_t *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	int bad = ferror(f) || !buf;
	fclose(f);
	if (bad) {
		fprintf(stderr, "fuzz-replay: %s: read failed\n", path);
		free(buf);
		return 1;
	}
	/* An exact-size copy, so that a read past the input is caught by ASan. */
	uint8_t *exact = malloc(len ? len : 1);
	if (!exact) {
		free(buf);
		return 1;
	}
	memcpy(exact, buf, len);
	free(buf);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	replayed++;
	return 0;
}

static int replay(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		fprintf(stderr, "fuzz-replay: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (!S_ISDIR(st.st_mode))
		return replay_file(path);
	DIR *d = opendir(path);
	if (!d) {
		fprintf(stderr, "fuzz-replay: %s: %s\n", path, strerror(errno));
		return 1;
	}
	int rc = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name);
		/* Skip dot files and the folder's README. */
		if (e->d_name[0] == '.' || (l > 3 && strcmp(e->d_name + l - 3, ".md") == 0))
			continue;
		char sub[4096];
		if ((size_t)snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) >= sizeof sub)
			continue;
		rc |= replay(sub);
	}
	closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	int rc = 0;
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++)
		rc |= replay(argv[i]);
	printf("%s: %lu inputs replayed without a crash\n", argv[0], replayed);
	return rc;
}
