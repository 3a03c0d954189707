/* SPDX-License-Identifier: BSD-3-Clause */
/* A pcap that net_pcap wrote carries the wall-clock time of each write;
 * when the generator did not pace in real time, those times say how fast
 * the file was written, not when the packets were sent. restamp puts the
 * model's times in their place, in place: the records are found with
 * capture's pcap reader, and only the 8 timestamp bytes of each are
 * rewritten. */
#include "restamp.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pcapfile.h"
#include "readring.h"

int gen_restamp(const char *path, const uint64_t *t_ns, uint64_t n, uint64_t base_ns, char *err,
		size_t errlen)
{
	struct cap_readring ring;
	struct cap_pcapfile pf;
	struct cap_pf_record r;
	struct stat st;
	uint64_t i = 0;
	int fd, rc, ret = -1;

	fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 || fstat(fd, &st) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (cap_readring_open(&ring, fd, (uint64_t)st.st_size, 1u << 20) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	rc = cap_pcapfile_open(&pf, &ring);
	if (rc != 1 || pf.pcapng) {
		snprintf(err, errlen, "%s: not a pcap file as net_pcap writes them", path);
		if (rc == 1)
			cap_pcapfile_close(&pf);
		cap_readring_close(&ring);
		close(fd);
		return -1;
	}
	while ((rc = cap_pcapfile_next(&pf, &r)) == CAP_PF_RECORD) {
		uint64_t t = base_ns + (i < n ? t_ns[i] : t_ns[n ? n - 1 : 0]);
		uint8_t b[8];

		cap_pcapfile_ts_bytes(&pf, t, b);
		if (pwrite(fd, b, 8, (off_t)r.offset) != 8) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			goto out;
		}
		i++;
		pf.keep = r.offset;
	}
	if (rc != CAP_PF_END) {
		snprintf(err, errlen, "%s: %s", path, pf.err[0] ? pf.err : "unreadable record");
		goto out;
	}
	if (i != n) {
		snprintf(err, errlen, "%s: %llu records for %llu packets sent", path,
			 (unsigned long long)i, (unsigned long long)n);
		goto out;
	}
	ret = 0;
out:
	cap_pcapfile_close(&pf);
	cap_readring_close(&ring);
	if (close(fd) != 0 && ret == 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		ret = -1;
	}
	return ret;
}
