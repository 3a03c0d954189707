/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-replay: replays a capture onto a wire, rewritten and re-signed.
 *
 * main owns the process: options, the reader, the output, the replay loop
 * (filters, rewrite through proto/, pacing), signals and the statistics.
 * Every byte of a header is read and written by proto/ (packet.h,
 * rewrite.h); this file only moves frames. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <net/if.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <jansson.h>
#include <pcap/pcap.h>
#ifdef ROCEWIRE_REPLAY_DPDK
#include <rte_version.h>

#include "rw_dpdk.h"
#endif

#include "opts.h"
#include "out.h"
#include "pace.h"
#include "reader.h"
#include "rocewire/link.h"
#include "rocewire/packet.h"
#include "rocewire/rewrite.h"
#include "stats.h"
#include "target.h"
#include "tmpfile.h"

#define EXIT_RUNTIME 1
#define EXIT_USAGE 2

static volatile int stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static void die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void die(int status, const char *fmt, ...)
{
	va_list ap;
	fputs("rocewire-replay: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

#ifdef ROCEWIRE_REPLAY_DPDK
/* An interface named by a DPDK vdev (net_af_packet's iface=, net_pcap's
 * iface=, rx_iface=, tx_iface=) that does not exist: said in one line
 * before EAL, which would log the failed probe over several. */
static void check_vdev_ifaces(int argc, char **argv)
{
	static const char *const keys[] = {"iface=", "tx_iface=", "rx_iface="};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strncmp(a, "--vdev", 6) != 0)
			continue;
		if (strcmp(a, "--vdev") == 0 && i + 1 < argc)
			a = argv[++i];
		for (const char *q = strchr(a, ','); q; q = strchr(q + 1, ',')) {
			for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
				size_t kl = strlen(keys[k]);
				if (strncmp(q + 1, keys[k], kl) != 0)
					continue;
				char name[IF_NAMESIZE + 1];
				size_t n = strcspn(q + 1 + kl, ",");
				if (n >= sizeof(name))
					n = sizeof(name) - 1;
				memcpy(name, q + 1 + kl, n);
				name[n] = '\0';
				if (!if_nametoindex(name))
					die(EXIT_USAGE, "%s: no such network interface (EAL option %s)", name, a);
			}
		}
	}
}
#endif

/* Whether any rewrite is asked: without one, frames go out as captured and
 * are decoded only for the filters that need it. */
static int rewrites_asked(const struct rw_rewrite *rw)
{
	struct rw_rewrite none;
	rw_rewrite_init(&none);
	return memcmp(rw, &none, sizeof(none)) != 0;
}

struct replay {
	struct rp_opts *o;
	struct rp_reader rd;
	struct rp_out out;
	struct rp_stats st;
	struct rw_decode_cfg dcfg;
	struct rw_rewrite_cache cache;
	struct rw_packet *decoded;   /* --preload: each frame decoded once */
	int rewrite, need_decode;
	uint64_t rng;
	/* pacing */
	int paced;
	uint64_t t0;                 /* monotonic ns at the start */
	uint64_t ts_first;           /* capture time of the first record */
	uint64_t ts_prev;            /* capture time of the previous record (this loop) */
	uint64_t loop_base;          /* capture-time ns the loops before this one took */
	uint64_t sched_bytes;        /* bytes scheduled, for --mbps */
	uint64_t sched_pkts;
	uint64_t batch_t[512];       /* intended times of the queued frames */
	uint32_t nbatch;
	/* progress */
	int progress;
	uint64_t next_progress;
};

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

static double cpu_seconds(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       (double)ru.ru_stime.tv_usec / 1e6;
}

static int flush(struct replay *r)
{
	if (!r->nbatch)
		return 0;
	if (r->out.ops->flush(&r->out) != 0)
		return -1;
	if (r->paced) {
		uint64_t now = rp_now_ns();
		for (uint32_t i = 0; i < r->nbatch; i++)
			rp_pace_err_add(&r->st.pace, now > r->batch_t[i] ? now - r->batch_t[i] : 0);
	}
	r->nbatch = 0;
	return 0;
}

