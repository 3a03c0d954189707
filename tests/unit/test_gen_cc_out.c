/* SPDX-License-Identifier: BSD-3-Clause */
/* The fct/pfc/qlen writers: exact file contents in both formats, files
 * written whole or not at all (nothing before close, nothing after an
 * error, nothing left behind when a file cannot be created). */
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cc_out.h"
#include "rw_test_util.h"

static const uint8_t ip_a[16] = { 10, 0, 0, 1 }, ip_b[16] = { 10, 0, 0, 2 };
static const uint8_t ip6_a[16] = { 0xfd, 0, [15] = 1 }, ip6_b[16] = { 0xfd, 0, [15] = 2 };

static void make_dir(char *dir, size_t cap)
{
	snprintf(dir, cap, "/tmp/rw-ccout-XXXXXX");
	assert_non_null(mkdtemp(dir));
}

/* Entries of dir other than . and .. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	struct dirent *e;
	char p[1024];
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		unlink(p);
	}
	closedir(d);
	assert_int_equal(rmdir(dir), 0);
}

static void expect_file(const char *path, const char *want)
{
	FILE *fp = fopen(path, "r");
	if (!fp)
		fail_msg("%s: not written", path);
	char buf[4096];
	size_t n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = 0;
	assert_string_equal(buf, want);
}

static void config(struct gen_congestion_outputs *cfg, const char *dir, enum gen_cc_format fmt)
{
	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->fct, sizeof(cfg->fct), "%s/fct.out", dir);
	snprintf(cfg->pfc, sizeof(cfg->pfc), "%s/pfc.out", dir);
	snprintf(cfg->qlen, sizeof(cfg->qlen), "%s/qlen.out", dir);
	cfg->qlen_interval_ns = 1000;
	cfg->format = fmt;
}

/* The same run in both formats: two messages (IPv4, IPv6 with a name that
 * CSV must quote), a PFC frame pausing 3 and resuming 5, a storm's XOFF
 * downstream, and a queue sample of priorities 0 and 3. */
static void write_run(struct cc_out *o)
{
	struct cc_out_msg m = { .flow = "incast1", .af = 4, .src_ip = ip_a, .dst_ip = ip_b, .src_qpn = 0x100,
				.dst_qpn = 0x200, .op = GEN_OP_WRITE, .bytes = 65536, .start_ns = 1000,
				.end_ns = 8500, .ideal_ns = 6529 };
	assert_int_equal(cc_out_fct(o, &m), 0);
	m = (struct cc_out_msg){ .flow = "a,\"b\"", .af = 6, .src_ip = ip6_a, .dst_ip = ip6_b, .src_qpn = 7,
				 .dst_qpn = 9, .op = GEN_OP_READ, .bytes = 0, .start_ns = 20, .end_ns = 10,
				 .ideal_ns = 1 };
	assert_int_equal(cc_out_fct(o, &m), 0);
	struct cc_sw_pfc f = { .t_ns = 4242, .dir = CC_SW_PFC_UPSTREAM, .cev = 1u << 3 | 1u << 5 };
	f.quanta[3] = 0xFFFF;
	f.quanta[5] = 0;
	f.quanta[4] = 77; /* not enabled: not written */
	assert_int_equal(cc_out_pfc_frame(o, &f), 0);
	assert_int_equal(cc_out_pfc(o, 5000, 2, 300, CC_SW_PFC_DOWNSTREAM), 0);
	struct cc_sw_qlen q = { .t_ns = 6000, .total = 3072 };
	q.bytes[0] = 1024;
	q.bytes[3] = 2048;
	q.bytes[7] = 5; /* not in the mask */
	assert_int_equal(cc_out_qlen_sample(o, &q, 1u << 0 | 1u << 3), 0);
	assert_int_equal(cc_out_qlen(o, 7000, 3, 0), 0);
}

