/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The path between the two taps of test_between_netns.sh: a tc (clsact,
 * egress, direct action) program on the router's interfaces that drops,
 * CE-marks and repeats RoCEv2 packets by a rule that is a pure function of
 * the BTH, so that the checker (between_netns_check.py) knows every
 * packet's fate without asking the kernel or rocewire. With
 * k = PSN + destination QP:
 *   k % DROP_MOD == DROP_REM  -> dropped;
 *   else k % MARK_MOD == MARK_REM and the packet is ECT -> marked CE;
 *   and, when not dropped, k % DUP_MOD == DUP_REM -> sent twice (a clone
 *   of the packet as marked, out of the same interface just before it).
 * Only IPv4 without options carrying UDP to port 4791 is looked at; every
 * other frame (ARP, ICMP) passes untouched. The IPv4 header checksum is
 * fixed after marking; the RoCEv2 ICRC does not cover the ECN bits (IBA
 * A17.3.3), so a marked packet keeps its ICRC right.
 *
 * Built by test_between_netns.sh: clang -O2 -target bpf -DDROP_MOD=...
 * -DDROP_REM=... -DMARK_MOD=... -DMARK_REM=... -DDUP_MOD=... -DDUP_REM=...
 * -c between_rule.bpf.c */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <stddef.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#ifndef DROP_MOD
#define DROP_MOD 7
#endif
#ifndef DROP_REM
#define DROP_REM 3
#endif
#ifndef MARK_MOD
#define MARK_MOD 5
#endif
#ifndef MARK_REM
#define MARK_REM 1
#endif

#ifndef DUP_MOD
#define DUP_MOD 11
#endif
#ifndef DUP_REM
#define DUP_REM 6
#endif

#define ROCEV2_PORT 4791
/* skb->mark of the clone, which passes through this program again on its
 * way out and must not be cloned a second time */
#define CLONE_MARK 0x52574231u
#define IP_OFF ETH_HLEN
#define UDP_OFF (IP_OFF + 20)
#define BTH_OFF (UDP_OFF + 8)

SEC("tc")
int between_rule(struct __sk_buff *skb)
{
	__u8 ip[20], udp[8], bth[12];
	__be16 proto;

	if (skb->mark == CLONE_MARK)
		return TC_ACT_OK;

	/* bpf_skb_load_bytes reads linear and paged data alike: a packet
	 * socket's frame may arrive with its headers in a page fragment */
	if (bpf_skb_load_bytes(skb, offsetof(struct ethhdr, h_proto), &proto, sizeof(proto)) < 0 ||
	    proto != bpf_htons(ETH_P_IP))
		return TC_ACT_OK;
	if (bpf_skb_load_bytes(skb, IP_OFF, ip, sizeof(ip)) < 0 || ip[0] != 0x45 || ip[9] != IPPROTO_UDP)
		return TC_ACT_OK;
	if ((ip[6] & 0x3f) || ip[7]) /* a fragment: no UDP header of its own */
		return TC_ACT_OK;
	if (bpf_skb_load_bytes(skb, UDP_OFF, udp, sizeof(udp)) < 0 ||
	    ((__u16)udp[2] << 8 | udp[3]) != ROCEV2_PORT)
		return TC_ACT_OK;
	if (bpf_skb_load_bytes(skb, BTH_OFF, bth, sizeof(bth)) < 0)
		return TC_ACT_OK;
	/* IBA 9.2: DestQP is BTH bytes 5-7, PSN bytes 9-11 */
	__u32 dqpn = (__u32)bth[5] << 16 | (__u32)bth[6] << 8 | bth[7];
	__u32 psn = (__u32)bth[9] << 16 | (__u32)bth[10] << 8 | bth[11];
	__u32 k = psn + dqpn;
	if (k % DROP_MOD == DROP_REM)
		return TC_ACT_SHOT;
	__u8 tos = ip[1];
	/* marked unless not ECN-capable or already CE */
	if ((tos & 3) != 0 && (tos & 3) != 3 && k % MARK_MOD == MARK_REM) {
		__u16 old, new;
		__builtin_memcpy(&old, ip, 2);
		((__u8 *)&new)[0] = ip[0];
		((__u8 *)&new)[1] = tos | 3;
		bpf_l3_csum_replace(skb, IP_OFF + offsetof(struct iphdr, check), old, new, 2);
		bpf_skb_store_bytes(skb, IP_OFF, &new, 2, 0);
	}
	if (k % DUP_MOD == DUP_REM) {
		__u32 mark = skb->mark;
		skb->mark = CLONE_MARK; /* the clone takes it; the original gets its own back */
		bpf_clone_redirect(skb, skb->ifindex, 0);
		skb->mark = mark;
	}
	return TC_ACT_OK;
}

char _license[] SEC("license") = "Dual BSD/GPL";
