/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the pcap-reading path. The input is a whole capture file
 * (pcap or pcapng): libpcap reads it from a memory FILE, and every record is
 * decoded with rw_packet_decode() for the file's link type, as rocewire-cap
 * does. */
#include <pcap/pcap.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocewire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rw_packet p;
	char errbuf[PCAP_ERRBUF_SIZE];
	char msg[256];

	if (size == 0)
		return 0;
	/* fmemopen wants a writable buffer even for reading; keep the input const. */
	void *copy = malloc(size);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	FILE *fp = fmemopen(copy, size, "rb");
	if (!fp) {
		free(copy);
		return 0;
	}
	pcap_t *pc = pcap_fopen_offline(fp, errbuf);
	if (!pc) {
		fclose(fp); /* libpcap leaves the FILE open when it refuses it */
		free(copy);
		return 0;
	}
	int linktype = pcap_datalink(pc);
	struct pcap_pkthdr *h;
	const u_char *bytes;
	unsigned records = 0;
	/* Bounded: a record header costs at least 16 bytes of input. */
	while (records++ < 100000 && pcap_next_ex(pc, &h, &bytes) == 1) {
		rw_packet_decode(NULL, linktype, bytes, h->caplen, h->len, &p);
		rw_packet_error(&p, msg, sizeof msg);
	}
	pcap_close(pc); /* closes fp */
	free(copy);
	return 0;
}
