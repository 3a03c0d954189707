/* SPDX-License-Identifier: BSD-3-Clause */
/* The TCP exchange's line transport: timeouts, EOF, long lines, key/value
 * parsing, and a connect/accept round trip on the loopback address. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>
#include <time.h>
#include <cmocka.h>

#include "oob.h"

static void test_lines(void **state)
{
	(void)state;
	int sv[2];
	struct rwv_conn a, b;
	char line[64], why[200];

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	rwv_oob_wrap(sv[0], "peer-a", &a);
	rwv_oob_wrap(sv[1], "peer-b", &b);
	assert_int_equal(rwv_oob_send(&a, 1000, why, sizeof(why), "hello %d", 1), 0);
	assert_int_equal(write(sv[0], "two\r\nthr", 8), 8);
	assert_int_equal(rwv_oob_readline(&b, 1000, line, sizeof(line), why, sizeof(why)), 1);
	assert_string_equal(line, "hello 1");
	assert_int_equal(rwv_oob_readline(&b, 1000, line, sizeof(line), why, sizeof(why)), 1);
	assert_string_equal(line, "two");
	/* "thr" has no newline yet: a bounded wait, then a timeout. */
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(rwv_oob_readline(&b, 150, line, sizeof(line), why, sizeof(why)), -1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double el = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	assert_true(el >= 0.14 && el < 2.0);
	assert_non_null(strstr(why, "reading from peer-b"));
	assert_int_equal(write(sv[0], "ee\n", 3), 3);
	assert_int_equal(rwv_oob_readline(&b, 1000, line, sizeof(line), why, sizeof(why)), 1);
	assert_string_equal(line, "three");
	/* A line longer than the caller's buffer is an error, not a truncation. */
	assert_int_equal(rwv_oob_send(&a, 1000, why, sizeof(why), "%080d", 0), 0);
	assert_int_equal(rwv_oob_readline(&b, 1000, line, sizeof(line), why, sizeof(why)), -1);
	assert_non_null(strstr(why, "longer than"));
	rwv_oob_close(&b);
	rwv_oob_close(&a);

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	rwv_oob_wrap(sv[0], "a", &a);
	rwv_oob_wrap(sv[1], "b", &b);
	assert_int_equal(write(sv[0], "x\npartial", 9), 9);
	rwv_oob_close(&a);
	assert_int_equal(rwv_oob_readline(&b, 1000, line, sizeof(line), why, sizeof(why)), 1);
	assert_int_equal(rwv_oob_readline(&b, 1000, line, sizeof(line), why, sizeof(why)), -1);
	assert_non_null(strstr(why, "mid-line"));
	rwv_oob_close(&b);

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	rwv_oob_wrap(sv[1], "b", &b);
	close(sv[0]);
	assert_int_equal(rwv_oob_readline(&b, 1000, line, sizeof(line), why, sizeof(why)), 0);
	rwv_oob_close(&b);
}

static void test_kv(void **state)
{
	(void)state;
	char v[32];
	unsigned long long n;
	const char *l = "qp idx 3 qpn 0x11 gid ::ffff:1.2.3.4 psn 77";

	assert_int_equal(rwv_kv(l, "gid", v, sizeof(v)), 0);
	assert_string_equal(v, "::ffff:1.2.3.4");
	assert_int_equal(rwv_kv_u64(l, "qpn", &n), 0);
	assert_int_equal(n, 0x11);
	assert_int_equal(rwv_kv_u64(l, "idx", &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(rwv_kv_u64(l, "psn", &n), 0);
	assert_int_equal(n, 77);
	assert_int_equal(rwv_kv(l, "qp", v, sizeof(v)), -1);   /* the leading word is no key */
	assert_int_equal(rwv_kv(l, "3", v, sizeof(v)), -1);    /* values are not keys */
	assert_int_equal(rwv_kv(l, "rkey", v, sizeof(v)), -1);
	assert_int_equal(rwv_kv_u64(l, "gid", &n), -1);
	assert_int_equal(rwv_kv(l, "gid", v, 4), -1);          /* too long for the buffer */
}

static int free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = {.sin_family = AF_INET};
	socklen_t sl = sizeof(sa);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &sl), 0);
	close(fd);
	return ntohs(sa.sin_port);
}

static void test_loopback(void **state)
{
	(void)state;
	struct rwv_conn c, s;
	char why[300], line[64];
	int port = free_port();

	/* Nobody listens: refused, retried, and given up on within the bound. */
	assert_int_equal(rwv_oob_connect("127.0.0.1", port, 300, &c, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "cannot reach server 127.0.0.1 port"));
	assert_non_null(strstr(why, "refused"));

	int lfd = rwv_oob_listen("127.0.0.1", port, why, sizeof(why));
	assert_true(lfd >= 0);
	assert_int_equal(rwv_oob_accept(lfd, 100, &s, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no client connected"));
	assert_int_equal(rwv_oob_connect("127.0.0.1", port, 1000, &c, why, sizeof(why)), 0);
	assert_int_equal(rwv_oob_accept(lfd, 1000, &s, why, sizeof(why)), 0);
	assert_non_null(strstr(s.peer, "127.0.0.1:"));
	assert_int_equal(rwv_oob_send(&c, 1000, why, sizeof(why), "ping"), 0);
	assert_int_equal(rwv_oob_readline(&s, 1000, line, sizeof(line), why, sizeof(why)), 1);
	assert_string_equal(line, "ping");
	rwv_oob_close(&c);
	rwv_oob_close(&s);
	close(lfd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_kv),
		cmocka_unit_test(test_loopback),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