/* When the frame should leave, on the monotonic clock. */
static uint64_t intended(struct replay *r, uint64_t ts, uint32_t len)
{
	const struct rp_opts *o = r->o;
	uint64_t t = r->t0;
	switch (o->timing) {
	case RP_TIME_CAPTURED:
		if (ts < r->ts_prev)
			ts = r->ts_prev; /* a capture's clock stepping back: no wait */
		r->ts_prev = ts;
		t += (uint64_t)((double)(r->loop_base + ts - r->ts_first) / o->multiplier);
		break;
	case RP_TIME_PPS:
		t += (uint64_t)((double)r->sched_pkts * 1e9 / o->pps);
		break;
	case RP_TIME_MBPS:
		t += (uint64_t)((double)r->sched_bytes * 8e3 / o->mbps);
		break;
	default:
		break;
	}
	r->sched_pkts++;
	r->sched_bytes += len;
	return t;
}

static void progress(struct replay *r)
{
	uint64_t now = rp_now_ns();
	if (now < r->next_progress)
		return;
	double s = (double)(now - r->t0) / 1e9;
	fprintf(stderr, "\r%7.1fs %12llu packets %10.0f pps %9.2f Mbit/s  loop %llu\033[K", s,
		(unsigned long long)r->st.sent, s > 0 ? (double)r->st.sent / s : 0,
		s > 0 ? (double)r->st.bytes * 8 / s / 1e6 : 0, (unsigned long long)r->st.loops + 1);
	r->next_progress = now + 1000000000u;
}

static int passes_filters(struct replay *r, const struct rp_rec *rec, const struct rw_packet *p)
{
	const struct rp_opts *o = r->o;
	if (rec->index < o->frame_first || rec->index > o->frame_last)
		return 0;
	if (o->have_time) {
		double t = (double)(rec->ts_ns - r->ts_first) / 1e9;
		if (rec->ts_ns < r->ts_first || t < o->time_from || t > o->time_to)
			return 0;
	}
	if (o->have_filter && !rp_filter_match(&o->filter, p, rec->caplen))
		return 0;
	if (o->n_qps || o->n_opcodes || o->target) {
		if (!(p->present & RW_P_BTH))
			return 0;
		int hit = !o->n_qps;
		for (uint32_t i = 0; i < o->n_qps && !hit; i++)
			hit = o->qps[i] == p->bth.dqpn;
		if (!hit)
			return 0;
		hit = !o->n_opcodes;
		for (uint32_t i = 0; i < o->n_opcodes && !hit; i++)
			hit = o->opcodes[i] == p->bth.opcode;
		if (!hit)
			return 0;
		/* re-targeting replays the requester's side only: the live
		 * responder answers for itself */
		if (o->target && !(p->op->flags & RW_OPF_REQUEST))
			return 0;
	}
	return 1;
}

/* One record: filters, the frame into the output's buffer, rewrites, the
 * wait for its time, the hand-over. 0, or -1 on an output failure. */
