/* SPDX-License-Identifier: BSD-3-Clause */
/* Client, server and fixed-peer flows of rocewire-verbs, and the line
 * protocol of the TCP exchange (README.md, "Exchange"):
 *
 *   client: rocewire-verbs version 1 role client
 *           params op .. transport .. size .. iters .. qps .. mtu .. active_mtu ..
 *                  tx_depth .. tclass .. check ..
 *           qp idx I qpn .. psn .. gid .. lid .. rkey .. addr .. len .. qkey ..  (per QP)
 *           end
 *   server: rocewire-verbs version 1 role server status ok
 *           (or: ... status error reason TEXT, and the server exits)
 *           params mtu .. tclass .. no_recv .. rx_depth .. active_mtu ..
 *           qp idx I ...                                                      (per QP)
 *           end
 *   run:    the client sends "tick" every second while it runs, then
 *           "qpdone idx I completed N failed N" per QP and "done status ok|error"
 *   server: verdict data_check pass|fail|incomplete|skipped|none checked N
 *           mismatched N missing N
 *
 * The server's reply is sent only after its QPs are in RTS and its receives
 * are posted, so the client never sends into a QP that is not ready. */
#include "endpoint.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "gid.h"
#include "oob.h"
#include "record.h"
#include "verbs.h"

#define PROTO_HELLO "rocewire-verbs version 1"

static int fail_setup(struct rwv_ep *ep, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail_setup(struct rwv_ep *ep, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ep->run->error, sizeof(ep->run->error), fmt, ap);
	va_end(ap);
	return -1;
}

/* Copies the run-defining options into the record (after any merge). */
static void run_params(struct rwv_run *r, const struct rwv_opts *o)
{
	r->transport = o->transport;
	r->op = o->op;
	r->size = o->size;
	r->iters = o->iters;
	r->qps = o->qps;
	r->tx_depth = o->tx_depth;
	r->rx_depth = o->rx_depth;
	r->inline_size = o->inline_size;
	r->tclass = o->tclass;
	r->sl = o->sl;
	r->hop_limit = o->hop_limit;
	r->retry_count = o->retry_count;
	r->timeout_exp = o->timeout_exp;
	r->rnr_retry = o->rnr_retry;
	r->min_rnr_timer = o->min_rnr_timer;
	r->bad_rkey = o->bad_rkey;
	r->no_recv = o->no_recv;
	r->slots = rwv_slots(o->iters, o->tx_depth);
	r->slot_size = rwv_slot_size(o->op, o->size);
}

static void run_init(struct rwv_run *r, struct rwv_ep *ep, const struct rwv_opts *o,
		     const char *mode)
{
	time_t t = time(NULL);
	struct tm tm;

	memset(r, 0, sizeof(*r));
	memset(ep, 0, sizeof(*ep));
	ep->o = *o;
	ep->run = r;
	r->opts = &ep->o;
	r->mode = mode;
	r->gid_index = -1;
	gmtime_r(&t, &tm);
	strftime(r->start_time, sizeof(r->start_time), "%Y-%m-%dT%H:%M:%SZ", &tm);
	r->port = o->ib_port;
	run_params(r, o);
}

static double secs(uint64_t ns)
{
	return ns / 1e9;
}

/* Ends a run: duration, record, and the exit status. */
static int finish(struct rwv_ep *ep, uint64_t t0, int status)
{
	struct rwv_run *r = ep->run;
	char why[600];

	r->exit_status = status;
	r->duration_s = secs(rwv_now_ns() - t0);
	if (r->error[0])
		fprintf(stderr, "rocewire-verbs: %s\n", r->error);
	if (ep->o.record && rwv_record_write(r, ep->o.record, why, sizeof(why))) {
		fprintf(stderr, "rocewire-verbs: %s\n", why);
		if (status == RWV_EXIT_OK)
			status = RWV_EXIT_SETUP;
	}
	rwv_ep_destroy(ep);
	free(r->qp);
	r->qp = NULL;
	return status;
}

static void qp_line(const struct rwv_qp_rec *q, const char *gid, char *buf, size_t len)
{
	snprintf(buf, len, "qp idx %d qpn %u psn %u gid %s lid %u rkey %u addr %llu len %llu "
		 "qkey %u", q->index, q->local.qpn, q->local.psn, gid, q->local.lid, q->local.rkey,
		 (unsigned long long)q->local.addr, (unsigned long long)q->local.len, q->local.qkey);
}

static int send_qps(struct rwv_ep *ep, struct rwv_conn *c, int tmo, char *why, size_t wl)
{
	char line[512];
	for (int i = 0; i < ep->nqp; i++) {
		qp_line(&ep->run->qp[i], ep->run->local_gid, line, sizeof(line));
		if (rwv_oob_send(c, tmo, why, wl, "%s", line))
			return -1;
	}
	return rwv_oob_send(c, tmo, why, wl, "end");
}

/* Reads "qp ..." lines up to "end" into run->qp[].remote. */
static int recv_qps(struct rwv_ep *ep, struct rwv_conn *c, int tmo, char *why, size_t wl)
{
	struct rwv_run *r = ep->run;
	char line[1024], gid[64];
	int seen = 0;

	for (;;) {
		int n = rwv_oob_readline(c, tmo, line, sizeof(line), why, wl);
		if (n <= 0) {
			if (n == 0)
				snprintf(why, wl, "%s closed the connection during the exchange", c->peer);
			return -1;
		}
		if (strcmp(line, "end") == 0)
			break;
		unsigned long long idx, qpn, psn, lid, rkey, addr, len, qkey;
		uint8_t g[16];
		if (strncmp(line, "qp ", 3) || rwv_kv_u64(line, "idx", &idx) ||
		    rwv_kv_u64(line, "qpn", &qpn) || rwv_kv_u64(line, "psn", &psn) ||
		    rwv_kv(line, "gid", gid, sizeof(gid)) || rwv_kv_u64(line, "lid", &lid) ||
		    rwv_kv_u64(line, "rkey", &rkey) || rwv_kv_u64(line, "addr", &addr) ||
		    rwv_kv_u64(line, "len", &len) || rwv_kv_u64(line, "qkey", &qkey) ||
		    rwv_gid_parse(gid, g)) {
			snprintf(why, wl, "bad exchange line from %s: '%.200s' (expected 'qp idx N qpn "
				 "N psn N gid GID lid N rkey N addr N len N qkey N')", c->peer, line);
			return -1;
		}
		if (idx >= (unsigned long long)ep->nqp) {
			snprintf(why, wl, "%s sent QP index %llu but the run has %d QPs", c->peer, idx,
				 ep->nqp);
			return -1;
		}
		struct rwv_side *s = &r->qp[idx].remote;
		s->qpn = (uint32_t)qpn;
		s->psn = (uint32_t)psn & 0xffffff;
		s->lid = (uint16_t)lid;
		s->rkey = (uint32_t)rkey;
		s->addr = addr;
		s->len = len;
		s->qkey = (uint32_t)qkey;
		if (seen == 0)
			rwv_gid_format(g, r->remote_gid, sizeof(r->remote_gid));
		seen++;
	}
	if (seen != ep->nqp) {
		snprintf(why, wl, "%s described %d QPs, expected %d", c->peer, seen, ep->nqp);
		return -1;
	}
	return 0;
}

