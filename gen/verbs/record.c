/* SPDX-License-Identifier: BSD-3-Clause */
/* The JSON record of a run; the format is in README.md ("Record"). */
#include "record.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/verbs.h>

/* json_object_set_new with a check folded in: a failed allocation leaves the
 * key out and is caught by the final dump failing. */
#define SET(obj, key, val) json_object_set_new((obj), (key), (val))

static json_t *str_or_null(const char *s)
{
	return s && s[0] ? json_string(s) : json_null();
}

static json_t *u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

static const char *status_name(int status)
{
	return ibv_wc_status_str((enum ibv_wc_status)status);
}

static json_t *mismatch_json(const struct rwv_qp_rec *q)
{
	json_t *m = json_object();
	SET(m, "what", json_string(q->mm_what ? q->mm_what : "data"));
	SET(m, "iteration", u64(q->mm_iter));
	SET(m, "offset", u64(q->mm_offset));
	if (q->mm_what && strcmp(q->mm_what, "value") == 0) {
		/* 64-bit atomic values do not fit a JSON integer safely: hex text. */
		char w[24], g[24];
		snprintf(w, sizeof(w), "0x%016llx", (unsigned long long)q->mm_want);
		snprintf(g, sizeof(g), "0x%016llx", (unsigned long long)q->mm_got);
		SET(m, "expected", json_string(w));
		SET(m, "got", json_string(g));
	} else {
		SET(m, "expected", u64(q->mm_want));
		SET(m, "got", u64(q->mm_got));
	}
	return m;
}

static json_t *side_json(const struct rwv_side *s, bool ud)
{
	json_t *o = json_object();
	SET(o, "qpn", u64(s->qpn));
	SET(o, "psn", u64(s->psn));
	SET(o, "rkey", u64(s->rkey));
	SET(o, "addr", u64(s->addr));
	SET(o, "len", u64(s->len));
	if (ud)
		SET(o, "qkey", u64(s->qkey));
	if (s->lid)
		SET(o, "lid", u64(s->lid));
	return o;
}

static json_t *qp_json(const struct rwv_run *r, const struct rwv_qp_rec *q)
{
	json_t *o = json_object(), *ops = json_object(), *op = json_object();
	json_t *wc = json_object(), *by = json_object(), *errs = json_array();
	bool ud = r->transport == RWV_UD;

	SET(o, "index", json_integer(q->index));
	/* Flat copies of the fields a capture check needs most. */
	SET(o, "local_qpn", u64(q->local.qpn));
	SET(o, "remote_qpn", u64(q->remote.qpn));
	SET(o, "local_psn", u64(q->local.psn));
	SET(o, "remote_psn", u64(q->remote.psn));
	SET(o, "mtu", json_integer(r->mtu));
	SET(o, "transport", json_string(rwv_transport_name(r->transport)));
	SET(o, "op", json_string(rwv_op_name(r->op)));
	SET(o, "local", side_json(&q->local, ud));
	SET(o, "remote", side_json(&q->remote, ud));

	SET(op, "posted", u64(q->posted));
	SET(op, "posted_bytes", u64(q->posted_bytes));
	SET(op, "completed", u64(q->completed));
	SET(op, "completed_bytes", u64(q->completed_bytes));
	SET(op, "failed", u64(q->failed));
	SET(ops, rwv_op_name(r->op), op);
	SET(o, "ops", ops);
	if (q->recv_posted || q->recv_completed || q->recv_failed) {
		json_t *rv = json_object();
		SET(rv, "posted", u64(q->recv_posted));
		SET(rv, "completed", u64(q->recv_completed));
		SET(rv, "bytes", u64(q->recv_bytes));
		SET(rv, "failed", u64(q->recv_failed));
		SET(o, "recv", rv);
	}

	uint64_t ok = q->wc_by_status[IBV_WC_SUCCESS];
	for (int s = 0; s < RWV_WC_STATUS_MAX; s++)
		if (q->wc_by_status[s])
			SET(by, status_name(s), u64(q->wc_by_status[s]));
	SET(wc, "total", u64(q->wc_total));
	SET(wc, "success", u64(ok));
	SET(wc, "error", u64(q->wc_total - ok));
	SET(wc, "by_status", by);
	SET(o, "completions", wc);
	for (int i = 0; i < q->nerrors; i++) {
		const struct rwv_wc_error *e = &q->errors[i];
		json_t *j = json_object();
		SET(j, "iteration", u64(e->iter));
		SET(j, "opcode", json_string(e->opcode));
		SET(j, "status", json_integer(e->status));
		SET(j, "status_str", json_string(status_name(e->status)));
		SET(j, "vendor_err", u64(e->vendor_err));
		json_array_append_new(errs, j);
	}
	SET(o, "completion_errors", errs);

	json_t *dc = json_object();
	SET(dc, "checked", u64(q->checked));
	SET(dc, "mismatched", u64(q->mismatched));
	SET(dc, "missing", u64(q->missing));
	SET(dc, "out_of_order", u64(q->out_of_order));
	if (q->have_mismatch) {
		json_t *m = mismatch_json(q);
		SET(dc, "first_mismatch", m);
	} else {
		SET(dc, "first_mismatch", json_null());
	}
	SET(o, "data_check", dc);

	if (r->opts && r->opts->role == RWV_CLIENT) {
		struct rwv_wire w;
		json_t *wj = json_object();
		rwv_wire_expect(r, q, &w);
		SET(wj, "request_packets", u64(w.request_packets));
		SET(wj, "response_packets", u64(w.response_packets));
		SET(wj, "psns", u64(w.psns));
		SET(wj, "first_psn", u64(q->local.psn));
		SET(wj, "next_psn", u64(w.next_psn));
		SET(o, "expected_wire", wj);
	}
	return o;
}

