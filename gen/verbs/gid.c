/* SPDX-License-Identifier: BSD-3-Clause */
/* GID text forms and the sysfs GID pick; see gid.h. */
#include "gid.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

int rwv_gid_parse(const char *text, uint8_t gid[16])
{
	struct in_addr a4;

	if (inet_pton(AF_INET6, text, gid) == 1)
		return 0;
	if (inet_pton(AF_INET, text, &a4) == 1) {
		memset(gid, 0, 10);
		gid[10] = 0xff;
		gid[11] = 0xff;
		memcpy(gid + 12, &a4.s_addr, 4);
		return 0;
	}
	return -1;
}

void rwv_gid_format(const uint8_t gid[16], char *buf, size_t len)
{
	if (!inet_ntop(AF_INET6, gid, buf, (socklen_t)len))
		snprintf(buf, len, "?");
}

bool rwv_gid_is_zero(const uint8_t gid[16])
{
	for (int i = 0; i < 16; i++)
		if (gid[i])
			return false;
	return true;
}

bool rwv_gid_is_v4mapped(const uint8_t gid[16])
{
	static const uint8_t prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
	return memcmp(gid, prefix, sizeof(prefix)) == 0;
}

/* Reads a one-line sysfs file without its newline. Returns 0, or -errno. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		/* gid_attrs/types/N of an empty entry fails to read with EINVAL. */
		int e = ferror(f) ? errno : 0;
		fclose(f);
		buf[0] = '\0';
		return e ? -e : 0;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

void rwv_link_layer(const char *root, const char *dev, int port, char *buf, size_t len)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s/ports/%d/link_layer", root, dev, port);
	if (read_line(path, buf, len))
		buf[0] = '\0';
}

int rwv_gid_read(const char *root, const char *dev, int port, int index,
		 struct rwv_gid_entry *out, char *why, size_t whylen)
{
	char path[512], line[128];
	int r;

	memset(out, 0, sizeof(*out));
	out->index = index;
	snprintf(path, sizeof(path), "%s/%s/ports/%d/gids/%d", root, dev, port, index);
	r = read_line(path, line, sizeof(line));
	if (r) {
		snprintf(why, whylen, "cannot read %s: %s", path, strerror(-r));
		return -1;
	}
	if (rwv_gid_parse(line, out->gid)) {
		snprintf(why, whylen, "%s holds '%s', not a GID", path, line);
		return -1;
	}
	rwv_gid_format(out->gid, out->text, sizeof(out->text));
	if (rwv_gid_is_zero(out->gid))
		return 1;
	snprintf(path, sizeof(path), "%s/%s/ports/%d/gid_attrs/types/%d", root, dev, port, index);
	if (read_line(path, out->type, sizeof(out->type)))
		out->type[0] = '\0';
	return 0;
}

int rwv_gid_pick(const char *root, const char *dev, int port,
		 struct rwv_gid_entry *out, char *why, size_t whylen)
{
	char ll[32], seen[256] = "", base[400];
	struct rwv_gid_entry e;
	int nseen = 0, r;

	snprintf(base, sizeof(base), "%s/%s/ports/%d", root, dev, port);
	rwv_link_layer(root, dev, port, ll, sizeof(ll));
	if (strcmp(ll, "InfiniBand") == 0) {
		r = rwv_gid_read(root, dev, port, 0, out, why, whylen);
		if (r == 1)
			snprintf(why, whylen, "GID index 0 of %s port %d is empty (%s/gids/0)", dev,
				 port, base);
		return r == 0 ? 0 : -1;
	}
	for (int i = 0;; i++) {
		r = rwv_gid_read(root, dev, port, i, &e, why, whylen);
		if (r < 0) {
			if (i == 0)
				return -1; /* why says which file */
			break;         /* past the end of the table */
		}
		if (r == 1)
			continue;
		if (strcmp(e.type, "RoCE v2") == 0 && rwv_gid_is_v4mapped(e.gid)) {
			*out = e;
			return 0;
		}
		if (nseen < 4) {
			size_t l = strlen(seen);
			snprintf(seen + l, sizeof(seen) - l, "%s[%d] %s (%s)", nseen ? ", " : "", i,
				 e.text, e.type[0] ? e.type : "type unknown");
		}
		nseen++;
	}
	snprintf(why, whylen, "no RoCE v2 IPv4-mapped GID on %s port %d (%s/gids: %s); give "
		 "the netdev an IPv4 address or choose one with --gid-index", dev, port, base,
		 nseen ? seen : "every entry empty");
	return -1;
}
