/* SPDX-License-Identifier: BSD-3-Clause */
/* Header rewrites of a decoded frame, in place, with the RoCE ICRC patched
 * incrementally (rw_icrc_update) only when a byte it covers changed, the
 * IPv4 header checksum recomputed, and a non-zero UDP checksum updated.
 *
 * The rules are plain data filled by a tool (rocewire-replay parses them
 * from its options); rw_rewrite_apply() is the fast path: no allocation, a
 * copy of the covered headers (at most RW_RW_HDR_MAX bytes) and one CRC
 * patch over the span of bytes that changed, whatever the number of rules. */
#ifndef ROCEWIRE_REWRITE_H
#define ROCEWIRE_REWRITE_H

#include <stddef.h>
#include <stdint.h>
#include "rocewire/error.h"
#include "rocewire/packet.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RW_RW_MAX_MAP 16

/* Which rewrites changed a frame (struct rw_rewrite_result.applied). */
enum rw_rw_kind {
	RW_RW_MAC = 0,
	RW_RW_IP,
	RW_RW_UDP_SPORT,
	RW_RW_DSCP,
	RW_RW_ECN,
	RW_RW_TTL,
	RW_RW_UDP_CSUM,
	RW_RW_VLAN,
	RW_RW_QPN,
	RW_RW_PSN,
	RW_RW_PKEY,
	RW_RW_RKEY,
	RW_RW_VA,
	RW_RW_CONVERT,     /* RoCEv1 <-> RoCEv2 */
	RW_RW_KIND_COUNT,
};

/* addr & mask == from  ->  (to & mask) | (addr & ~mask): CIDR to CIDR of the
 * same prefix length (host bits kept). */
struct rw_rw_ip4map {
	uint32_t from, to, mask;
};
struct rw_rw_ip6map {
	uint8_t from[16], to[16];
	uint8_t plen;
};
struct rw_rw_map32 {
	uint32_t from, to;
};
/* va in [from, from + len) -> to + (va - from) */
struct rw_rw_vamap {
	uint64_t from, len, to;
};
/* PSN + offset (mod 2^24) for packets whose original destination QP is qpn
 * (any QP when all is set). */
struct rw_rw_psnoff {
	uint32_t qpn, offset;
	uint8_t all;
};

enum rw_rw_vlan_op {
	RW_RW_VLAN_KEEP = 0,
	RW_RW_VLAN_ADD,    /* push a C-tag (outermost) */
	RW_RW_VLAN_STRIP,  /* remove the outermost tag */
	RW_RW_VLAN_RETAG,  /* change the outermost tag's VID and PCP (or add one if untagged) */
};

enum rw_rw_udp_csum {
	RW_RW_CSUM_KEEP = 0, /* updated incrementally when non-zero and covered bytes changed */
	RW_RW_CSUM_ZERO,     /* 0: "no checksum", what RoCE NICs send */
	RW_RW_CSUM_FULL,     /* computed over the whole datagram */
};

enum rw_rw_convert {
	RW_RW_CONV_NONE = 0,
	RW_RW_CONV_TO_V2,  /* RoCEv1 (GRH) -> RoCEv2 (IPv4 for IPv4-mapped GIDs, else IPv6) */
	RW_RW_CONV_TO_V1,  /* RoCEv2 -> RoCEv1 (GIDs from the IP addresses) */
};

struct rw_rewrite {
	uint8_t set_src_mac, set_dst_mac;
	uint8_t src_mac[6], dst_mac[6];
	uint8_t n_ip4, n_ip6, n_qpn, n_psn, n_rkey, n_va;
	struct rw_rw_ip4map ip4[RW_RW_MAX_MAP];
	struct rw_rw_ip6map ip6[RW_RW_MAX_MAP];
	struct rw_rw_map32 qpn[RW_RW_MAX_MAP];   /* destination QPN */
	struct rw_rw_psnoff psn[RW_RW_MAX_MAP];
	struct rw_rw_map32 rkey[RW_RW_MAX_MAP];  /* RETH and AtomicETH */
	struct rw_rw_vamap va[RW_RW_MAX_MAP];    /* RETH and AtomicETH */
	int32_t udp_sport;  /* -1 keep; also the source port of RoCEv1 frames converted to v2 */
	int16_t dscp;       /* -1 keep; IPv4 TOS / IPv6 traffic class, masked by the ICRC */
	int16_t ecn;        /* -1 keep */
	int16_t ttl;        /* -1 keep; IPv4 TTL / IPv6 hop limit, masked */
	int32_t pkey;       /* -1 keep */
	enum rw_rw_udp_csum udp_csum;
	enum rw_rw_vlan_op vlan_op;
	uint16_t vlan_vid;
	uint8_t vlan_pcp;
	enum rw_rw_convert convert;
	uint8_t fix_icrc;      /* recompute the ICRC in full, a bad one included */
};

struct rw_rewrite_result {
	uint32_t applied;       /* 1u << enum rw_rw_kind, for each rewrite that changed a byte */
	uint8_t icrc_updated;   /* the ICRC was patched or recomputed */
	uint8_t icrc_fixed;     /* a bad ICRC was replaced by the right one (fix_icrc) */
	uint8_t ipv4_csum;      /* the IPv4 header checksum was recomputed */
	uint32_t icrc_off;      /* frame offset of the ICRC after the rewrite; 0 if none */
	uint32_t udp_off;       /* frame offset of RoCEv2's UDP header after the rewrite; 0 if none */
};

