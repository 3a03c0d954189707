/* SPDX-License-Identifier: BSD-3-Clause */
/* Out-of-band TCP exchange; see oob.h. */
#include "oob.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t rwv_stop_requested;

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sa_text(const struct sockaddr *sa, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN] = "?";
	int port = 0;
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *s = (const struct sockaddr_in *)sa;
		inet_ntop(AF_INET, &s->sin_addr, host, sizeof(host));
		port = ntohs(s->sin_port);
		snprintf(buf, len, "%s:%d", host, port);
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *s = (const struct sockaddr_in6 *)sa;
		inet_ntop(AF_INET6, &s->sin6_addr, host, sizeof(host));
		port = ntohs(s->sin6_port);
		if (IN6_IS_ADDR_V4MAPPED(&s->sin6_addr))
			snprintf(buf, len, "%s:%d", host + 7, port);
		else
			snprintf(buf, len, "[%s]:%d", host, port);
	} else {
		snprintf(buf, len, "?");
	}
}

int rwv_oob_listen(const char *bind_addr, int port, char *why, size_t whylen)
{
	struct addrinfo hints = {0}, *ai = NULL;
	char service[16];
	int fd = -1, one = 1, r;

	hints.ai_family = bind_addr ? AF_UNSPEC : AF_INET6;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	snprintf(service, sizeof(service), "%d", port);
	r = getaddrinfo(bind_addr, service, &hints, &ai);
	if (r == EAI_FAMILY || (r == 0 && !bind_addr && !ai)) {
		hints.ai_family = AF_INET;
		r = getaddrinfo(bind_addr, service, &hints, &ai);
	}
	if (r) {
		snprintf(why, whylen, "cannot listen on %s port %d: %s", bind_addr ? bind_addr : "*",
			 port, gai_strerror(r));
		return -1;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 && !bind_addr && ai->ai_family == AF_INET6) {
		/* No IPv6 in this kernel (a minimal VM): listen on IPv4. */
		freeaddrinfo(ai);
		hints.ai_family = AF_INET;
		if ((r = getaddrinfo(NULL, service, &hints, &ai)) != 0) {
			snprintf(why, whylen, "cannot listen on port %d: %s", port, gai_strerror(r));
			return -1;
		}
		fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	}
	if (fd < 0) {
		snprintf(why, whylen, "socket: %s", strerror(errno));
		freeaddrinfo(ai);
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ai->ai_family == AF_INET6 && !bind_addr) {
		int zero = 0; /* accept IPv4 clients too */
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	}
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 4)) {
		snprintf(why, whylen, "cannot listen on %s port %d: %s", bind_addr ? bind_addr : "*",
			 port, strerror(errno));
		close(fd);
		freeaddrinfo(ai);
		return -1;
	}
	freeaddrinfo(ai);
	return fd;
}

void rwv_oob_wrap(int fd, const char *peer, struct rwv_conn *c)
{
	int one = 1;
	c->fd = fd;
	c->len = 0;
	snprintf(c->peer, sizeof(c->peer), "%s", peer);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

void rwv_oob_close(struct rwv_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* poll() one fd for ev until deadline (ms, monotonic). 1 ready, 0 timeout,
 * -1 error or interrupted by a stop request. */
static int wait_fd(int fd, short ev, long long deadline)
{
	for (;;) {
		if (rwv_stop_requested)
			return -2;
		long long left = deadline - now_ms();
		if (left <= 0)
			return 0;
		struct pollfd p = {.fd = fd, .events = ev};
		/* Wake every 200 ms to notice a stop request. */
		int r = poll(&p, 1, left > 200 ? 200 : (int)left);
		if (r > 0)
			return 1;
		if (r < 0 && errno != EINTR)
			return -1;
	}
}

int rwv_oob_accept(int lfd, int timeout_ms, struct rwv_conn *c, char *why, size_t whylen)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char peer[80];
	int r = wait_fd(lfd, POLLIN, now_ms() + timeout_ms);

	if (r == 0) {
		snprintf(why, whylen, "no client connected within %d s", timeout_ms / 1000);
		return -1;
	}
	if (r < 0) {
		snprintf(why, whylen, "%s while waiting for a client",
			 r == -2 ? "interrupted" : strerror(errno));
		return -1;
	}
	int fd = accept(lfd, (struct sockaddr *)&ss, &sl);
	if (fd < 0) {
		snprintf(why, whylen, "accept: %s", strerror(errno));
		return -1;
	}
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	sa_text((struct sockaddr *)&ss, peer, sizeof(peer));
	rwv_oob_wrap(fd, peer, c);
	return 0;
}

/* One non-blocking connect attempt bounded by deadline: 0, or -errno. */
static int connect_once(const struct addrinfo *a, long long deadline, int *out)
{
	int fd = socket(a->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	int err = 0;
	socklen_t el = sizeof(err);

	if (fd < 0)
		return -errno;
	if (connect(fd, a->ai_addr, a->ai_addrlen) == 0)
		goto ok;
	if (errno != EINPROGRESS) {
		err = errno;
		close(fd);
		return -err;
	}
	int r = wait_fd(fd, POLLOUT, deadline);
	if (r <= 0) {
		close(fd);
		return r == 0 ? -ETIMEDOUT : r == -2 ? -EINTR : -errno;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) || err) {
		close(fd);
		return -(err ? err : errno);
	}
ok:
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	*out = fd;
	return 0;
}

int rwv_oob_connect(const char *host, int port, int timeout_ms, struct rwv_conn *c,
		    char *why, size_t whylen)
{
	struct addrinfo hints = {0}, *ai = NULL;
	char service[16], peer[80];
	long long deadline = now_ms() + timeout_ms;
	int r, last = 0, fd = -1, tries = 0;

	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV | AI_NUMERICHOST;
	snprintf(service, sizeof(service), "%d", port);
	/* Numeric first: a busybox initramfs has no NSS modules for names. */
	r = getaddrinfo(host, service, &hints, &ai);
	if (r == EAI_NONAME) {
		hints.ai_flags = AI_NUMERICSERV;
		r = getaddrinfo(host, service, &hints, &ai);
	}
	if (r) {
		snprintf(why, whylen, "cannot resolve server '%s': %s", host,
			 r == EAI_SYSTEM ? strerror(errno) : gai_strerror(r));
		return -1;
	}
	for (;;) {
		for (struct addrinfo *a = ai; a; a = a->ai_next) {
			r = connect_once(a, deadline, &fd);
			if (r == 0) {
				sa_text(a->ai_addr, peer, sizeof(peer));
				freeaddrinfo(ai);
				rwv_oob_wrap(fd, peer, c);
				return 0;
			}
			last = -r;
		}
		tries++;
		/* Refused or unreachable: the server may still be starting. */
		if (last == EINTR || rwv_stop_requested || now_ms() + 100 >= deadline)
			break;
		struct timespec ts = {.tv_sec = 0, .tv_nsec = 100 * 1000000L};
		nanosleep(&ts, NULL);
	}
	freeaddrinfo(ai);
	snprintf(why, whylen, "cannot reach server %s port %d: %s (%d attempt%s in %d s)", host,
		 port, last == ETIMEDOUT ? "connection timed out" : strerror(last), tries,
		 tries == 1 ? "" : "s", timeout_ms / 1000);
	return -1;
}

int rwv_oob_send(struct rwv_conn *c, int timeout_ms, char *why, size_t whylen,
		 const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	long long deadline = now_ms() + timeout_ms;

	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line) - 1) {
		snprintf(why, whylen, "exchange line too long");
		return -1;
	}
	line[n++] = '\n';
	for (int off = 0; off < n;) {
		int r = wait_fd(c->fd, POLLOUT, deadline);
		if (r <= 0) {
			snprintf(why, whylen, "sending to %s: %s", c->peer,
				 r == 0 ? "timed out" : r == -2 ? "interrupted" : strerror(errno));
			return -1;
		}
		ssize_t w = send(c->fd, line + off, (size_t)(n - off), MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			snprintf(why, whylen, "sending to %s: %s", c->peer, strerror(errno));
			return -1;
		}
		off += (int)w;
	}
	return 0;
}

