/* SPDX-License-Identifier: BSD-3-Clause */
/* Error codes shared by every decoder and encoder in librocewire. */
#ifndef ROCEWIRE_ERROR_H
#define ROCEWIRE_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

enum rw_err {
	RW_OK = 0,
	/* The buffer ends before the header does: a short capture (snaplen),
	 * not necessarily a bad packet. */
	RW_ERR_TRUNCATED,
	/* The bytes contradict the format: a bad version, a length field that
	 * is smaller than the header it describes, a reserved opcode. */
	RW_ERR_MALFORMED,
	/* Valid on the wire but not walked by this library (an IPv4
	 * fragment to rw_ipv4_decode, more than 4 VLAN tags,
	 * manufacturer-specific opcodes). rw_packet_decode calls a packet
	 * that is not RoCE "other" instead: IP fragments, what follows ESP
	 * or AH. */
	RW_ERR_UNSUPPORTED,
	/* An encoder's output buffer is too small. */
	RW_ERR_NOSPACE,
	/* A value does not fit its field (an encoder was given a 25-bit PSN). */
	RW_ERR_INVALID,
};

/* A short English phrase for an error ("truncated", ...); never NULL. */
const char *rw_strerror(enum rw_err err);

#ifdef __cplusplus
}
#endif

#endif
