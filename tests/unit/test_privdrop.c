/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-cap -Z (capture/privdrop.c): what -Z asks of each kind of
 * process, the user's look-up, and the folder a file name is created in.
 * The drop itself needs root: tests/e2e/test_live_drop.sh. */
#include "rw_test_util.h"
#include "privdrop.h"

static void test_plan(void **state)
{
	(void)state;
	/* root (real or effective) changes to another user */
	assert_int_equal(cap_drop_plan(0, 0, 65534), CAP_DROP_SWITCH);
	assert_int_equal(cap_drop_plan(1000, 0, 65534), CAP_DROP_SWITCH); /* set-uid root */
	assert_int_equal(cap_drop_plan(0, 1000, 65534), CAP_DROP_SWITCH);
	/* already the user: nothing to do, as root asking for root */
	assert_int_equal(cap_drop_plan(65534, 65534, 65534), CAP_DROP_NOTHING);
	assert_int_equal(cap_drop_plan(0, 0, 0), CAP_DROP_NOTHING);
	/* another user cannot change to a third one, nor back to root */
	assert_int_equal(cap_drop_plan(1000, 1000, 65534), CAP_DROP_NOT_ROOT);
	assert_int_equal(cap_drop_plan(1000, 1000, 0), CAP_DROP_NOT_ROOT);
	assert_int_equal(cap_drop_plan(1000, 65534, 65534), CAP_DROP_NOT_ROOT);
}

static void test_lookup(void **state)
{
	(void)state;
	static struct cap_drop_user u;
	char err[256];
	assert_int_equal(cap_drop_lookup("root", &u, err, sizeof(err)), 0);
	assert_string_equal(u.name, "root");
	assert_int_equal(u.uid, 0);
	assert_int_equal(u.gid, 0);
	assert_true(u.ngroups >= 1);
	int primary = 0;
	for (int i = 0; i < u.ngroups; i++)
		primary |= u.groups[i] == u.gid;
	assert_true(primary); /* getgrouplist puts the primary group in */

	assert_int_equal(cap_drop_lookup("no-such-user-rw", &u, err, sizeof(err)), -1);
	assert_string_equal(err, "no user named 'no-such-user-rw' on this system");
}

static void test_dir_of(void **state)
{
	(void)state;
	char b[64];
	assert_string_equal(cap_drop_dir_of("x.pcap", b, sizeof(b)), ".");
	assert_string_equal(cap_drop_dir_of("/x.pcap", b, sizeof(b)), "/");
	assert_string_equal(cap_drop_dir_of("/var/cap/x.pcap", b, sizeof(b)), "/var/cap");
	assert_string_equal(cap_drop_dir_of("d/t-%H%M%S.pcapng", b, sizeof(b)), "d");
	assert_string_equal(cap_drop_dir_of("a/b/", b, sizeof(b)), "a/b");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_dir_of),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
