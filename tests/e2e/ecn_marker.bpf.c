/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* A congestion point for the closed-loop test, in the kernel's datapath: a
 * tc (clsact, egress, direct action) program that marks ECT IPv4 packets
 * CE the way a RED queue does, on a phantom queue — a byte counter drained
 * at the bottleneck's rate — instead of the real one. The host kernel has
 * no ECN-marking qdisc (CONFIG_NET_SCH_RED, fq_codel and pie are not set);
 * htb still does the rate limiting and queueing. Marking probability rises
 * from 0 at KMIN bytes to 1 at KMAX. The IPv4 header checksum is fixed; the
 * RoCEv2 ICRC does not cover the ECN bits.
 *
 * Built by test_gen_closed_loop.sh: clang -O2 -target bpf -DRATE_BPS=...
 * -DKMIN=... -DKMAX=... -c ecn_marker.bpf.c */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <stddef.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#ifndef RATE_BPS
#define RATE_BPS 200000000ULL
#endif
#ifndef KMIN
#define KMIN 20000
#endif
#ifndef KMAX
#define KMAX 80000
#endif

struct vq {
	__u64 last_ns;
	__u64 bytes;
	__u64 marked, seen;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct vq);
} vq_map SEC(".maps");

SEC("tc")
int ecn_mark(struct __sk_buff *skb)
{
	void *data, *end;
	struct ethhdr *eth;
	struct iphdr *ip;
	__u32 k = 0;
	struct vq *q;

	/* a packet socket's TX ring gives skbs whose headers may sit in a page
	 * fragment: make them linear first */
	data = (void *)(long)skb->data;
	end = (void *)(long)skb->data_end;
	if (data + ETH_HLEN + sizeof(struct iphdr) > end)
		bpf_skb_pull_data(skb, ETH_HLEN + sizeof(struct iphdr));
	data = (void *)(long)skb->data;
	end = (void *)(long)skb->data_end;
	eth = data;
	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return TC_ACT_OK;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end)
		return TC_ACT_OK;
	q = bpf_map_lookup_elem(&vq_map, &k);
	if (!q)
		return TC_ACT_OK;
	__u64 now = bpf_ktime_get_ns();
	__u64 drained = q->last_ns ? (now - q->last_ns) * (RATE_BPS / 8) / 1000000000ULL : 0;
	q->bytes = q->bytes > drained ? q->bytes - drained : 0;
	q->last_ns = now;
	q->bytes += skb->len;
	q->seen++;
	__u8 tos = ip->tos;
	if ((tos & 3) == 0 || (tos & 3) == 3)
		return TC_ACT_OK; /* not ECN-capable, or already marked */
	if (q->bytes <= KMIN)
		return TC_ACT_OK;
	if (q->bytes < KMAX && bpf_get_prandom_u32() % (KMAX - KMIN) >= q->bytes - KMIN)
		return TC_ACT_OK;
	__u16 old = *(__u16 *)ip, new;
	((__u8 *)&new)[0] = ((__u8 *)&old)[0];
	((__u8 *)&new)[1] = tos | 3;
	bpf_l3_csum_replace(skb, ETH_HLEN + offsetof(struct iphdr, check), old, new, 2);
	bpf_skb_store_bytes(skb, ETH_HLEN, &new, 2, 0);
	q->marked++;
	return TC_ACT_OK;
}

char _license[] SEC("license") = "Dual BSD/GPL";
