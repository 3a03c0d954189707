/* SPDX-License-Identifier: BSD-3-Clause */
/* GID text forms and the sysfs GID pick, against fake sysfs trees laid out as
 * the kernel's ib_core lays them out (drivers/infiniband/core/sysfs.c:
 * ports/N/gids/I holds the GID as eight colon-separated 16-bit hex groups,
 * ports/N/gid_attrs/types/I "RoCE v2" or "IB/RoCE v1"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "gid.h"

static char root[256];

static void put(const char *rel, const char *text)
{
	char path[512], dir[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	/* mkdir -p of the parent */
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + strlen(root) + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(dir, 0755);
			*p = '/';
		}
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/rwv-gid-XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static const char *zero = "0000:0000:0000:0000:0000:0000:0000:0000";

static void test_parse_format(void **state)
{
	(void)state;
	uint8_t g[16];
	char t[64];
	static const uint8_t v4[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 168, 1, 2};

	assert_int_equal(rwv_gid_parse("192.168.1.2", g), 0);
	assert_memory_equal(g, v4, 16);
	assert_true(rwv_gid_is_v4mapped(g));
	rwv_gid_format(g, t, sizeof(t));
	assert_string_equal(t, "::ffff:192.168.1.2");
	assert_int_equal(rwv_gid_parse("0000:0000:0000:0000:0000:ffff:c0a8:0102", g), 0);
	assert_memory_equal(g, v4, 16);
	assert_int_equal(rwv_gid_parse("fe80:0000:0000:0000:5054:00ff:fe12:3456", g), 0);
	assert_false(rwv_gid_is_v4mapped(g));
	rwv_gid_format(g, t, sizeof(t));
	assert_string_equal(t, "fe80::5054:ff:fe12:3456");
	assert_int_equal(rwv_gid_parse(zero, g), 0);
	assert_true(rwv_gid_is_zero(g));
	assert_int_equal(rwv_gid_parse("not-a-gid", g), -1);
}

static void test_pick_rxe(void **state)
{
	(void)state;
	struct rwv_gid_entry e;
	char why[400];

	/* Soft-RoCE: only RoCE v2 entries, [0] link-local, [1] IPv4-mapped. */
	put("rxe0/ports/1/link_layer", "Ethernet");
	put("rxe0/ports/1/gids/0", "fe80:0000:0000:0000:0000:00ff:fe00:0001");
	put("rxe0/ports/1/gid_attrs/types/0", "RoCE v2");
	put("rxe0/ports/1/gids/1", "0000:0000:0000:0000:0000:ffff:c0a8:0101");
	put("rxe0/ports/1/gid_attrs/types/1", "RoCE v2");
	put("rxe0/ports/1/gids/2", zero);
	assert_int_equal(rwv_gid_pick(root, "rxe0", 1, &e, why, sizeof(why)), 0);
	assert_int_equal(e.index, 1);
	assert_string_equal(e.text, "::ffff:192.168.1.1");
	assert_string_equal(e.type, "RoCE v2");
	assert_int_equal(rwv_gid_read(root, "rxe0", 1, 2, &e, why, sizeof(why)), 1);
}

static void test_pick_v1_and_v2(void **state)
{
	(void)state;
	struct rwv_gid_entry e;
	char why[400];

	/* A NIC that lists each address twice, RoCE v1 then v2. */
	put("mlx5_0/ports/1/link_layer", "Ethernet");
	put("mlx5_0/ports/1/gids/0", "fe80:0000:0000:0000:0202:c9ff:fe00:0001");
	put("mlx5_0/ports/1/gid_attrs/types/0", "IB/RoCE v1");
	put("mlx5_0/ports/1/gids/1", "fe80:0000:0000:0000:0202:c9ff:fe00:0001");
	put("mlx5_0/ports/1/gid_attrs/types/1", "RoCE v2");
	put("mlx5_0/ports/1/gids/2", "0000:0000:0000:0000:0000:ffff:0a00:0001");
	put("mlx5_0/ports/1/gid_attrs/types/2", "IB/RoCE v1");
	put("mlx5_0/ports/1/gids/3", "0000:0000:0000:0000:0000:ffff:0a00:0001");
	put("mlx5_0/ports/1/gid_attrs/types/3", "RoCE v2");
	assert_int_equal(rwv_gid_pick(root, "mlx5_0", 1, &e, why, sizeof(why)), 0);
	assert_int_equal(e.index, 3);
	assert_string_equal(e.text, "::ffff:10.0.0.1");
}

static void test_pick_none(void **state)
{
	(void)state;
	struct rwv_gid_entry e;
	char why[400];

	put("rxe1/ports/1/link_layer", "Ethernet");
	put("rxe1/ports/1/gids/0", "fe80:0000:0000:0000:0000:00ff:fe00:0002");
	put("rxe1/ports/1/gid_attrs/types/0", "RoCE v2");
	put("rxe1/ports/1/gids/1", zero);
	assert_int_equal(rwv_gid_pick(root, "rxe1", 1, &e, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no RoCE v2 IPv4-mapped GID on rxe1 port 1"));
	assert_non_null(strstr(why, "[0] fe80::ff:fe00:2 (RoCE v2)"));
	assert_non_null(strstr(why, "--gid-index"));

	assert_int_equal(rwv_gid_pick(root, "nodev", 1, &e, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "cannot read"));
	assert_non_null(strstr(why, "nodev/ports/1/gids/0"));
}

static void test_pick_infiniband(void **state)
{
	(void)state;
	struct rwv_gid_entry e;
	char why[400];

	put("mlx4_0/ports/1/link_layer", "InfiniBand");
	put("mlx4_0/ports/1/gids/0", "fe80:0000:0000:0000:0002:c903:0000:0001");
	assert_int_equal(rwv_gid_pick(root, "mlx4_0", 1, &e, why, sizeof(why)), 0);
	assert_int_equal(e.index, 0);
	char ll[32];
	rwv_link_layer(root, "mlx4_0", 1, ll, sizeof(ll));
	assert_string_equal(ll, "InfiniBand");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_format),
		cmocka_unit_test(test_pick_rxe),
		cmocka_unit_test(test_pick_v1_and_v2),
		cmocka_unit_test(test_pick_none),
		cmocka_unit_test(test_pick_infiniband),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
