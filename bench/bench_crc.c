/* SPDX-License-Identifier: BSD-3-Clause */
/* bench-crc: CRC-32 throughput of rw_crc32() against zlib's crc32() and
 * libdeflate_crc32(), measured in the same run on the same buffers.
 *
 * Usage: bench-crc [SECONDS]   SECONDS per table cell, default 0.3
 *
 * Each call is independent (a different initial value, results XORed into a
 * sink), as when every packet's ICRC is computed on its own, so the numbers
 * are throughput, not the latency of one call. Each cell is the best of three
 * runs of a third of SECONDS, the three libraries taking turns. Before timing,
 * the three must agree on every size at several alignments; exit status 1
 * if they do not. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "rocewire/crc.h"

#include <libdeflate.h>
#include <zlib.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum lib { LIB_RW, LIB_DEFLATE, LIB_ZLIB, NLIBS };

static const char *const lib_names[NLIBS] = { "rw_crc32", "libdeflate", "zlib" };
static const size_t sizes[] = { 64, 256, 1024, 4096 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))
#define MAX_OFFSET 64

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint32_t crc_once(enum lib lib, uint32_t init, const uint8_t *buf, size_t len)
{
	switch (lib) {
	case LIB_RW:
		return rw_crc32(init, buf, len);
	case LIB_DEFLATE:
		return libdeflate_crc32(init, buf, len);
	case LIB_ZLIB:
	default:
		return (uint32_t)crc32(init, buf, (uInt)len);
	}
}

/* One loop per library, so that no indirect call is timed. */
static uint32_t crc_loop(enum lib lib, const uint8_t *buf, size_t len, uint64_t iters)
{
	uint32_t sink = 0;

	switch (lib) {
	case LIB_RW:
		for (uint64_t i = 0; i < iters; i++)
			sink ^= rw_crc32((uint32_t)i, buf, len);
		break;
	case LIB_DEFLATE:
		for (uint64_t i = 0; i < iters; i++)
			sink ^= libdeflate_crc32((uint32_t)i, buf, len);
		break;
	case LIB_ZLIB:
	default:
		for (uint64_t i = 0; i < iters; i++)
			sink ^= (uint32_t)crc32((uLong)(uint32_t)i, buf, (uInt)len);
		break;
	}
	return sink;
}

static volatile uint32_t sink;

/* Iterations that take about `seconds`. */
static uint64_t calibrate(enum lib lib, const uint8_t *buf, size_t len, double seconds)
{
	uint64_t iters = 64;
	double t;

	for (;;) {
		double t0 = now();

		sink ^= crc_loop(lib, buf, len, iters);
		t = now() - t0;
		if (t >= 0.01 || iters >= (UINT64_C(1) << 40))
			break;
		iters *= 4;
	}
	iters = (uint64_t)((double)iters * seconds / (t > 1e-9 ? t : 1e-9));
	return iters > 0 ? iters : 1;
}

static int check_agree(const uint8_t *buf)
{
	static const uint32_t inits[] = { 0, 0xffffffffu, 0x12345678u };

	for (size_t s = 0; s < NSIZES; s++) {
		for (size_t off = 0; off < 16; off++) {
			for (size_t i = 0; i < sizeof(inits) / sizeof(inits[0]); i++) {
				uint32_t want = crc_once(LIB_ZLIB, inits[i], buf + off, sizes[s]);

				for (int lib = 0; lib < NLIBS; lib++) {
					uint32_t got = crc_once((enum lib)lib, inits[i], buf + off, sizes[s]);

					if (got == want)
						continue;
					fprintf(stderr,
						"bench-crc: %s disagrees with zlib on %zu bytes at offset %zu, initial 0x%08x: 0x%08x, expected 0x%08x\n",
						lib_names[lib], sizes[s], off, (unsigned)inits[i],
						(unsigned)got, (unsigned)want);
					return -1;
				}
			}
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	double seconds = 0.3;
	double gbps[NSIZES][NLIBS] = { { 0 } };
	uint8_t *buf;
	uint64_t x = 0x9e3779b97f4a7c15u;

	if (argc > 2) {
		fprintf(stderr, "usage: bench-crc [SECONDS]\n");
		return 2;
	}
	if (argc == 2) {
		char *end;

		errno = 0;
		seconds = strtod(argv[1], &end);
		if (errno != 0 || end == argv[1] || *end != '\0' || !(seconds >= 0.003 && seconds <= 60)) {
			fprintf(stderr,
				"bench-crc: SECONDS '%s': expected a number from 0.003 to 60 (time per table cell)\n",
				argv[1]);
			return 2;
		}
	}

	buf = aligned_alloc(64, 4096 + MAX_OFFSET);
	if (buf == NULL) {
		fprintf(stderr, "bench-crc: out of memory\n");
		return 1;
	}
	for (size_t i = 0; i < 4096 + MAX_OFFSET; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[i] = (uint8_t)(x >> 24);
	}
	if (check_agree(buf) != 0) {
		free(buf);
		return 1;
	}

	for (size_t s = 0; s < NSIZES; s++) {
		uint64_t iters[NLIBS];

		for (int lib = 0; lib < NLIBS; lib++)
			iters[lib] = calibrate((enum lib)lib, buf, sizes[s], seconds / 3);
		for (int run = 0; run < 3; run++) {
			for (int lib = 0; lib < NLIBS; lib++) {
				double t0 = now(), t, r;

				sink ^= crc_loop((enum lib)lib, buf, sizes[s], iters[lib]);
				t = now() - t0;
				r = (double)iters[lib] * (double)sizes[s] / t / 1e9;
				if (r > gbps[s][lib])
					gbps[s][lib] = r;
			}
		}
	}

	printf("CRC-32 throughput in GB/s (1e9 bytes/s), one core, best of 3 runs of %.3g s,\n"
	       "independent calls on a hot 64-byte-aligned buffer\n",
	       seconds / 3);
	printf("rw_crc32: %s; libdeflate %s; zlib %s\n", rw_crc32_impl(),
	       LIBDEFLATE_VERSION_STRING, zlibVersion());
#ifndef __OPTIMIZE__
	/* The library is built with the same flags as this program. */
	printf("warning: built without optimization (CMAKE_BUILD_TYPE=Debug or none?): rw_crc32 is slow\n");
#endif
	printf("\n");
	printf("%8s %10s %10s %10s %16s %10s\n", "size", "rw_crc32", "libdeflate", "zlib",
	       "ours/libdeflate", "ours/zlib");
	for (size_t s = 0; s < NSIZES; s++) {
		printf("%6zu B %10.2f %10.2f %10.2f %15.2fx %9.2fx\n", sizes[s], gbps[s][LIB_RW],
		       gbps[s][LIB_DEFLATE], gbps[s][LIB_ZLIB],
		       gbps[s][LIB_RW] / gbps[s][LIB_DEFLATE], gbps[s][LIB_RW] / gbps[s][LIB_ZLIB]);
	}
	free(buf);
	return 0;
}