/* What one caller keeps between frames to patch faster. Zero it before
 * use; one per thread. Frames of one flow get the same rewrite: the same
 * bytes change the same way at the same distance from the ICRC, so the
 * ICRC changes by the same value (CRC-32 is linear), remembered here for
 * the last few such changes. */
#define RW_RW_CACHE_WAYS 4
#define RW_RW_CACHE_SPAN 64
struct rw_rewrite_cache_entry {
	size_t tail;            /* covered bytes after the change */
	uint32_t delta;         /* what the change adds to the ICRC */
	uint16_t len;           /* bytes of diff; 0: empty entry */
	uint64_t diff[RW_RW_CACHE_SPAN / 8]; /* old XOR new over the changed span, zero after len */
};
struct rw_rewrite_cache {
	size_t tail;            /* the CRC shift of the last tail length */
	uint32_t shift;
	int valid;
	unsigned next;          /* the entry replaced next */
	uint64_t hits, misses;
	struct rw_rewrite_cache_entry e[RW_RW_CACHE_WAYS];
};

/* Every field unchanged (-1 / KEEP / none). */
void rw_rewrite_init(struct rw_rewrite *rw);

/* Applies rw to one Ethernet frame (link type Ethernet) that p is the
 * decode of (rw_packet_decode over the same bytes), in place. *len is the
 * frame's length and may grow or shrink (VLAN push/strip, conversion) up to
 * cap. Every frame with an Ethernet header gets the Ethernet rewrites (MAC
 * addresses, VLAN tags; a MAC control frame never gets a tag), whatever
 * follows it. A RoCE frame also gets the others. A frame whose decode did
 * not end well gets only the Ethernet rewrites and p->err is returned; so is
 * RW_ERR_TRUNCATED for a RoCE frame whose ICRC was not captured and
 * RW_ERR_UNSUPPORTED for one whose headers are too long to patch. RW_OK
 * otherwise; RW_ERR_NOSPACE (no room for a tag or a conversion) or
 * RW_ERR_INVALID (a conversion's header did not encode) mean the frame was
 * left half rewritten: not to be sent. res->applied says what changed,
 * whatever is returned. The ICRC keeps a capture's error: a bad ICRC stays
 * bad by the same difference unless fix_icrc. The UDP checksum is made last,
 * over the frame's final bytes (after the ICRC, which it covers). cache may
 * be NULL. */
enum rw_err rw_rewrite_apply(const struct rw_rewrite *rw, struct rw_rewrite_cache *cache,
			     const struct rw_packet *p, uint8_t *frame, size_t *len, size_t cap,
			     struct rw_rewrite_result *res);

/* Flips one bit of a RoCE frame's ICRC, for negative tests: bit 0..31, byte
 * bit / 8 of the ICRC's four bytes on the wire, bit bit % 8 of it (0 the
 * least significant). A non-zero UDP checksum is updated to cover the frame
 * as sent (RFC 1624), so that a receiver finds a bad ICRC, not a bad UDP
 * checksum (rxe checks UDP first and counts the drop as a UDP error). The
 * offsets come from res when the frame went through rw_rewrite_apply(),
 * else (res NULL) from p, the decode of the frame as it is.
 * RW_ERR_UNSUPPORTED, frame untouched, when it has no whole ICRC. */
enum rw_err rw_rewrite_corrupt_icrc(const struct rw_packet *p, const struct rw_rewrite_result *res,
				    uint8_t *frame, size_t len, unsigned bit);

/* An Ethernet frame from a capture's frame of another link type: Linux SLL
 * and SLL2 (an Ethernet header is made from the link-layer address and
 * protocol, the destination from dst, or zero), ERF Ethernet records (the
 * frame wlen says, without the ERF header, its extension headers, the
 * 2-byte pad, the record's own padding and the FCS). ERF's header does not
 * say whether the FCS was captured (libpcap's DAG reader is told by
 * configuration, Wireshark by a metadata record, both assuming it was):
 * the last four bytes are taken for the FCS when they are the CRC-32 of
 * the frame (IEEE 802.3 3.2.9), or when the record's RX-error flag says
 * the card got the frame damaged; and a record that holds fewer bytes than
 * wlen less an FCS was cut: RW_ERR_TRUNCATED. Native InfiniBand has no
 * Ethernet form: RW_ERR_UNSUPPORTED. Writes into out (cap bytes), *out_len
 * the length. */
enum rw_err rw_rewrite_to_ethernet(int linktype, const struct rw_packet *p, const uint8_t *frame,
				   size_t len, const uint8_t *dst, uint8_t *out, size_t cap,
				   size_t *out_len);

/* The UDP checksum (RFC 768) of a RoCEv2 datagram of an IPv4 or IPv6
 * packet: ip is the IP header, udp_off the bytes from it to the UDP header
 * (IPv6 extension headers included), len the bytes from it through the end
 * of the UDP datagram. The pseudo-header's destination is the IP header's
 * (a Routing header's final destination, RFC 8200 8.1, is not looked up).
 * 0 is returned as 0xFFFF. */
uint16_t rw_udp_checksum(const uint8_t *ip, size_t udp_off, size_t len);

const char *rw_rw_kind_name(enum rw_rw_kind k); /* "mac", "ip", "qpn", ... */

#ifdef __cplusplus
}
#endif

#endif