static int one(struct replay *r, const struct rp_rec *rec)
{
	struct rp_opts *o = r->o;
	struct rw_packet local, *pp = &local;
	int lt = r->rd.linktype;

	r->st.read++;
	if (rec->caplen < rec->wirelen) {
		r->st.skipped[RP_SKIP_CUT]++;
		return 0;
	}
	if (r->decoded)
		pp = &r->decoded[rec->index - 1];
	else if (r->need_decode || lt != RW_LINKTYPE_ETHERNET)
		rw_packet_decode(&r->dcfg, lt, rec->data, rec->caplen, rec->wirelen, pp);
	else
		pp->present = 0;
	const struct rw_packet *p = pp;
	if (!passes_filters(r, rec, p)) {
		r->st.skipped[RP_SKIP_FILTERED]++;
		return 0;
	}
	size_t cap, len;
	uint8_t *buf = r->out.ops->slot(&r->out, &cap);
	if (!buf)
		return -1;
	if (lt == RW_LINKTYPE_ETHERNET) {
		len = rec->caplen;
		if (len > cap) {
			r->st.skipped[RP_SKIP_TOO_LONG]++;
			return 0;
		}
		memcpy(buf, rec->data, len);
	} else {
		const uint8_t *dst = o->rw.set_dst_mac ? o->rw.dst_mac : NULL;
		enum rw_err e = rw_rewrite_to_ethernet(lt, p, rec->data, rec->caplen, dst, buf, cap, &len);
		if (e != RW_OK) {
			r->st.skipped[e == RW_ERR_NOSPACE    ? RP_SKIP_TOO_LONG
				      : e == RW_ERR_TRUNCATED ? RP_SKIP_CUT
							      : RP_SKIP_NO_ETHERNET]++;
			return 0;
		}
		if (r->rewrite || o->corrupt_rate > 0)
			rw_packet_decode(&r->dcfg, RW_LINKTYPE_ETHERNET, buf, len, len, &local);
		p = &local;
	}
	size_t len_before = len; /* the frame as captured, before any rewrite */
	struct rw_rewrite_result res;
	if (r->rewrite) {
		enum rw_err e = rw_rewrite_apply(&o->rw, &r->cache, p, buf, &len, cap, &res);
		if (e == RW_ERR_NOSPACE || e == RW_ERR_INVALID) {
			r->st.skipped[RP_SKIP_REWRITE]++;
			return 0;
		}
		if (e != RW_OK && (p->carrier == RW_CARRIER_ROCEV2 || p->carrier == RW_CARRIER_ROCEV1))
			r->st.undecodable++;
		if (res.applied) {
			r->st.rewritten++;
			for (uint32_t m = res.applied; m; m &= m - 1)
				r->st.rewrites[__builtin_ctz(m)]++;
		}
		r->st.icrc_updated += res.icrc_updated;
		r->st.icrc_fixed += res.icrc_fixed;
		r->st.ipv4_csum += res.ipv4_csum;
	}
	if (o->corrupt_rate > 0 && p->err == RW_OK && (p->present & RW_P_ICRC)) {
		uint64_t x = xorshift(&r->rng);
		/* the ICRC byte x & 3, its bit (x >> 2) & 7: the choice of the
		 * seeds of earlier versions, seed for seed */
		unsigned bit = (unsigned)((x & 3) * 8 + ((x >> 2) & 7));
		if ((double)(x >> 11) / 9007199254740992.0 < o->corrupt_rate &&
		    rw_rewrite_corrupt_icrc(p, r->rewrite ? &res : NULL, buf, len, bit) == RW_OK)
			r->st.icrc_corrupted++;
	}
	if (len < RW_ETH_MIN_FRAME && len_before >= RW_ETH_MIN_FRAME && cap >= RW_ETH_MIN_FRAME) {
		/* a frame a rewrite shortened (a VLAN tag stripped, RoCEv2 from
		 * RoCEv1) below the minimum it had is padded back to it, as a NIC
		 * would: RoCE finds its ICRC from the IP and UDP lengths, not the
		 * end. One captured shorter (before the sender's NIC padded it)
		 * stays as captured. */
		memset(buf + len, 0, RW_ETH_MIN_FRAME - len);
		len = RW_ETH_MIN_FRAME;
	}
	if (len > r->out.max_frame) {
		/* a VLAN tag is not counted by the MTU */
		struct rw_eth eth;
		int tagged = rw_eth_decode(buf, len, &eth) == RW_OK && rw_ethertype_is_vlan(eth.ethertype);
		if (len > r->out.max_frame + (tagged ? RW_VLAN_HLEN : 0)) {
			r->st.skipped[RP_SKIP_TOO_LONG]++;
			return 0;
		}
	}
	uint64_t t = intended(r, rec->ts_ns, (uint32_t)len);
	if (r->paced) {
		uint64_t now = rp_now_ns();
		if (t > now) {
			if (flush(r) != 0)
				return -1;
			rp_wait_until(t, &stop_flag);
		}
	}
	r->out.ops->commit(&r->out, len);
	r->batch_t[r->nbatch++] = t;
	r->st.sent++;
	r->st.bytes += len;
	if (r->nbatch >= r->out.burst && flush(r) != 0)
		return -1;
	return 0;
}

