/* SPDX-License-Identifier: BSD-3-Clause */
/* The out-of-band TCP exchange: lines of text, each read bounded by a timeout,
 * so that a vanished or silent peer ends the run with a message instead of a
 * hang. The protocol itself (which lines, in which order) is in endpoint.c and
 * README.md ("Exchange"). */
#ifndef RWV_OOB_H
#define RWV_OOB_H

#include <signal.h>
#include <stddef.h>

/* Set by the SIGINT/SIGTERM handler; every wait here gives up when it is set. */
extern volatile sig_atomic_t rwv_stop_requested;

struct rwv_conn {
	int fd;
	size_t len;        /* bytes buffered in buf */
	char buf[8192];
	char peer[80];     /* "192.168.1.2:18515" */
};

/* Server: listens on bind (NULL: every address, IPv6 and IPv4) and port.
 * Returns the listening fd, or -1 with why. */
int rwv_oob_listen(const char *bind, int port, char *why, size_t whylen);
/* Waits up to timeout_ms for one client. Returns 0, or -1 with why. */
int rwv_oob_accept(int lfd, int timeout_ms, struct rwv_conn *c, char *why, size_t whylen);
/* Client: connects to host:port, retrying a refused connection (the server
 * may not be listening yet) until timeout_ms has passed. Returns 0 or -1. */
int rwv_oob_connect(const char *host, int port, int timeout_ms, struct rwv_conn *c,
		    char *why, size_t whylen);
/* Wraps a connected socket (tests use a socketpair). */
void rwv_oob_wrap(int fd, const char *peer, struct rwv_conn *c);
void rwv_oob_close(struct rwv_conn *c);

/* Sends one line (the newline is added). Returns 0 or -1 with why. */
int rwv_oob_send(struct rwv_conn *c, int timeout_ms, char *why, size_t whylen,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Reads one line without its newline: 1 a line, 0 the peer closed, -1 a
 * timeout, an error or an over-long line (why says which). */
int rwv_oob_readline(struct rwv_conn *c, int timeout_ms, char *line, size_t len,
		     char *why, size_t whylen);
/* Returns 1 when a line (or EOF) can be read without waiting, else 0. */
int rwv_oob_ready(struct rwv_conn *c);

/* Lines are "word key value key value ...": copies the value after key into
 * val and returns 0, or returns -1 when key is not there. */
int rwv_kv(const char *line, const char *key, char *val, size_t len);
/* The same for an unsigned number (decimal or 0x hex). */
int rwv_kv_u64(const char *line, const char *key, unsigned long long *v);

#endif