json_t *rwv_record_json(const struct rwv_run *r)
{
	const struct rwv_opts *o = r->opts;
	json_t *root = json_object();
	json_t *dev = json_object(), *gid = json_object(), *run = json_object();
	json_t *attrs = json_object(), *inj = json_object(), *qps = json_array();
	json_t *tot = json_object(), *perf = json_object(), *lat = json_object();
	json_t *dc = json_object();
	uint64_t posted = 0, completed = 0, bytes = 0, failed = 0, recvd = 0, rbytes = 0;

	SET(root, "format", json_string(RWV_RECORD_FORMAT));
	SET(root, "version", json_integer(RWV_RECORD_VERSION));
	SET(root, "tool_version", json_string(RWV_VERSION));
	SET(root, "role", json_string(o && o->role == RWV_CLIENT ? "client" : "server"));
	SET(root, "mode", json_string(r->mode ? r->mode : "tcp"));
	SET(root, "start_time", str_or_null(r->start_time));
	SET(root, "duration_s", json_real(r->duration_s));
	SET(root, "result", json_string(r->exit_status == RWV_EXIT_OK ? "pass"
				       : r->exit_status == RWV_EXIT_SETUP ? "setup-error"
				       : "fail"));
	SET(root, "exit_status", json_integer(r->exit_status));
	SET(root, "error", str_or_null(r->error));
	SET(root, "interrupted", json_boolean(r->interrupted));
	SET(root, "completion_timeout", json_boolean(r->cq_timeout));
	SET(root, "peer", str_or_null(r->peer));

	SET(dev, "name", str_or_null(r->device));
	SET(dev, "port", json_integer(r->port));
	SET(dev, "link_layer", str_or_null(r->link_layer));
	SET(dev, "active_mtu", json_integer(r->active_mtu));
	SET(root, "device", dev);

	SET(gid, "index", r->gid_index >= 0 ? json_integer(r->gid_index) : json_null());
	SET(gid, "type", str_or_null(r->gid_type));
	SET(gid, "local", str_or_null(r->local_gid));
	SET(gid, "remote", str_or_null(r->remote_gid));
	if (r->remote_mac[0])
		SET(gid, "remote_mac", json_string(r->remote_mac));
	SET(root, "gid", gid);

	SET(run, "transport", json_string(rwv_transport_name(r->transport)));
	SET(run, "op", json_string(rwv_op_name(r->op)));
	SET(run, "size", u64(r->size));
	SET(run, "iterations", u64(r->iters));
	SET(run, "qps", json_integer(r->qps));
	SET(run, "mtu", json_integer(r->mtu));
	SET(run, "inline", u64(r->inline_size));
	SET(run, "tx_depth", json_integer(r->tx_depth));
	SET(run, "rx_depth", json_integer(r->rx_depth));
	SET(run, "slots", u64(r->slots));
	SET(run, "slot_size", u64(r->slot_size));
	SET(run, "traffic_class", json_integer(r->tclass));
	SET(run, "sl", json_integer(r->sl));
	SET(run, "hop_limit", json_integer(r->hop_limit));
	SET(run, "data_check_enabled", json_boolean(r->check));
	SET(root, "run", run);

	SET(attrs, "retry_count", json_integer(r->retry_count));
	SET(attrs, "timeout_exp", json_integer(r->timeout_exp));
	SET(attrs, "rnr_retry", json_integer(r->rnr_retry));
	SET(attrs, "min_rnr_timer", json_integer(r->min_rnr_timer));
	SET(attrs, "max_rd_atomic", json_integer(r->max_rd_atomic));
	SET(attrs, "max_dest_rd_atomic", json_integer(r->max_dest_rd_atomic));
	SET(root, "qp_attr", attrs);

	SET(inj, "bad_rkey", json_boolean(r->bad_rkey));
	SET(inj, "no_recv", json_boolean(r->no_recv));
	SET(inj, "peer_no_recv", json_boolean(r->peer_no_recv));
	SET(root, "error_injection", inj);

	for (int i = 0; i < r->nqp; i++) {
		const struct rwv_qp_rec *q = &r->qp[i];
		json_array_append_new(qps, qp_json(r, q));
		posted += q->posted;
		completed += q->completed;
		bytes += q->completed_bytes;
		failed += q->failed + q->recv_failed;
		recvd += q->recv_completed;
		rbytes += q->recv_bytes;
	}
	SET(root, "qp", qps);

	SET(tot, "posted", u64(posted));
	SET(tot, "completed", u64(completed));
	SET(tot, "completed_bytes", u64(bytes));
	SET(tot, "recv_completed", u64(recvd));
	SET(tot, "recv_bytes", u64(rbytes));
	SET(tot, "completion_errors", u64(failed));
	SET(root, "totals", tot);

	uint64_t moved = bytes ? bytes : rbytes;
	uint64_t msgs = completed ? completed : recvd;
	SET(perf, "elapsed_s", json_real(r->elapsed_s));
	SET(perf, "gbps", json_real(r->elapsed_s > 0 ? moved * 8.0 / r->elapsed_s / 1e9 : 0));
	SET(perf, "msg_rate", json_real(r->elapsed_s > 0 ? msgs / r->elapsed_s : 0));
	SET(lat, "samples", u64(r->lat.samples));
	SET(lat, "min", json_real(r->lat.min_us));
	SET(lat, "p50", json_real(r->lat.p50_us));
	SET(lat, "p99", json_real(r->lat.p99_us));
	SET(lat, "max", json_real(r->lat.max_us));
	SET(lat, "mean", json_real(r->lat.mean_us));
	SET(perf, "latency_us", lat);
	SET(root, "performance", perf);

	SET(dc, "result", json_string(r->data_check ? r->data_check : "not-run"));
	SET(dc, "peer_result", str_or_null(r->peer_data_check));
	SET(root, "data_check", dc);
	return root;
}