/* The loops over the file. 0 done (or stopped), 1 a bad record (r->rd.err),
 * -1 an output failure (r->out.err). */
static int run(struct replay *r)
{
	const struct rp_opts *o = r->o;
	uint64_t loop = 0;

	r->t0 = rp_now_ns();
	r->next_progress = r->t0 + 1000000000u;
	for (;;) {
		struct rp_rec rec;
		uint64_t last = 0, n = 0;
		int rc = 0;
		r->ts_prev = 0;
		while (!stop_flag && (rc = rp_reader_next(&r->rd, &rec)) == 1) {
			if (n++ == 0)
				r->ts_first = rec.ts_ns;
			if (rec.ts_ns > last)
				last = rec.ts_ns;
			if (one(r, &rec) != 0)
				return -1;
			if (r->progress && (r->paced || (r->st.read & 1023) == 0))
				progress(r);
		}
		if (stop_flag)
			break;
		if (rc < 0)
			return 1;
		r->st.loops++;
		if (n == 0)
			break; /* an empty file (or what a pipe left): nothing to loop */
		if (o->loops && ++loop >= o->loops)
			break;
		/* on the capture's clock the next pass starts where this one
		 * ended, plus the file's mean gap */
		uint64_t span = n && last > r->ts_first ? last - r->ts_first : 0;
		r->loop_base += span + (n > 1 ? span / (n - 1) : 0);
		if (rp_reader_rewind(&r->rd) != 0)
			return 1;
	}
	return 0;
}

/* The command line is EAL's options, "--", then ours when DPDK is the
 * output, else all ours. Ours, with argv[0], in a new array (freed by
 * main); *split is the index of "--", or -1. */
static char **main_own_args(int argc, char **argv, int *split, int *my_argc)
{
	*split = -1;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			*split = i;
			break;
		}
	char **my_argv = calloc((size_t)argc + 1, sizeof(*my_argv));
	if (!my_argv)
		die(EXIT_RUNTIME, "out of memory");
	*my_argc = 1;
	my_argv[0] = argv[0];
	for (int i = *split < 0 ? 1 : *split + 1; i < argc; i++)
		my_argv[(*my_argc)++] = argv[i];
	return my_argv;
}

/* Our options, and that they name exactly one output. 1 when --help or
 * --version has been answered, else 0 (a usage error exits). */
static int main_options(int my_argc, char **my_argv, int split, struct rp_opts *o)
{
	/* static: rp_version_libs points into it */
	static char libs[256];
	char err[600];

	snprintf(libs, sizeof(libs), "%s, jansson %s, %s", pcap_lib_version(), JANSSON_VERSION,
#ifdef ROCEWIRE_REPLAY_DPDK
		 rte_version()
#else
		 "no DPDK"
#endif
	);
	rp_version_libs = libs;
	int prc = rp_opts_parse(my_argc, my_argv, o, err, sizeof(err));
	if (prc == 1)
		return 1;
	if (prc < 0)
		die(EXIT_USAGE, "%s", err);
	o->dpdk = split > 0;
	int outputs = (o->iface != NULL) + (o->write != NULL) + o->dpdk;
	if (outputs == 0)
		die(EXIT_USAGE, "no output: give -i IF, -w FILE, or DPDK EAL options before \"--\"");
	if (outputs > 1)
		die(EXIT_USAGE, "one output only: -i IF, -w FILE, or DPDK EAL options before \"--\"");
#ifndef ROCEWIRE_REPLAY_DPDK
	if (o->dpdk || o->write)
		die(EXIT_USAGE, "%s: this rocewire-replay was built without DPDK; use -i IF",
		    o->write ? "-w" : "EAL options");
#endif

	if (strcmp(o->input, "-") == 0 && o->loops != 1 && !o->preload)
		die(EXIT_USAGE, "--loop: standard input cannot be read twice; add --preload");
	return 0;
}