int rwv_oob_ready(struct rwv_conn *c)
{
	if (memchr(c->buf, '\n', c->len))
		return 1;
	struct pollfd p = {.fd = c->fd, .events = POLLIN};
	return poll(&p, 1, 0) > 0;
}

int rwv_oob_readline(struct rwv_conn *c, int timeout_ms, char *line, size_t len,
		     char *why, size_t whylen)
{
	long long deadline = now_ms() + timeout_ms;

	for (;;) {
		char *nl = memchr(c->buf, '\n', c->len);
		if (nl) {
			size_t l = (size_t)(nl - c->buf);
			if (l >= len) {
				snprintf(why, whylen, "line from %s longer than %zu bytes", c->peer, len);
				return -1;
			}
			memcpy(line, c->buf, l);
			line[l] = '\0';
			if (l && line[l - 1] == '\r')
				line[l - 1] = '\0';
			c->len -= l + 1;
			memmove(c->buf, nl + 1, c->len);
			return 1;
		}
		if (c->len == sizeof(c->buf)) {
			snprintf(why, whylen, "line from %s longer than %zu bytes", c->peer,
				 sizeof(c->buf));
			return -1;
		}
		int r = wait_fd(c->fd, POLLIN, deadline);
		if (r <= 0) {
			snprintf(why, whylen, "reading from %s: %s", c->peer,
				 r == 0 ? "no answer within the timeout"
				 : r == -2 ? "interrupted" : strerror(errno));
			if (r == 0 && timeout_ms >= 1000)
				snprintf(why, whylen, "reading from %s: no answer within %d s", c->peer,
					 timeout_ms / 1000);
			return -1;
		}
		ssize_t n = recv(c->fd, c->buf + c->len, sizeof(c->buf) - c->len, MSG_DONTWAIT);
		if (n == 0) {
			if (c->len) {
				snprintf(why, whylen, "%s closed the connection mid-line", c->peer);
				return -1;
			}
			return 0;
		}
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			snprintf(why, whylen, "reading from %s: %s", c->peer, strerror(errno));
			return -1;
		}
		c->len += (size_t)n;
	}
}

int rwv_kv(const char *line, const char *key, char *val, size_t len)
{
	size_t kl = strlen(key);
	const char *p = strchr(line, ' '); /* skip the leading word */

	while (p) {
		p += strspn(p, " ");
		if (!*p)
			break;
		const char *kend = p + strcspn(p, " ");
		const char *v = kend + strspn(kend, " ");
		const char *vend = v + strcspn(v, " ");
		if ((size_t)(kend - p) == kl && memcmp(p, key, kl) == 0) {
			size_t vl = (size_t)(vend - v);
			if (vl >= len || vl == 0)
				return -1;
			memcpy(val, v, vl);
			val[vl] = '\0';
			return 0;
		}
		p = *vend ? vend : NULL;
	}
	return -1;
}

int rwv_kv_u64(const char *line, const char *key, unsigned long long *v)
{
	char buf[32], *end;
	if (rwv_kv(line, key, buf, sizeof(buf)))
		return -1;
	errno = 0;
	*v = strtoull(buf, &end, 0);
	return (errno || *end || buf[0] == '-') ? -1 : 0;
}