static void print_header(const struct rwv_ep *ep, const char *role)
{
	const struct rwv_run *r = ep->run;
	printf("rocewire-verbs %s: %s %s, %d QP%s x %u messages of %u B, MTU %d, tclass %d\n",
	       role, rwv_transport_name(r->transport), rwv_op_name(r->op), r->qps,
	       r->qps == 1 ? "" : "s", r->iters, r->size, r->mtu, r->tclass);
	printf("  device %s port %d, GID[%d] %s -> %s%s%s\n", r->device, r->port, r->gid_index,
	       r->local_gid, r->remote_gid, r->peer[0] ? ", peer " : "", r->peer);
	for (int i = 0; i < r->nqp && i < 8; i++)
		printf("  qp %d: qpn 0x%06x psn 0x%06x -> qpn 0x%06x psn 0x%06x\n", i,
		       r->qp[i].local.qpn, r->qp[i].local.psn, r->qp[i].remote.qpn,
		       r->qp[i].remote.psn);
	if (r->nqp > 8)
		printf("  ... %d more QPs in the record\n", r->nqp - 8);
	fflush(stdout);
}

static const char *data_verdict(const struct rwv_run *r, bool anything_to_check)
{
	uint64_t mm = 0, missing = 0, ooo = 0;
	if (!r->check)
		return "skipped";
	if (!anything_to_check)
		return "none";
	for (int i = 0; i < r->nqp; i++) {
		mm += r->qp[i].mismatched;
		missing += r->qp[i].missing;
		ooo += r->qp[i].out_of_order;
	}
	if (mm || ooo)
		return "fail";
	return missing ? "incomplete" : "pass";
}

static bool verdict_ok(const char *v)
{
	return strcmp(v, "pass") == 0 || strcmp(v, "none") == 0 || strcmp(v, "skipped") == 0;
}

/* ---------------------------------------------------------------- client */

static void client_summary(struct rwv_ep *ep)
{
	struct rwv_run *r = ep->run;
	uint64_t posted = 0, done = 0, bytes = 0, failed = 0;
	for (int i = 0; i < r->nqp; i++) {
		posted += r->qp[i].posted;
		done += r->qp[i].completed;
		bytes += r->qp[i].completed_bytes;
		failed += r->qp[i].failed;
	}
	double el = r->elapsed_s;
	printf("  completed %llu of %llu posted (%llu B, %llu errors) in %.6f s: %.3f Gb/s, "
	       "%.0f msg/s\n", (unsigned long long)done, (unsigned long long)posted,
	       (unsigned long long)bytes, (unsigned long long)failed, el,
	       el > 0 ? bytes * 8.0 / el / 1e9 : 0.0, el > 0 ? done / el : 0.0);
	printf("  latency per completion round trip (us): p50 %.2f  p99 %.2f  max %.2f  "
	       "(%llu samples)\n", r->lat.p50_us, r->lat.p99_us, r->lat.max_us,
	       (unsigned long long)r->lat.samples);
	printf("  data check: %s (server: %s)\n", r->data_check,
	       r->peer_data_check[0] ? r->peer_data_check : "unknown");
}

/* Posts and polls until every QP has finished, died, stalled or been stopped. */
static void client_loop(struct rwv_ep *ep, struct rwv_conn *c)
{
	struct rwv_run *r = ep->run;
	struct ibv_wc wc[32];
	uint64_t tmo = (uint64_t)ep->o.timeout_s * 1000000000ull;
	uint64_t last = rwv_now_ns(), tick = last;
	char why[300];
	bool tick_ok = true;

	for (;;) {
		rwv_post_sends(ep);
		int n = ibv_poll_cq(ep->scq, 32, wc);
		uint64_t now = rwv_now_ns();
		if (n < 0) {
			fail_setup(ep, "ibv_poll_cq failed on %s", r->device);
			break;
		}
		for (int k = 0; k < n; k++)
			rwv_send_completion(ep, &wc[k], now);
		bool busy = false, more = false;
		uint64_t outstanding = 0;
		for (int i = 0; i < ep->nqp; i++) {
			outstanding += ep->q[i].outstanding;
			if (!ep->q[i].dead && ep->q[i].next_iter < ep->o.iters)
				more = true;
		}
		busy = outstanding > 0;
		if (!busy && !more)
			break;
		if (n > 0) {
			last = now;
		} else if (now - last > tmo) {
			r->cq_timeout = true;
			if (!r->error[0])
				fail_setup(ep, "no completion for %d s with %llu work requests "
					   "outstanding (raise --timeout, or see --retry-count/"
					   "--timeout-exp/--rnr-retry)", ep->o.timeout_s,
					   (unsigned long long)outstanding);
			break;
		}
		if (rwv_stop_requested) {
			r->interrupted = true;
			if (!r->error[0])
				fail_setup(ep, "interrupted with %llu work requests outstanding",
					   (unsigned long long)outstanding);
			break;
		}
		if (c && now - tick >= 1000000000ull && tick_ok) {
			tick = now;
			/* Tells the server the run is alive: it bounds every read. */
			if (rwv_oob_send(c, 1000, why, sizeof(why), "tick"))
				tick_ok = false;
		}
	}
	if (r->cq_timeout || r->interrupted)
		rwv_flush(ep, true, 1000);
}

/* ------------------------------------------------------ fixed-peer client */

/* Reads one line from path ("-": stdin) within timeout_ms; a regular file may
 * still be growing (a background writer), so EOF before a newline waits. */