/* The input and what the replay loop needs to know of it and the options.
 * The input opens first: a bad file is answered before any output opens. */
static void main_input(struct replay *r, struct rp_opts *o)
{
	char err[600];

	memset(r, 0, sizeof(*r));
	r->o = o;
	if (rp_reader_open(&r->rd, o->input, o->preload) != 0)
		die(EXIT_USAGE, "%s", r->rd.err);
	if (r->rd.linktype == RW_LINKTYPE_INFINIBAND)
		die(EXIT_USAGE, "%s: link type InfiniBand (247): native IB frames have no Ethernet form to "
				"replay", o->input);
	if (o->target && rp_target_apply(o, err, sizeof(err)) != 0)
		die(EXIT_USAGE, "%s", err);
	r->rewrite = rewrites_asked(&o->rw);
	r->need_decode = r->rewrite || o->n_qps || o->n_opcodes || o->target || o->corrupt_rate > 0 || o->have_filter;
	r->dcfg.no_icrc_check = 1; /* rewrite.c computes what it needs */
	r->rng = o->seed ? o->seed : 1;
	r->paced = o->timing != RP_TIME_TOPSPEED;
	/* --preload keeps the frames' decodes too (528 bytes a frame, up to
	 * 256 MiB): every loop then only copies, rewrites and re-signs */
	if (o->preload && r->need_decode && r->rd.linktype == RW_LINKTYPE_ETHERNET &&
	    r->rd.n <= (256u << 20) / sizeof(struct rw_packet)) {
		r->decoded = calloc(r->rd.n ? r->rd.n : 1, sizeof(*r->decoded));
		for (uint64_t i = 0; r->decoded && i < r->rd.n; i++) {
			const struct rp_pre *x = &r->rd.idx[i];
			rw_packet_decode(&r->dcfg, r->rd.linktype, r->rd.mem + x->off, x->caplen, x->wirelen,
					 &r->decoded[i]);
		}
	}
	r->progress = o->progress < 0 ? isatty(STDERR_FILENO) : o->progress;
}

/* The output: an AF_PACKET socket (-i), or DPDK, through the user's EAL
 * options or net_pcap writing -w's file (to a temporary name, *tmp_pcap,
 * renamed at the end). Its name for the statistics into outname. */