int rwv_record_write(const struct rwv_run *r, const char *path, char *why, size_t whylen)
{
	char tmp[4096];
	json_t *j = rwv_record_json(r);

	if (!j) {
		snprintf(why, whylen, "cannot build the record: out of memory");
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (json_dump_file(j, tmp, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9))) {
		snprintf(why, whylen, "cannot write record %s: %s", tmp, strerror(errno));
		json_decref(j);
		return -1;
	}
	json_decref(j);
	if (rename(tmp, path)) {
		snprintf(why, whylen, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
		remove(tmp);
		return -1;
	}
	return 0;
}

char *rwv_fixed_peer_line(const struct rwv_run *r)
{
	const struct rwv_qp_rec *q = &r->qp[0];
	json_t *o = json_object();

	SET(o, "event", json_string("ready"));
	SET(o, "qpn", u64(q->local.qpn));
	SET(o, "psn", u64(q->local.psn));
	SET(o, "expected_psn", u64(q->remote.psn));
	SET(o, "rkey", u64(q->local.rkey));
	SET(o, "addr", u64(q->local.addr));
	SET(o, "len", u64(q->local.len));
	SET(o, "gid", str_or_null(r->local_gid));
	SET(o, "gid_index", json_integer(r->gid_index));
	if (q->local.lid)
		SET(o, "lid", u64(q->local.lid));
	if (r->transport == RWV_UD)
		SET(o, "qkey", u64(q->local.qkey));
	SET(o, "device", str_or_null(r->device));
	SET(o, "port", json_integer(r->port));
	SET(o, "transport", json_string(rwv_transport_name(r->transport)));
	SET(o, "op", json_string(rwv_op_name(r->op)));
	SET(o, "mtu", json_integer(r->mtu));
	SET(o, "size", u64(r->size));
	SET(o, "iterations", u64(r->iters));
	SET(o, "slots", u64(r->slots));
	SET(o, "slot_size", u64(r->slot_size));
	SET(o, "recv_posted", u64(q->recv_posted));
	char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	return s;
}

char *rwv_verdict_line(const struct rwv_run *r)
{
	const struct rwv_qp_rec *q = &r->qp[0];
	json_t *o = json_object();

	SET(o, "event", json_string("verdict"));
	SET(o, "result", json_string(r->exit_status == RWV_EXIT_OK ? "pass" : "fail"));
	SET(o, "exit_status", json_integer(r->exit_status));
	SET(o, "data_check", json_string(r->data_check ? r->data_check : "not-run"));
	SET(o, "recv_completed", u64(q->recv_completed));
	SET(o, "recv_failed", u64(q->recv_failed));
	SET(o, "checked", u64(q->checked));
	SET(o, "mismatched", u64(q->mismatched));
	SET(o, "missing", u64(q->missing));
	if (q->have_mismatch) {
		json_t *m = mismatch_json(q);
		SET(o, "first_mismatch", m);
	}
	SET(o, "interrupted", json_boolean(r->interrupted));
	SET(o, "error", str_or_null(r->error));
	char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	return s;
}