static int read_json_line(const char *path, int timeout_ms, char *buf, size_t len, char *why,
			  size_t wl)
{
	int fd = strcmp(path, "-") == 0 ? 0 : open(path, O_RDONLY | O_NONBLOCK);
	uint64_t end = rwv_now_ns() + (uint64_t)timeout_ms * 1000000ull;
	size_t got = 0;

	if (fd < 0) {
		snprintf(why, wl, "cannot open --peer-json %s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		char *nl = memchr(buf, '\n', got);
		if (nl) {
			*nl = '\0';
			break;
		}
		if (got + 1 >= len) {
			snprintf(why, wl, "--peer-json %s: first line longer than %zu bytes", path, len);
			goto fail;
		}
		if (rwv_stop_requested || rwv_now_ns() > end) {
			snprintf(why, wl, "--peer-json %s: no complete line within %d s%s", path,
				 timeout_ms / 1000, rwv_stop_requested ? " (interrupted)" : "");
			goto fail;
		}
		struct pollfd pf = {.fd = fd, .events = POLLIN};
		if (poll(&pf, 1, 100) <= 0)
			continue;
		ssize_t n = read(fd, buf + got, len - 1 - got);
		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			snprintf(why, wl, "reading --peer-json %s: %s", path, strerror(errno));
			goto fail;
		}
		if (n == 0) {
			struct timespec ts = {0, 50 * 1000000L};
			nanosleep(&ts, NULL); /* EOF: wait for a writer to append */
		}
		if (n > 0)
			got += (size_t)n;
		buf[got] = '\0';
	}
	if (fd)
		close(fd);
	return 0;
fail:
	if (fd)
		close(fd);
	return -1;
}