static void main_output(struct replay *r, const struct rp_opts *o, int split, char **argv,
			char **tmp_pcap, char *outname, size_t outcap)
{
	int rc;

	if (o->iface) {
		rc = rp_out_afpacket_open(&r->out, o->iface, o->burst);
		if (rc != 0)
			die(rc == 2 ? EXIT_USAGE : EXIT_RUNTIME, "%s", r->out.err);
		snprintf(outname, outcap, "%s", r->out.name);
		return;
	}
#ifdef ROCEWIRE_REPLAY_DPDK
	static struct rw_dpdk_args eal; /* EAL keeps pointers into it */
	char err[600];
	if (o->dpdk) {
		check_vdev_ifaces(split, argv);
		if (rw_dpdk_args_user(&eal, argv[0], split - 1, argv + 1, err, sizeof(err)) != 0)
			die(EXIT_USAGE, "%s", err);
	} else {
		FILE *tf = cap_create_temp(o->write, ".part", tmp_pcap);
		if (!tf)
			die(EXIT_USAGE, "-w %s: %s", o->write, strerror(errno));
		fclose(tf);
		if (rw_dpdk_args_pcap(&eal, argv[0], *tmp_pcap, 0, 256, err, sizeof(err)) != 0) {
			unlink(*tmp_pcap);
			die(EXIT_USAGE, "-w %s", err);
		}
	}
	rc = rp_out_dpdk_open(&r->out, &eal, o->port, o->burst);
	if (rc != 0) {
		if (*tmp_pcap)
			unlink(*tmp_pcap);
		die(rc == 2 ? EXIT_USAGE : EXIT_RUNTIME, "%s", r->out.err);
	}
	if (o->write)
		snprintf(outname, outcap, "%s (net_pcap)", o->write);
	else
		snprintf(outname, outcap, "%s", r->out.name);
#else
	(void)split;
	(void)argv;
	(void)tmp_pcap;
	die(EXIT_USAGE, "built without DPDK");
#endif
}

/* After the run (rc as run() returns it): the last burst, the errors, the
 * output closed (and -w's file given its name), the statistics. The exit
 * status. */
static int main_finish(struct replay *r, const struct rp_opts *o, int rc, double cpu0,
		       char *tmp_pcap, const char *outname)
{
	int exit_status = 0;

	if (rc == 0 && flush(r) != 0)
		rc = -1;
	r->st.wall_s = (double)(rp_now_ns() - r->t0) / 1e9;
	r->st.cpu_s = cpu_seconds() - cpu0;
	r->st.interrupted = stop_flag;
	r->st.full_waits = r->out.full_waits;
	if (r->progress)
		fputs("\r\033[K", stderr);
	if (rc == 1) {
		fprintf(stderr, "rocewire-replay: %s\n", r->rd.err);
		r->st.error = 1;
		exit_status = EXIT_USAGE;
	} else if (rc < 0) {
		fprintf(stderr, "rocewire-replay: %s\n", r->out.err);
		exit_status = EXIT_RUNTIME;
	}
	r->out.ops->close(&r->out);
	if (tmp_pcap) {
		if (rename(tmp_pcap, o->write) != 0) {
			fprintf(stderr, "rocewire-replay: -w %s: %s\n", o->write, strerror(errno));
			unlink(tmp_pcap);
			exit_status = EXIT_RUNTIME;
		}
		free(tmp_pcap);
	}
	static const char *const timing_names[] = {"as captured", "pps", "mbps", "topspeed"};
	struct rp_run_info ri = {o->input, outname, timing_names[o->timing],
				 o->timing == RP_TIME_PPS ? o->pps : o->timing == RP_TIME_MBPS ? o->mbps : o->multiplier};
	if (!o->quiet)
		rp_stats_text(stderr, &ri, &r->st);
	if (o->summary_json && rp_stats_json(o->summary_json, &ri, &r->st) != 0) {
		fprintf(stderr, "rocewire-replay: --summary-json %s: %s\n", o->summary_json, strerror(errno));
		exit_status = EXIT_RUNTIME;
	}
	return exit_status;
}

int main(int argc, char **argv)
{
	struct rp_opts o;
	struct replay r;
	char *tmp_pcap = NULL, outname[4300];
	int split, my_argc;

	char **my_argv = main_own_args(argc, argv, &split, &my_argc);
	if (main_options(my_argc, my_argv, split, &o) == 1) {
		free(my_argv);
		return 0;
	}
	main_input(&r, &o);
	main_output(&r, &o, split, argv, &tmp_pcap, outname, sizeof(outname));
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	double cpu0 = cpu_seconds();
	int rc = run(&r);
	int exit_status = main_finish(&r, &o, rc, cpu0, tmp_pcap, outname);
	rp_reader_close(&r.rd);
	free(r.decoded);
	free(my_argv);
	return exit_status;
}