static void run_format(enum gen_cc_format fmt, const char *fct, const char *pfc, const char *qlen)
{
	char dir[64], err[512];
	make_dir(dir, sizeof(dir));
	struct gen_congestion_outputs cfg;
	config(&cfg, dir, fmt);
	struct cc_out o;
	assert_int_equal(cc_out_open(&o, &cfg, err, sizeof(err)), 0);
	write_run(&o);
	/* Before close: three temporaries, no final name. */
	assert_int_equal(entries(dir), 3);
	assert_int_equal(access(cfg.fct, F_OK), -1);
	assert_int_equal(access(cfg.qlen, F_OK), -1);
	assert_int_equal(cc_out_close(&o, 1, err, sizeof(err)), 0);
	assert_int_equal(entries(dir), 3);
	expect_file(cfg.fct, fct);
	expect_file(cfg.pfc, pfc);
	expect_file(cfg.qlen, qlen);
	/* A second close is harmless. */
	assert_int_equal(cc_out_close(&o, 1, err, sizeof(err)), 0);
	remove_dir(dir);
}

static void test_csv(void **state)
{
	(void)state;
	run_format(GEN_CC_CSV,
		   "flow,src,dst,src_qpn,dst_qpn,op,bytes,start_ns,end_ns,fct_ns,ideal_ns\n"
		   "incast1,10.0.0.1,10.0.0.2,256,512,write,65536,1000,8500,7500,6529\n"
		   "\"a,\"\"b\"\"\",fd00::1,fd00::2,7,9,read,0,20,10,0,1\n",
		   "time_ns,dir,prio,event,quanta\n"
		   "4242,upstream,3,pause,65535\n"
		   "4242,upstream,5,resume,0\n"
		   "5000,downstream,2,pause,300\n",
		   "time_ns,prio,bytes\n"
		   "6000,0,1024\n"
		   "6000,3,2048\n"
		   "7000,3,0\n");
}

static void test_jsonl(void **state)
{
	(void)state;
	run_format(GEN_CC_JSONL,
		   "{\"flow\":\"incast1\",\"src\":\"10.0.0.1\",\"dst\":\"10.0.0.2\",\"src_qpn\":256,\"dst_qpn\":512,"
		   "\"op\":\"write\",\"bytes\":65536,\"start_ns\":1000,\"end_ns\":8500,\"fct_ns\":7500,\"ideal_ns\":6529}\n"
		   "{\"flow\":\"a,\\\"b\\\"\",\"src\":\"fd00::1\",\"dst\":\"fd00::2\",\"src_qpn\":7,\"dst_qpn\":9,"
		   "\"op\":\"read\",\"bytes\":0,\"start_ns\":20,\"end_ns\":10,\"fct_ns\":0,\"ideal_ns\":1}\n",
		   "{\"time_ns\":4242,\"dir\":\"upstream\",\"prio\":3,\"event\":\"pause\",\"quanta\":65535}\n"
		   "{\"time_ns\":4242,\"dir\":\"upstream\",\"prio\":5,\"event\":\"resume\",\"quanta\":0}\n"
		   "{\"time_ns\":5000,\"dir\":\"downstream\",\"prio\":2,\"event\":\"pause\",\"quanta\":300}\n",
		   "{\"time_ns\":6000,\"prio\":0,\"bytes\":1024}\n"
		   "{\"time_ns\":6000,\"prio\":3,\"bytes\":2048}\n"
		   "{\"time_ns\":7000,\"prio\":3,\"bytes\":0}\n");
}

/* Only the files named are written; the others' records do nothing. */
static void test_some_files(void **state)
{
	(void)state;
	char dir[64], err[512];
	make_dir(dir, sizeof(dir));
	struct gen_congestion_outputs cfg;
	config(&cfg, dir, GEN_CC_CSV);
	cfg.fct[0] = cfg.qlen[0] = 0;
	struct cc_out o;
	assert_int_equal(cc_out_open(&o, &cfg, err, sizeof(err)), 0);
	write_run(&o);
	assert_int_equal(cc_out_close(&o, 1, err, sizeof(err)), 0);
	assert_int_equal(entries(dir), 1);
	expect_file(cfg.pfc, "time_ns,dir,prio,event,quanta\n"
			     "4242,upstream,3,pause,65535\n"
			     "4242,upstream,5,resume,0\n"
			     "5000,downstream,2,pause,300\n");
	/* No file at all. */
	memset(&cfg, 0, sizeof(cfg));
	assert_int_equal(cc_out_open(&o, &cfg, err, sizeof(err)), 0);
	write_run(&o);
	assert_int_equal(cc_out_close(&o, 1, NULL, 0), 0);
	assert_int_equal(entries(dir), 1);
	remove_dir(dir);
}

