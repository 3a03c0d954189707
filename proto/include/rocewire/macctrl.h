/* SPDX-License-Identifier: BSD-3-Clause */
/* MAC control frames on ethertype 0x8808: IEEE 802.3x PAUSE (opcode 0x0001)
 * and IEEE 802.1Qbb priority flow control (opcode 0x0101). */
#ifndef ROCEWIRE_MACCTRL_H
#define ROCEWIRE_MACCTRL_H

#include <stddef.h>
#include <stdint.h>
#include "rocewire/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RW_MACCTRL_PAUSE 0x0001
#define RW_MACCTRL_PFC 0x0101
#define RW_PAUSE_LEN 4 /* opcode + one pause time */
#define RW_PFC_LEN 20  /* opcode + class-enable vector + eight times */
#define RW_PFC_PRIORITIES 8

struct rw_macctrl {
	uint16_t opcode;
	/* PAUSE: quanta[0] is the pause time, cev is 0. PFC: bit n of cev
	 * enables priority n, quanta[n] is its pause time (0 resumes). */
	uint16_t cev;
	uint16_t quanta[RW_PFC_PRIORITIES];
};

/* buf points just after the ethertype. UNSUPPORTED for other opcodes. */
enum rw_err rw_macctrl_decode(const uint8_t *buf, size_t len, struct rw_macctrl *out);
/* Writes opcode and body; the caller pads the frame to 60 bytes. */
enum rw_err rw_macctrl_encode(const struct rw_macctrl *h, uint8_t *buf, size_t cap,
			      size_t *written);

/* One pause quantum is 512 bit times: nanoseconds for a link speed in Gb/s. */
static inline double rw_pause_quanta_ns(uint32_t quanta, double link_gbps)
{
	return (double)quanta * 512.0 / link_gbps;
}

#ifdef __cplusplus
}
#endif

#endif
