/* SPDX-License-Identifier: BSD-3-Clause */
/* macctrl.h: MAC Control frames, ethertype 0x8808 (IEEE 802.3 clause 31).
 *   PAUSE (802.3 Annex 31B): opcode 0x0001, pause_time(16) in quanta of
 *   512 bit times.
 *   PFC (IEEE 802.1Qbb-2011 36.1.3, 802.3 Annex 31D): opcode 0x0101,
 *   priority_enable_vector(16: reserved octet, then e[7..0]),
 *   time[0..7] (16 bits each). */
#include "rw_test_util.h"

static void test_pause_known(void **state)
{
	(void)state;
	uint8_t b[4];
	rw_hex("0001 ffff", b, sizeof(b));
	struct rw_macctrl m;
	memset(&m, 0xAA, sizeof(m));
	assert_int_equal(rw_macctrl_decode(b, sizeof(b), &m), RW_OK);
	assert_int_equal(m.opcode, RW_MACCTRL_PAUSE);
	assert_int_equal(m.quanta[0], 0xffff);
	assert_int_equal(m.cev, 0);
	/* XON: pause_time 0. */
	rw_hex("0001 0000", b, sizeof(b));
	assert_int_equal(rw_macctrl_decode(b, sizeof(b), &m), RW_OK);
	assert_int_equal(m.quanta[0], 0);
	/* Padding after the body (the frame is padded to 60 bytes) is ignored. */
	uint8_t pad[46];
	memset(pad, 0, sizeof(pad));
	rw_hex("0001 1234", pad, 4);
	assert_int_equal(rw_macctrl_decode(pad, sizeof(pad), &m), RW_OK);
	assert_int_equal(m.quanta[0], 0x1234);
	for (size_t l = 0; l < 4; l++) {
		uint8_t *c = malloc(l ? l : 1);
		memcpy(c, b, l);
		assert_int_equal(rw_macctrl_decode(c, l, &m), RW_ERR_TRUNCATED);
		free(c);
	}
}

static void test_pfc_known(void **state)
{
	(void)state;
	/* Priorities 0 and 5 enabled (e[0], e[5]: 0x0021), time[0] = 0xffff,
	 * time[5] = 0x1234, others 0 (ignored when not enabled). */
	uint8_t b[20];
	rw_hex("0101 0021 ffff 0000 0000 0000 0000 1234 0000 0000", b, sizeof(b));
	struct rw_macctrl m;
	memset(&m, 0xAA, sizeof(m));
	assert_int_equal(rw_macctrl_decode(b, sizeof(b), &m), RW_OK);
	assert_int_equal(m.opcode, RW_MACCTRL_PFC);
	assert_int_equal(m.cev, 0x21);
	assert_int_equal(m.quanta[0], 0xffff);
	assert_int_equal(m.quanta[5], 0x1234);
	for (int p = 1; p < 8; p++)
		if (p != 5)
			assert_int_equal(m.quanta[p], 0);
	/* Each time[n] is at 4 + 2n: priority 7 last. */
	rw_hex("0101 0080 0000 0000 0000 0000 0000 0000 0000 0bad", b, sizeof(b));
	assert_int_equal(rw_macctrl_decode(b, sizeof(b), &m), RW_OK);
	assert_int_equal(m.cev, 0x80);
	assert_int_equal(m.quanta[7], 0x0bad);
	assert_int_equal(m.quanta[6], 0);
	for (size_t l = 0; l < sizeof(b); l++) {
		uint8_t *c = malloc(l ? l : 1);
		memcpy(c, b, l);
		assert_int_equal(rw_macctrl_decode(c, l, &m), RW_ERR_TRUNCATED);
		free(c);
	}
}

static void test_unsupported(void **state)
{
	(void)state;
	uint8_t b[20];
	memset(b, 0, sizeof(b));
	struct rw_macctrl m;
	/* 0x0002 GATE, 0x0003 REPORT (802.3 clause 64 MPCP), 0xffff. */
	const uint16_t ops[] = { 0x0000, 0x0002, 0x0003, 0x0100, 0x0102, 0xffff };
	for (size_t i = 0; i < RW_ARRAY_LEN(ops); i++) {
		rw_put_be16(b, ops[i]);
		assert_int_equal(rw_macctrl_decode(b, sizeof(b), &m), RW_ERR_UNSUPPORTED);
	}
}

static void test_roundtrip(void **state)
{
	(void)state;
	uint64_t s = 0x8808;
	for (int i = 0; i < 2000; i++) {
		struct rw_macctrl a, d;
		memset(&a, 0, sizeof(a));
		int pfc = (int)rw_randbits(&s, 1);
		size_t len;
		if (pfc) {
			a.opcode = RW_MACCTRL_PFC;
			a.cev = (uint16_t)rw_randbits(&s, 8);
			for (int p = 0; p < 8; p++)
				a.quanta[p] = (uint16_t)rw_rand64(&s);
			len = RW_PFC_LEN;
		} else {
			a.opcode = RW_MACCTRL_PAUSE;
			a.quanta[0] = (uint16_t)rw_rand64(&s);
			len = RW_PAUSE_LEN;
		}
		uint8_t buf[24];
		memset(buf, 0x5A, sizeof(buf));
		size_t w = 0;
		assert_int_equal(rw_macctrl_encode(&a, buf, sizeof(buf), &w), RW_OK);
		assert_int_equal(w, len);
		assert_int_equal(buf[len], 0x5A);
		assert_int_equal(rw_get_be16(buf), a.opcode);
		if (pfc) {
			assert_int_equal(rw_get_be16(buf + 2), a.cev);
			for (int p = 0; p < 8; p++)
				assert_int_equal(rw_get_be16(buf + 4 + 2 * p), a.quanta[p]);
		} else {
			assert_int_equal(rw_get_be16(buf + 2), a.quanta[0]);
		}
		assert_int_equal(rw_macctrl_decode(buf, w, &d), RW_OK);
		assert_int_equal(d.opcode, a.opcode);
		assert_int_equal(d.cev, a.cev);
		if (pfc)
			assert_memory_equal(d.quanta, a.quanta, sizeof(a.quanta));
		else
			assert_int_equal(d.quanta[0], a.quanta[0]);
		for (size_t cap = 0; cap < len; cap++)
			assert_int_equal(rw_macctrl_encode(&a, buf, cap, &w), RW_ERR_NOSPACE);
	}
}

static void test_quanta_ns(void **state)
{
	(void)state;
	/* One quantum is 512 bit times (802.3 31B.2): at 100 Gb/s a bit is
	 * 0.01 ns, so 0xffff quanta = 65535 * 5.12 ns = 335539.2 ns. */
	assert_true(rw_pause_quanta_ns(0xffff, 100.0) > 335539.19);
	assert_true(rw_pause_quanta_ns(0xffff, 100.0) < 335539.21);
	/* 1 quantum at 10 Gb/s = 51.2 ns. */
	assert_true(rw_pause_quanta_ns(1, 10.0) > 51.19 && rw_pause_quanta_ns(1, 10.0) < 51.21);
	assert_true(rw_pause_quanta_ns(0, 25.0) == 0.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pause_known),
		cmocka_unit_test(test_pfc_known),
		cmocka_unit_test(test_unsupported),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_quanta_ns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