/* A file that cannot be created: one line, and the files already created
 * are removed. */
static void test_unwritable(void **state)
{
	(void)state;
	char dir[64], err[512], want[1024];
	make_dir(dir, sizeof(dir));
	struct gen_congestion_outputs cfg;
	config(&cfg, dir, GEN_CC_CSV);
	snprintf(cfg.qlen, sizeof(cfg.qlen), "%s/missing/qlen.out", dir);
	struct cc_out o;
	assert_int_equal(cc_out_open(&o, &cfg, err, sizeof(err)), -1);
	snprintf(want, sizeof(want),
		 "%s/missing/qlen.out: cannot create the qlen file (written as %s/missing/qlen.out.XXXXXX.part until "
		 "complete): No such file or directory",
		 dir, dir);
	assert_string_equal(err, want);
	assert_int_equal(entries(dir), 0);
	/* A directory the user may not write to (root may: then it loads). */
	char ro[128];
	snprintf(ro, sizeof(ro), "%s/ro", dir);
	assert_int_equal(mkdir(ro, 0500), 0);
	config(&cfg, ro, GEN_CC_JSONL);
	if (geteuid() != 0) {
		assert_int_equal(cc_out_open(&o, &cfg, err, sizeof(err)), -1);
		assert_non_null(strstr(err, ": Permission denied"));
		assert_int_equal(entries(ro), 0);
	}
	chmod(ro, 0700);
	rmdir(ro);
	remove_dir(dir);
}

/* A run that failed part way: close without commit leaves nothing. */
static void test_abort(void **state)
{
	(void)state;
	char dir[64], err[512];
	make_dir(dir, sizeof(dir));
	struct gen_congestion_outputs cfg;
	config(&cfg, dir, GEN_CC_CSV);
	/* An older complete file of the same name stays as it was. */
	FILE *fp = fopen(cfg.fct, "w");
	assert_non_null(fp);
	fputs("old\n", fp);
	fclose(fp);
	struct cc_out o;
	assert_int_equal(cc_out_open(&o, &cfg, err, sizeof(err)), 0);
	write_run(&o);
	assert_int_equal(entries(dir), 4);
	assert_int_equal(cc_out_close(&o, 0, err, sizeof(err)), 0);
	assert_int_equal(entries(dir), 1);
	expect_file(cfg.fct, "old\n");
	assert_int_equal(access(cfg.pfc, F_OK), -1);
	remove_dir(dir);
}

/* A write error (a full disk) in one file: close reports it, and no file
 * of the set takes its name. */
static void test_write_error(void **state)
{
	(void)state;
	char dir[64], err[512], want[512];
	make_dir(dir, sizeof(dir));
	struct gen_congestion_outputs cfg;
	config(&cfg, dir, GEN_CC_CSV);
	struct cc_out o;
	assert_int_equal(cc_out_open(&o, &cfg, err, sizeof(err)), 0);
	FILE *full = fopen("/dev/full", "w");
	if (!full) {
		cc_out_close(&o, 0, NULL, 0);
		remove_dir(dir);
		skip();
	}
	fclose(o.fp[CC_OUT_PFC]);
	o.fp[CC_OUT_PFC] = full;
	/* Buffered: the error shows at the latest when the file is flushed. */
	for (int i = 0; i < 2000; i++)
		cc_out_pfc(&o, (uint64_t)i, 3, 0xFFFF, CC_SW_PFC_UPSTREAM);
	assert_int_equal(cc_out_qlen(&o, 1, 0, 1), 0);
	assert_int_equal(cc_out_close(&o, 1, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: write error, pfc file not written: No space left on device", cfg.pfc);
	assert_string_equal(err, want);
	assert_int_equal(entries(dir), 0);
	remove_dir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv),	    cmocka_unit_test(test_jsonl),	cmocka_unit_test(test_some_files),
		cmocka_unit_test(test_unwritable), cmocka_unit_test(test_abort), cmocka_unit_test(test_write_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
