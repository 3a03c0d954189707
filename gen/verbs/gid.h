/* SPDX-License-Identifier: BSD-3-Clause */
/* GIDs: text forms, and picking the port's RoCE v2 IPv4-mapped GID from sysfs
 * (/sys/class/infiniband/DEV/ports/PORT/gids/N and gid_attrs/types/N), the way
 * a person would with `show_gids`. The sysfs root is a parameter so that the
 * tests run against a fake tree. */
#ifndef RWV_GID_H
#define RWV_GID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RWV_SYSFS_IB "/sys/class/infiniband"

struct rwv_gid_entry {
	int index;
	uint8_t gid[16];
	char text[64];   /* inet_ntop form, e.g. ::ffff:192.168.1.1 */
	char type[32];   /* "RoCE v2", "IB/RoCE v1", "" when sysfs does not say */
};

/* Parses IPv6 text (also sysfs's fe80:0000:...) or an IPv4 address, which
 * becomes the IPv4-mapped GID ::ffff:a.b.c.d. Returns 0 or -1. */
int rwv_gid_parse(const char *text, uint8_t gid[16]);
void rwv_gid_format(const uint8_t gid[16], char *buf, size_t len);
bool rwv_gid_is_zero(const uint8_t gid[16]);
bool rwv_gid_is_v4mapped(const uint8_t gid[16]);

/* Reads entry index of the port: 0 when present and non-zero, 1 when the
 * entry is empty, -1 when it cannot be read (why says which file). */
int rwv_gid_read(const char *root, const char *dev, int port, int index,
		 struct rwv_gid_entry *out, char *why, size_t whylen);

/* Picks the source GID: on Ethernet the first "RoCE v2" entry holding an
 * IPv4-mapped address, on InfiniBand index 0. Returns 0, or -1 with a one-line
 * reason (listing what the port has) in why. */
int rwv_gid_pick(const char *root, const char *dev, int port,
		 struct rwv_gid_entry *out, char *why, size_t whylen);

/* Reads ports/PORT/link_layer ("Ethernet", "InfiniBand"); "" if unreadable. */
void rwv_link_layer(const char *root, const char *dev, int port, char *buf, size_t len);

#endif