static int json_u64(json_t *j, const char *name, uint64_t *out)
{
	json_t *v = json_object_get(j, name);
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return -1;
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

/* Takes the peer's coordinates from its "ready" line, checking that it was set
 * up for the same run; --remote-* options override. */
static int peer_from_json(struct rwv_ep *ep, const char *text, char *why, size_t wl)
{
	struct rwv_run *r = ep->run;
	const struct rwv_opts *o = &ep->o;
	struct rwv_side *s = &r->qp[0].remote;
	json_error_t je;
	json_t *j = json_loads(text, 0, &je), *v;
	uint8_t g[16];

	if (!j || !json_is_object(j)) {
		snprintf(why, wl, "--peer-json %s: not a JSON object (%s at column %d)",
			 o->peer_json, j ? "not an object" : je.text, je.column);
		json_decref(j);
		return -1;
	}
	uint64_t u;
	if (json_u64(j, "qpn", &u) == 0)
		s->qpn = (uint32_t)u;
	if (json_u64(j, "psn", &u) == 0)
		s->psn = (uint32_t)u & 0xffffff;
	if (json_u64(j, "rkey", &u) == 0)
		s->rkey = (uint32_t)u;
	if (json_u64(j, "addr", &u) == 0)
		s->addr = u;
	if (json_u64(j, "len", &u) == 0)
		s->len = u;
	if (json_u64(j, "qkey", &u) == 0)
		s->qkey = (uint32_t)u;
	if (json_u64(j, "lid", &u) == 0)
		s->lid = (uint16_t)u;
	v = json_object_get(j, "gid");
	if (json_is_string(v) && rwv_gid_parse(json_string_value(v), g) == 0)
		rwv_gid_format(g, r->remote_gid, sizeof(r->remote_gid));
	const char *mism = NULL;
	char got[64] = "";
	if ((v = json_object_get(j, "op")) && json_is_string(v) &&
	    strcmp(json_string_value(v), rwv_op_name(o->op))) {
		mism = "--op";
		snprintf(got, sizeof(got), "%s", json_string_value(v));
	} else if ((v = json_object_get(j, "transport")) && json_is_string(v) &&
		   strcmp(json_string_value(v), rwv_transport_name(o->transport))) {
		mism = "--transport";
		snprintf(got, sizeof(got), "%s", json_string_value(v));
	} else if ((v = json_object_get(j, "size")) && json_is_integer(v) &&
		   json_integer_value(v) != (json_int_t)o->size) {
		mism = "--size";
		snprintf(got, sizeof(got), "%lld", (long long)json_integer_value(v));
	} else if ((v = json_object_get(j, "iterations")) && json_is_integer(v) &&
		   json_integer_value(v) != (json_int_t)o->iters) {
		mism = "--iters";
		snprintf(got, sizeof(got), "%lld", (long long)json_integer_value(v));
	}
	if (mism) {
		snprintf(why, wl, "the peer in --peer-json %s is set up with %s %s, which this "
			 "client was not given", o->peer_json, mism, got);
		json_decref(j);
		return -1;
	}
	if (!(o->given & RWV_GIVEN_MTU) && (v = json_object_get(j, "mtu")) && json_is_integer(v))
		r->mtu = (int)json_integer_value(v);
	json_decref(j);
	if (!s->qpn || !r->remote_gid[0]) {
		snprintf(why, wl, "--peer-json %s lacks \"qpn\" or \"gid\"", o->peer_json);
		return -1;
	}
	return 0;
}

static int client_fixed_peer(struct rwv_ep *ep, uint64_t t0)
{
	struct rwv_run *r = ep->run;
	const struct rwv_opts *o = &ep->o;
	struct rwv_side *s = &r->qp[0].remote;
	char line[4096], why[600];

	r->mode = "fixed-peer";
	r->mtu = o->mtu ? o->mtu : r->active_mtu;
	char *ready = rwv_fixed_peer_line(r);
	if (ready) {
		printf("%s\n", ready);
		fflush(stdout);
		free(ready);
	}
	if (o->peer_json) {
		if (read_json_line(o->peer_json, o->timeout_s * 1000, line, sizeof(line), why,
				   sizeof(why)) ||
		    peer_from_json(ep, line, why, sizeof(why))) {
			fail_setup(ep, "%s", why);
			return finish(ep, t0, RWV_EXIT_SETUP);
		}
	}
	if (o->have_remote_qpn)
		s->qpn = o->remote_qpn;
	if (o->have_remote_psn)
		s->psn = o->remote_psn;
	if (o->have_remote_rkey)
		s->rkey = o->remote_rkey;
	if (o->have_remote_addr)
		s->addr = o->remote_addr;
	if (o->remote_lid)
		s->lid = o->remote_lid;
	if (o->remote_qkey || !s->qkey)
		s->qkey = o->remote_qkey ? o->remote_qkey : o->qkey;
	if (o->remote_gid) {
		uint8_t g[16];
		rwv_gid_parse(o->remote_gid, g);
		rwv_gid_format(g, r->remote_gid, sizeof(r->remote_gid));
	}
	if (rwv_connect_qp(ep, 0))
		return finish(ep, t0, RWV_EXIT_SETUP);

	client_loop(ep, NULL);
	r->elapsed_s = ep->last_ns > ep->first_ns ? secs(ep->last_ns - ep->first_ns) : 0;
	rwv_latency_compute(ep->lat, ep->nlat, &r->lat);
	struct rwv_qp_rec *q = &r->qp[0];
	bool checks = o->op == RWV_OP_READ || rwv_op_is_atomic(o->op);
	if (checks)
		q->missing = o->iters - q->completed;
	r->data_check = data_verdict(r, checks);
	bool fail = q->failed || r->cq_timeout || r->interrupted || q->completed < o->iters;
	int status = fail || !verdict_ok(r->data_check) ? RWV_EXIT_FAIL : RWV_EXIT_OK;
	if (status == RWV_EXIT_FAIL && !r->error[0])
		fail_setup(ep, "data check %s", r->data_check);
	r->exit_status = status;
	char *verdict = rwv_verdict_line(r);
	if (verdict) {
		printf("%s\n", verdict);
		free(verdict);
	}
	fflush(stdout);
	return finish(ep, t0, status);
}

/* The device and this side's QPs; UD's size from the path MTU. 0, or -1
 * with the run's error set. */
static int client_open(struct rwv_ep *ep)
{
	struct rwv_run *run = ep->run;

	if (rwv_dev_open(ep))
		return -1;
	/* UD: one packet per message, so the size defaults to the path MTU. */
	if (ep->o.size == 0) {
		ep->o.size = (uint32_t)run->active_mtu;
		if (ep->o.mtu && ep->o.mtu < run->active_mtu)
			ep->o.size = (uint32_t)ep->o.mtu;
	}
	if (ep->o.transport == RWV_UD && ep->o.size > (uint32_t)run->active_mtu)
		return fail_setup(ep, "--transport UD --size %u exceeds the active MTU %d of %s port %d",
				  ep->o.size, run->active_mtu, run->device, run->port);
	run_params(run, &ep->o);
	return rwv_resources(ep, false) ? -1 : 0;
}

/* The server's answer: hello with a status, its params, its QPs. */
static int client_hear_server(struct rwv_ep *ep, struct rwv_conn *conn, int tmo)
{
	struct rwv_run *run = ep->run;
	char why[600], line[1024], val[64];
	unsigned long long v;

	int n = rwv_oob_readline(conn, tmo, line, sizeof(line), why, sizeof(why));
	if (n <= 0)
		return fail_setup(ep, "%s", n == 0 ? "the server closed the connection without answering" : why);
	if (strncmp(line, PROTO_HELLO, strlen(PROTO_HELLO)) != 0)
		return fail_setup(ep, "%s does not speak rocewire-verbs exchange version 1 (it said '%.80s')",
				  conn->peer, line);
	if (rwv_kv(line, "status", val, sizeof(val)) || strcmp(val, "ok") != 0) {
		const char *reason = strstr(line, " reason ");
		return fail_setup(ep, "the server refused the run: %s", reason ? reason + 8 : "no reason given");
	}
	n = rwv_oob_readline(conn, tmo, line, sizeof(line), why, sizeof(why));
	if (n <= 0 || strncmp(line, "params ", 7) || rwv_kv_u64(line, "mtu", &v))
		return fail_setup(ep, "%s", n < 0 ? why : "the server's answer lacks 'params mtu N'");
	run->mtu = (int)v;
	if (rwv_kv_u64(line, "no_recv", &v) == 0)
		run->peer_no_recv = v != 0;
	if (recv_qps(ep, conn, tmo, why, sizeof(why)))
		return fail_setup(ep, "%s", why);
	return 0;
}

/* The exchange with the server, then this side's QPs connected to its. 0,
 * or -1 with the run's error set. */
static int client_exchange(struct rwv_ep *ep, struct rwv_conn *conn, int tmo)
{
	struct rwv_run *run = ep->run;
	const struct rwv_opts *o = &ep->o;
	char why[600];

	if (rwv_oob_connect(o->host, o->tcp_port, tmo, conn, why, sizeof(why)))
		return fail_setup(ep, "%s", why);
	snprintf(run->peer, sizeof(run->peer), "%s", conn->peer);
	if (rwv_oob_send(conn, tmo, why, sizeof(why), "%s role client", PROTO_HELLO) ||
	    rwv_oob_send(conn, tmo, why, sizeof(why),
			 "params op %s transport %s size %u iters %u qps %d mtu %d active_mtu %d "
			 "tx_depth %d tclass %d check %d", rwv_op_name(o->op),
			 rwv_transport_name(o->transport), o->size, o->iters, o->qps,
			 o->mtu, run->active_mtu, o->tx_depth, o->tclass, run->check ? 1 : 0) ||
	    send_qps(ep, conn, tmo, why, sizeof(why)))
		return fail_setup(ep, "%s", why);
	if (client_hear_server(ep, conn, tmo))
		return -1;
	/* A responder that posts no receives answers with RNR NAKs; rnr_retry 7
	 * would retry them forever, so unless told otherwise give up after 2. */
	if (run->peer_no_recv && !(o->given & RWV_GIVEN_RNR_RETRY))
		run->rnr_retry = 2;
	else if (run->peer_no_recv && run->rnr_retry == 7)
		fprintf(stderr, "rocewire-verbs: warning: the server posts no receives and "
			"--rnr-retry 7 retries forever: the run ends by --timeout\n");
	for (int i = 0; i < ep->nqp; i++)
		if (rwv_connect_qp(ep, i))
			return -1;
	return 0;
}

/* After the run: this side's verdict, told to the server, and the
 * server's heard. The exit status. */
static int client_verdict(struct rwv_ep *ep, struct rwv_conn *conn, int tmo)
{
	struct rwv_run *run = ep->run;
	const struct rwv_opts *o = &ep->o;
	bool any_fail = false, reads = o->op == RWV_OP_READ || rwv_op_is_atomic(o->op);
	char why[600], line[1024], val[64];

	for (int i = 0; i < ep->nqp; i++) {
		struct rwv_qp_rec *q = &run->qp[i];
		if (q->failed)
			any_fail = true;
		if (reads)
			q->missing = o->iters - q->completed;
	}
	any_fail = any_fail || run->cq_timeout || run->interrupted || run->error[0];
	run->data_check = data_verdict(run, reads);

	/* Tell the server how it went, and hear its verdict. */
	int status = any_fail || !verdict_ok(run->data_check) ? RWV_EXIT_FAIL : RWV_EXIT_OK;
	bool told = true;
	for (int i = 0; i < ep->nqp && told; i++)
		told = !rwv_oob_send(conn, tmo, why, sizeof(why), "qpdone idx %d completed %llu failed %llu", i,
				     (unsigned long long)run->qp[i].completed,
				     (unsigned long long)run->qp[i].failed);
	if (told)
		told = !rwv_oob_send(conn, tmo, why, sizeof(why), "done status %s%s%.400s",
				     any_fail ? "error" : "ok", run->error[0] ? " reason " : "", run->error);
	int n = told ? rwv_oob_readline(conn, tmo, line, sizeof(line), why, sizeof(why)) : -1;
	if (n > 0 && strncmp(line, "verdict ", 8) == 0 && rwv_kv(line, "data_check", val, sizeof(val)) == 0) {
		snprintf(run->peer_data_check, sizeof(run->peer_data_check), "%s", val);
		if (!verdict_ok(val))
			status = RWV_EXIT_FAIL;
		if (!verdict_ok(val) && !run->error[0])
			fail_setup(ep, "the server's data check: %s (%s)", val, line + 8);
	} else if (status == RWV_EXIT_OK) {
		fail_setup(ep, "no verdict from the server: %s", n == 0 ? "it closed the connection" : n < 0 ? why : line);
		status = RWV_EXIT_SETUP;
	}
	return status;
}

int rwv_run_client(const struct rwv_opts *o)
{
	struct rwv_run run;
	struct rwv_ep ep;
	struct rwv_conn conn = {.fd = -1};
	uint64_t t0 = rwv_now_ns();
	int tmo = o->timeout_s * 1000;

	run_init(&run, &ep, o, "tcp");
	run.check = !o->no_check;
	if (client_open(&ep))
		goto setup_error;
	if (o->fixed_peer)
		return client_fixed_peer(&ep, t0);
	if (client_exchange(&ep, &conn, tmo))
		goto setup_error;
	print_header(&ep, "client");
	client_loop(&ep, &conn);
	/* A signal stopped the run, not the goodbye: tell the server (each step
	 * is still bounded by --timeout). */
	rwv_stop_requested = 0;
	run.elapsed_s = ep.last_ns > ep.first_ns ? secs(ep.last_ns - ep.first_ns) : 0;
	rwv_latency_compute(ep.lat, ep.nlat, &run.lat);
	int status = client_verdict(&ep, &conn, tmo);
	client_summary(&ep);
	printf("  result: %s\n", status == RWV_EXIT_OK ? "pass" : "fail");
	fflush(stdout);
	rwv_oob_close(&conn);
	return finish(&ep, t0, status);

setup_error:
	rwv_oob_close(&conn);
	return finish(&ep, t0, RWV_EXIT_SETUP);
}

/* ---------------------------------------------------------------- server */

/* Takes the client's value of each run-defining option, refusing it when the
 * server was given a different one. Returns 0 or -1 with why. */
static int merge_params(struct rwv_opts *m, const struct rwv_run *r, const char *line,
			char *why, size_t wl)
{
	char opn[32], trn[32];
	unsigned long long size, iters, qps, mtu, amtu, txd, tcl, chk;
	enum rwv_op op;
	enum rwv_transport tr;

	if (rwv_kv(line, "op", opn, sizeof(opn)) || rwv_kv(line, "transport", trn, sizeof(trn)) ||
	    rwv_kv_u64(line, "size", &size) || rwv_kv_u64(line, "iters", &iters) ||
	    rwv_kv_u64(line, "qps", &qps) || rwv_kv_u64(line, "mtu", &mtu) ||
	    rwv_kv_u64(line, "active_mtu", &amtu) || rwv_kv_u64(line, "tx_depth", &txd) ||
	    rwv_kv_u64(line, "tclass", &tcl) || rwv_kv_u64(line, "check", &chk) ||
	    rwv_op_parse(opn, &op) || rwv_transport_parse(trn, &tr) || size < 1 ||
	    size > RWV_MAX_SIZE || iters < 1 || iters > UINT32_MAX || qps < 1 ||
	    qps > RWV_MAX_QPS || txd < 1 || txd > 16384 || tcl > 255) {
		snprintf(why, wl, "bad params line from the client: '%.200s'", line);
		return -1;
	}
#define AGREE(flag, opt, mine, theirs, fmt)                                                   \
	do {                                                                                   \
		if ((m->given & (flag)) && (mine) != (theirs)) {                              \
			snprintf(why, wl, "the server was started with " opt " " fmt " but the "   \
				 "client asked for " fmt, mine, theirs);                           \
			return -1;                                                             \
		}                                                                              \
	} while (0)
	if ((m->given & RWV_GIVEN_OP) && m->op != op) {
		snprintf(why, wl, "the server was started with --op %s but the client asked for %s",
			 rwv_op_name(m->op), rwv_op_name(op));
		return -1;
	}
	if ((m->given & RWV_GIVEN_TRANSPORT) && m->transport != tr) {
		snprintf(why, wl, "the server was started with --transport %s but the client asked "
			 "for %s", rwv_transport_name(m->transport), rwv_transport_name(tr));
		return -1;
	}
	AGREE(RWV_GIVEN_SIZE, "--size", m->size, (uint32_t)size, "%u");
	AGREE(RWV_GIVEN_ITERS, "--iters", m->iters, (uint32_t)iters, "%u");
	AGREE(RWV_GIVEN_QPS, "--qps", m->qps, (int)qps, "%d");
	AGREE(RWV_GIVEN_TX_DEPTH, "--tx-depth", m->tx_depth, (int)txd, "%d");
	if ((m->given & RWV_GIVEN_MTU) && mtu && (unsigned long long)m->mtu != mtu) {
		snprintf(why, wl, "the server was started with --mtu %d but the client asked for "
			 "%llu", m->mtu, mtu);
		return -1;
	}
#undef AGREE
	m->op = op;
	m->transport = tr;
	m->size = (uint32_t)size;
	m->iters = (uint32_t)iters;
	m->qps = (int)qps;
	m->tx_depth = (int)txd;
	m->given |= RWV_GIVEN_SIZE; /* the client resolved it */
	if (!(m->given & RWV_GIVEN_MTU))
		m->mtu = mtu ? (int)mtu : (int)(amtu < (unsigned long long)r->active_mtu
						? amtu : (unsigned long long)r->active_mtu);
	if (!(m->given & RWV_GIVEN_TCLASS))
		m->tclass = (int)tcl;
	if (!chk)
		m->no_check = true;
	if (m->mtu != 256 && m->mtu != 512 && m->mtu != 1024 && m->mtu != 2048 && m->mtu != 4096) {
		snprintf(why, wl, "path MTU %d is not an IB MTU", m->mtu);
		return -1;
	}
	if (m->transport == RWV_UD && m->size > (uint32_t)r->active_mtu) {
		snprintf(why, wl, "UD --size %u exceeds the server's active MTU %d", m->size,
			 r->active_mtu);
		return -1;
	}
	return rwv_opts_check(m, why, wl);
}

static void drain_recv(struct rwv_ep *ep)
{
	struct ibv_wc wc[32];
	int n;
	while ((n = ibv_poll_cq(ep->rcq, 32, wc)) > 0) {
		uint64_t now = rwv_now_ns();
		for (int k = 0; k < n; k++)
			rwv_recv_completion(ep, &wc[k], now, NULL);
	}
}

static void drain_recv_fp(struct rwv_ep *ep, const struct rwv_fixed_pat *fp)
{
	struct ibv_wc wc[32];
	int n;
	while ((n = ibv_poll_cq(ep->rcq, 32, wc)) > 0) {
		uint64_t now = rwv_now_ns();
		for (int k = 0; k < n; k++)
			rwv_recv_completion(ep, &wc[k], now, fp);
	}
}

/* Takes the CQ event off the channel and re-arms it, so the next completion
 * wakes the poll() again. */
static void rearm(struct rwv_ep *ep)
{
	struct ibv_cq *cq;
	void *cctx;
	int got = 0;
	while (ibv_get_cq_event(ep->chan, &cq, &cctx) == 0)
		got++;
	if (got)
		ibv_ack_cq_events(ep->rcq, (unsigned)got);
	ibv_req_notify_cq(ep->rcq, 0);
}

static uint64_t recv_total(const struct rwv_ep *ep)
{
	uint64_t t = 0;
	for (int i = 0; i < ep->nqp; i++)
		t += ep->run->qp[i].recv_completed + ep->run->qp[i].recv_failed;
	return t;
}

static void server_summary(const struct rwv_ep *ep)
{
	const struct rwv_run *r = ep->run;
	uint64_t rc = 0, rb = 0, rf = 0, chk = 0, mm = 0, miss = 0;
	for (int i = 0; i < r->nqp; i++) {
		rc += r->qp[i].recv_completed;
		rb += r->qp[i].recv_bytes;
		rf += r->qp[i].recv_failed;
		chk += r->qp[i].checked;
		mm += r->qp[i].mismatched;
		miss += r->qp[i].missing;
	}
	if (rwv_op_uses_recv(r->op))
		printf("  received %llu messages (%llu B, %llu errors) in %.6f s: %.3f Gb/s\n",
		       (unsigned long long)rc, (unsigned long long)rb, (unsigned long long)rf,
		       r->elapsed_s, r->elapsed_s > 0 ? rb * 8.0 / r->elapsed_s / 1e9 : 0.0);
	printf("  data check: %s (%llu checked, %llu mismatched, %llu missing)\n", r->data_check,
	       (unsigned long long)chk, (unsigned long long)mm, (unsigned long long)miss);
}

/* The device, then the client: no device is a setup error before anyone
 * has come. 0, or -1 with the run's error set. */
static int server_accept(struct rwv_ep *ep, struct rwv_conn *conn, int tmo)
{
	struct rwv_run *run = ep->run;
	char why[600];
	int lfd;

	if (rwv_dev_open(ep))
		return -1;
	lfd = rwv_oob_listen(ep->o.bind, ep->o.tcp_port, why, sizeof(why));
	if (lfd < 0)
		return fail_setup(ep, "%s", why);
	fprintf(stderr, "rocewire-verbs server: %s port %d GID[%d] %s, waiting on TCP port %d\n",
		run->device, run->port, run->gid_index, run->local_gid, ep->o.tcp_port);
	if (rwv_oob_accept(lfd, tmo, conn, why, sizeof(why))) {
		close(lfd);
		return fail_setup(ep, "%s", why);
	}
	close(lfd);
	snprintf(run->peer, sizeof(run->peer), "%s", conn->peer);
	return 0;
}

/* Tells the client the run is refused, and why. */
static void server_refuse(struct rwv_conn *conn, const char *reason)
{
	char tmp[600], why[600];

	snprintf(tmp, sizeof(tmp), "%s", reason);
	rwv_oob_send(conn, 1000, why, sizeof(why), "%s role server status error reason %s", PROTO_HELLO,
		     tmp);
}

/* The client's hello and run, this side's QPs for it, the answer. 0, or -1
 * with the run's error set (and the client told when it was refused). */
static int server_setup(struct rwv_ep *ep, struct rwv_conn *conn, int tmo)
{
	struct rwv_run *run = ep->run;
	char why[600], line[1024];

	int n = rwv_oob_readline(conn, tmo, line, sizeof(line), why, sizeof(why));
	if (n <= 0 || strncmp(line, PROTO_HELLO, strlen(PROTO_HELLO)) != 0)
		return fail_setup(ep, "%s", n < 0 ? why : n == 0 ? "the client closed the connection"
								 : "the client does not speak rocewire-verbs "
								   "exchange version 1");
	n = rwv_oob_readline(conn, tmo, line, sizeof(line), why, sizeof(why));
	if (n <= 0 || strncmp(line, "params ", 7) != 0)
		return fail_setup(ep, "%s", n < 0 ? why : "the client sent no 'params' line");
	if (merge_params(&ep->o, run, line, why, sizeof(why))) {
		server_refuse(conn, why);
		return fail_setup(ep, "refused the client's run: %s", why);
	}
	run->check = !ep->o.no_check;
	run->mtu = ep->o.mtu;
	run_params(run, &ep->o);
	if (rwv_resources(ep, true)) {
		server_refuse(conn, run->error);
		return -1;
	}
	if (recv_qps(ep, conn, tmo, why, sizeof(why)))
		return fail_setup(ep, "%s", why);
	for (int i = 0; i < ep->nqp; i++)
		if (rwv_connect_qp(ep, i)) {
			server_refuse(conn, run->error);
			return -1;
		}
	if (rwv_responder_prepare(ep, NULL)) {
		server_refuse(conn, run->error);
		return -1;
	}
	if (rwv_oob_send(conn, tmo, why, sizeof(why), "%s role server status ok", PROTO_HELLO) ||
	    rwv_oob_send(conn, tmo, why, sizeof(why),
			 "params mtu %d tclass %d no_recv %d rx_depth %d active_mtu %d", run->mtu,
			 run->tclass, ep->o.no_recv ? 1 : 0, ep->o.rx_depth, run->active_mtu) ||
	    send_qps(ep, conn, tmo, why, sizeof(why)))
		return fail_setup(ep, "%s", why);
	return 0;
}

/* The client's word at the end of the run. */
struct client_end {
	bool done;                 /* its "done" came */
	char st[16];               /* and its status */
	char reason[512];
	uint64_t *ops;             /* messages per QP, from its "qpdone" lines */
};

/* The run: sleep on the CQ channel and the connection; every line from the
 * client (a tick each second) must come within --timeout. */
static void server_wait(struct rwv_ep *ep, struct rwv_conn *conn, int tmo, struct client_end *ce)
{
	char why[600], line[1024];
	uint64_t deadline = rwv_now_ns() + (uint64_t)tmo * 1000000ull;

	while (!ce->done) {
		drain_recv(ep);
		if (rwv_stop_requested) {
			ep->run->interrupted = true;
			fail_setup(ep, "interrupted before the client finished");
			break;
		}
		if (rwv_now_ns() > deadline) {
			fail_setup(ep, "no word from the client %s for %d s", conn->peer, ep->o.timeout_s);
			break;
		}
		struct pollfd pf[2] = {{.fd = conn->fd, .events = POLLIN},
				       {.fd = ep->chan->fd, .events = POLLIN}};
		if (!rwv_oob_ready(conn)) {
			int r = poll(pf, 2, 200);
			if (r < 0 && errno != EINTR) {
				fail_setup(ep, "poll: %s", strerror(errno));
				break;
			}
			if (r > 0 && (pf[1].revents & POLLIN))
				rearm(ep);
			if (!(pf[0].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
		}
		int n = rwv_oob_readline(conn, tmo, line, sizeof(line), why, sizeof(why));
		if (n <= 0) {
			fail_setup(ep, "%s", n == 0 ? "the client closed the connection before "
						      "'done'" : why);
			break;
		}
		deadline = rwv_now_ns() + (uint64_t)tmo * 1000000ull;
		unsigned long long idx, cnt;
		if (strncmp(line, "qpdone ", 7) == 0 && rwv_kv_u64(line, "idx", &idx) == 0 &&
		    rwv_kv_u64(line, "completed", &cnt) == 0 && idx < (unsigned long long)ep->nqp) {
			ce->ops[idx] = cnt;
		} else if (strncmp(line, "done ", 5) == 0) {
			const char *reason = strstr(line, " reason ");
			rwv_kv(line, "status", ce->st, sizeof(ce->st));
			if (reason)
				snprintf(ce->reason, sizeof(ce->reason), "%s", reason + 8);
			ce->done = true;
		}
	}
}

/* Stragglers: a UD or UC receive may complete just after the sender's
 * completion. Wait for them briefly (200 ms without progress). */
static void server_stragglers(struct rwv_ep *ep)
{
	uint64_t want = (uint64_t)ep->o.iters * (uint64_t)ep->nqp, seen = recv_total(ep);
	uint64_t quiet = rwv_now_ns();

	while (seen < want && rwv_now_ns() - quiet < 200000000ull) {
		struct pollfd pf = {.fd = ep->chan->fd, .events = POLLIN};
		if (poll(&pf, 1, 20) > 0)
			rearm(ep);
		drain_recv(ep);
		uint64_t s2 = recv_total(ep);
		if (s2 != seen)
			quiet = rwv_now_ns();
		seen = s2;
	}
}

/* The data check and the exit status; the verdict sent to the client. */
static int server_verdict(struct rwv_ep *ep, struct rwv_conn *conn, int tmo, const struct client_end *ce)
{
	struct rwv_run *run = ep->run;
	bool client_ok = ce->done && strcmp(ce->st, "ok") == 0, recv_err = false;
	char why[600];

	if (run->check && client_ok) {
		rwv_check_buffer(ep, ce->ops, NULL, true);
		for (int i = 0; i < ep->nqp; i++) {
			struct rwv_qp_rec *q = &run->qp[i];
			if (rwv_op_uses_recv(ep->o.op))
				q->missing = q->recv_completed < ep->o.iters ? ep->o.iters - q->recv_completed : 0;
		}
	}
	for (int i = 0; i < ep->nqp; i++)
		recv_err = recv_err || run->qp[i].recv_failed;
	run->data_check = !ce->done ? "not-run"
			  : !client_ok && run->check ? "incomplete"
			  : data_verdict(run, ep->o.op != RWV_OP_READ);
	if (!ce->done)
		return RWV_EXIT_SETUP;
	int status = !client_ok || recv_err || !verdict_ok(run->data_check) ? RWV_EXIT_FAIL : RWV_EXIT_OK;
	uint64_t chk = 0, mm = 0, miss = 0;
	for (int i = 0; i < ep->nqp; i++) {
		chk += run->qp[i].checked;
		mm += run->qp[i].mismatched;
		miss += run->qp[i].missing;
	}
	rwv_oob_send(conn, tmo, why, sizeof(why), "verdict data_check %s checked %llu mismatched %llu missing %llu",
		     run->data_check, (unsigned long long)chk, (unsigned long long)mm, (unsigned long long)miss);
	if (status == RWV_EXIT_FAIL && !run->error[0] && !client_ok)
		fail_setup(ep, "the client reported an error: %s", ce->reason[0] ? ce->reason : "no reason given");
	else if (status == RWV_EXIT_FAIL && !run->error[0])
		fail_setup(ep, "%s", recv_err ? "a receive completed with an error" : "the data check failed");
	return status;
}

int rwv_run_server(const struct rwv_opts *o)
{
	struct rwv_run run;
	struct rwv_ep ep;
	struct rwv_conn conn = {.fd = -1};
	struct client_end ce = {0};
	uint64_t t0 = rwv_now_ns();
	int tmo = o->timeout_s * 1000;

	run_init(&run, &ep, o, "tcp");
	if (server_accept(&ep, &conn, tmo) || server_setup(&ep, &conn, tmo))
		goto setup_error;
	print_header(&ep, "server");
	ce.ops = calloc((size_t)ep.nqp, sizeof(*ce.ops));
	if (!ce.ops) {
		fail_setup(&ep, "out of memory");
		goto setup_error;
	}
	for (int i = 0; i < ep.nqp; i++)
		ce.ops[i] = ep.o.iters;
	server_wait(&ep, &conn, tmo, &ce);
	if (ce.done && rwv_op_uses_recv(ep.o.op) && !ep.o.no_recv)
		server_stragglers(&ep);
	run.elapsed_s = ep.last_ns > ep.first_ns ? secs(ep.last_ns - ep.first_ns) : 0;
	int status = server_verdict(&ep, &conn, tmo, &ce);
	server_summary(&ep);
	printf("  result: %s\n", status == RWV_EXIT_OK ? "pass" : "fail");
	fflush(stdout);
	free(ce.ops);
	rwv_oob_close(&conn);
	return finish(&ep, t0, status);

setup_error:
	free(ce.ops);
	rwv_oob_close(&conn);
	return finish(&ep, t0, RWV_EXIT_SETUP);
}

/* ------------------------------------------------------------ fixed peer */

/* The responder's ACKs go to the MAC the kernel resolves for the peer's IP; a
 * synthetic sender answers no ARP, so say so when no entry matches. */
static void check_neighbour(const struct rwv_run *r, const char *mac)
{
	uint8_t g[16];
	char ip[INET_ADDRSTRLEN], l[256], found[32] = "";
	FILE *f;

	if (rwv_gid_parse(r->remote_gid, g) || !rwv_gid_is_v4mapped(g))
		return;
	inet_ntop(AF_INET, g + 12, ip, sizeof(ip));
	f = fopen("/proc/net/arp", "r");
	if (f) {
		while (fgets(l, sizeof(l), f)) {
			char a[64], hw[32], flags[16], dev[32];
			unsigned type;
			if (sscanf(l, "%63s 0x%x %15s %31s %*s %31s", a, &type, flags, hw, dev) == 5 &&
			    strcmp(a, ip) == 0 && strcmp(flags, "0x0") != 0)
				snprintf(found, sizeof(found), "%s", hw);
		}
		fclose(f);
	}
	if (!found[0])
		fprintf(stderr, "rocewire-verbs: warning: no neighbour entry for %s: the replies "
			"wait for ARP, which a synthetic sender does not answer (ip neigh replace %s "
			"lladdr %s dev IFACE nud permanent)\n", ip, ip, mac ? mac : "MAC");
	else if (mac && strcasecmp(found, mac) != 0)
		fprintf(stderr, "rocewire-verbs: warning: the neighbour entry for %s is %s, not "
			"--remote-mac %s: the replies go to %s\n", ip, found, mac, found);
}

int rwv_run_fixed_peer(const struct rwv_opts *o)
{
	struct rwv_run run;
	struct rwv_ep ep;
	uint64_t t0 = rwv_now_ns();
	const struct rwv_fixed_pat *fp = o->have_fixed_pat ? &o->fixed_pat : NULL;
	uint8_t g[16];

	run_init(&run, &ep, o, "fixed-peer");
	run.check = o->check;
	if (rwv_dev_open(&ep))
		goto setup_error;
	run.mtu = o->mtu ? o->mtu : run.active_mtu;
	if (ep.o.size == 0)
		ep.o.size = (uint32_t)run.mtu;
	if (ep.o.transport == RWV_UD && ep.o.size > (uint32_t)run.active_mtu) {
		fail_setup(&ep, "--transport UD --size %u exceeds the active MTU %d of %s port %d",
			   ep.o.size, run.active_mtu, run.device, run.port);
		goto setup_error;
	}
	run_params(&run, &ep.o);
	rwv_gid_parse(o->remote_gid, g); /* validated by the option parser */
	rwv_gid_format(g, run.remote_gid, sizeof(run.remote_gid));
	if (o->remote_mac)
		snprintf(run.remote_mac, sizeof(run.remote_mac), "%s", o->remote_mac);
	if (rwv_resources(&ep, true))
		goto setup_error;
	struct rwv_qp_rec *q = &run.qp[0];
	q->remote.qpn = o->remote_qpn;
	q->remote.psn = o->remote_psn;
	q->remote.lid = o->remote_lid;
	q->remote.qkey = o->remote_qkey;
	if (run.link_layer[0] == 'E')
		check_neighbour(&run, o->remote_mac);
	if (rwv_connect_qp(&ep, 0) || rwv_responder_prepare(&ep, fp))
		goto setup_error;

	char *ready = rwv_fixed_peer_line(&run);
	if (!ready) {
		fail_setup(&ep, "out of memory");
		goto setup_error;
	}
	printf("%s\n", ready);
	fflush(stdout);
	free(ready);

	/* Wait for the sender: until all receives came, the buffer holds what
	 * --check expects, a signal, or --timeout. */
	uint64_t end = rwv_now_ns() + (uint64_t)o->timeout_s * 1000000000ull;
	bool recv_op = rwv_op_uses_recv(ep.o.op) && !ep.o.no_recv;
	bool poll_buf = run.check && (ep.o.op == RWV_OP_WRITE || rwv_op_is_atomic(ep.o.op));
	for (;;) {
		drain_recv_fp(&ep, fp);
		/* All receives in (the data of a WRITE_IMM lands before its
		 * completion), or a receive error, which leaves the QP in error. */
		if (recv_op && (recv_total(&ep) >= ep.o.iters || q->recv_failed))
			break;
		if (poll_buf && !recv_op && rwv_check_buffer(&ep, NULL, fp, false))
			break;
		if (rwv_stop_requested) {
			run.interrupted = true;
			break;
		}
		if (rwv_now_ns() > end)
			break;
		struct pollfd pf = {.fd = ep.chan->fd, .events = POLLIN};
		if (poll(&pf, 1, 50) > 0)
			rearm(&ep);
	}
	run.elapsed_s = ep.last_ns > ep.first_ns ? secs(ep.last_ns - ep.first_ns) : 0;

	bool recv_err = q->recv_failed > 0;
	if (run.check) {
		rwv_check_buffer(&ep, NULL, fp, true);
		if (rwv_op_uses_recv(ep.o.op))
			q->missing = q->recv_completed < ep.o.iters ? ep.o.iters - q->recv_completed : 0;
	}
	run.data_check = data_verdict(&run, ep.o.op != RWV_OP_READ);
	int status = recv_err || !verdict_ok(run.data_check) ? RWV_EXIT_FAIL : RWV_EXIT_OK;
	if (status == RWV_EXIT_FAIL && !run.error[0]) {
		if (strcmp(run.data_check, "incomplete") == 0)
			fail_setup(&ep, "%llu of %u messages arrived before the %s",
				   (unsigned long long)q->recv_completed, ep.o.iters,
				   run.interrupted ? "signal" : "timeout");
		else if (strcmp(run.data_check, "fail") == 0)
			fail_setup(&ep, "the data check failed: %s at iteration %llu offset %llu",
				   q->mm_what ? q->mm_what : "mismatch",
				   (unsigned long long)q->mm_iter, (unsigned long long)q->mm_offset);
	}
	run.exit_status = status;
	char *verdict = rwv_verdict_line(&run);
	if (verdict) {
		printf("%s\n", verdict);
		free(verdict);
	}
	fflush(stdout);
	return finish(&ep, t0, status);

setup_error:
	return finish(&ep, t0, RWV_EXIT_SETUP);
}
