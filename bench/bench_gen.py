#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""rocewire-gen against dpdk-testpmd's txonly mode, in the same run.

    bench/bench_gen.py BUILD_DIR [SECONDS]

One forwarding lcore each (EAL -l 0-1: the main lcore and one worker), no
hugepages. testpmd sends one fixed UDP template and computes nothing;
rocewire-gen sends RoCEv2 conversations where every packet has its own PSN
and a correct ICRC. Frame sizes are matched: 62-byte frames (a UC SEND of 4
bytes; testpmd --txpkts=62), 1,098-byte frames (a UC WRITE of 1 KiB) and
4,170-byte frames (a UC WRITE of 4 KiB at MTU 4096). The last column is the
rate one lcore would put on an Ethernet wire (frame + FCS, preamble and gap),
against a 100 GbE port's line rate. Ports: net_null (the generator alone) and net_pcap into a file
(what the default run does). These flows are sent in lockstep (the man
page's PERFORMANCE; the bench fails if they are not); the rows "the model's
clock" send the same flows the way every other scenario goes
(ROCEWIRE_GEN_LOCKSTEP=0). Each rate is packets sent over the time from the
start of sending to SIGINT; the best of ROUNDS (default 3) runs.
"""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

EAL_BASE = ["--no-huge", "-m", "1024", "--no-pci", "--no-shconf", "--log-level=*:error"]
EAL = EAL_BASE + ["-l", "0-1"]
# Two forwarding lcores, one per CPU of a two-CPU machine: the main lcore
# (which only sleeps and prints) shares the first CPU with the first worker.
EAL2 = EAL_BASE + ["--lcores=0@0,1@0,2@1"]

SCEN = """name: bench-{name}
line_rate: 100Gbps
hosts:
  - {{name: a, mac: "02:00:00:00:00:01", ip: 10.0.0.1}}
  - {{name: b, mac: "02:00:00:00:00:02", ip: 10.0.0.2}}
flows:
  - name: f
    from: a
    to: b
    transport: uc
    ops: {op}
    size: {size}
    mtu: 4096
    rate: line
    qps: 16
    src_qpn: 0x100
    dst_qpn: 0x200
"""
# the same traffic as two flows of 8 QPs: one per TX queue and lcore
_FLOW_F = SCEN[SCEN.index("  - name: f"):].replace("    qps: 16\n", "    qps: 8\n")
SCEN2 = (SCEN.replace("    qps: 16\n", "    qps: 8\n") +
         _FLOW_F.replace("name: f", "name: g").replace("0x100", "0x180").replace("0x200", "0x280"))


def run_timed(cmd, seconds, start_marker):
    """Runs cmd, sends SIGINT `seconds` after start_marker appears on its
    output, returns (output, sending_seconds)."""
    # stdin open and silent: testpmd stops at end of file on it
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    t_start = None
    fd = p.stdout.fileno()
    os.set_blocking(fd, False)
    deadline = time.monotonic() + 60
    buf = ""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            chunk = b""
        if chunk:
            buf += chunk.decode("utf-8", "replace")
            if t_start is None and start_marker in buf:
                t_start = time.monotonic()
        if t_start is not None and time.monotonic() - t_start >= seconds:
            break
        if p.poll() is not None:
            break
        if time.monotonic() > deadline:
            p.kill()
            raise RuntimeError("no start: " + " ".join(cmd) + "\n" + buf[-2000:])
        time.sleep(0.01)
    t_stop = time.monotonic()
    p.send_signal(signal.SIGINT)
    os.set_blocking(fd, True)
    rest, _ = p.communicate(timeout=60)
    buf += (rest or b"").decode("utf-8", "replace")
    return buf, (t_stop - t_start) if t_start else None


def testpmd(frame, vdev, seconds, two=False):
    mbuf = max(2176, frame + 256)
    eal, more = (EAL2, ["--nb-cores=2", "--txq=2", "--rxq=2"]) if two else (EAL, [])
    # --mbuf-size before --txpkts: testpmd checks the packet length against
    # the mbuf size known when it parses --txpkts, and falls back to 64-byte
    # packets ("give up") when that is still the default 2176
    cmd = ["stdbuf", "-oL", "dpdk-testpmd", *eal, vdev, "--", "--forward-mode=txonly",
           f"--mbuf-size={mbuf}", f"--txpkts={frame}", "--burst=32", *more]
    out, dt = run_timed(cmd, seconds, "txonly packet forwarding packets/burst")
    if "give up" in out or f"packet len={frame}" not in out:
        raise RuntimeError(f"testpmd did not take --txpkts={frame}:\n" + out[-2000:])
    m = re.findall(r"TX-packets:\s+(\d+)", out.replace("\r", "\n"))
    if not m or not dt:
        raise RuntimeError("testpmd: no TX count:\n" + out[-2000:])
    return int(m[-1]) / dt


def gen(gen_bin, scen, vdev, seconds, tmp, two=False, clock=False):
    """rocewire-gen's rate; clock: through the model's clock
    (ROCEWIRE_GEN_LOCKSTEP=0), else the scenario must go in lockstep."""
    js = os.path.join(tmp, "sum.json")
    cmd = [gen_bin, *(EAL2 if two else EAL), vdev, "--", "--pace", "none", "-d", "3600s",
           "--status", "--summary-json", js, scen]
    if clock:
        os.environ["ROCEWIRE_GEN_LOCKSTEP"] = "0"
    try:
        out, _ = run_timed(cmd, seconds, "Mpps")
    finally:
        os.environ.pop("ROCEWIRE_GEN_LOCKSTEP", None)
    with open(js) as f:
        s = json.load(f)
    want = 0 if clock else s["queues"]
    if s.get("lockstep_queues") != want:
        raise RuntimeError(f"rocewire-gen: {s.get('lockstep_queues')} queues in lockstep, expected {want}")
    return s["packets"] / s["duration_s"], s


def best(k, fn):
    return max(fn() for _ in range(k))


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    build = sys.argv[1]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
    rounds = int(os.environ.get("BENCH_ROUNDS", "3"))
    gen_bin = os.path.join(build, "gen", "rocewire-gen")
    if not os.access(gen_bin, os.X_OK):
        print(f"bench_gen: {gen_bin} not built (DPDK off?)", file=sys.stderr)
        return 1
    load0 = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="rw-bench-gen.") as tmp:
        cases = [("62 B frames (UC SEND 4 B)", 62, "send", "4"),
                 ("1098 B frames (UC WRITE 1 KiB)", 1098, "write", "1KiB"),
                 ("4170 B frames (UC WRITE 4 KiB)", 4170, "write", "4KiB")]
        rows = []
        for label, frame, op, size in cases:
            scen = os.path.join(tmp, f"{op}.yaml")
            with open(scen, "w") as f:
                f.write(SCEN.format(name=op, op=op, size=size))
            for port, vdev_of in [("net_null", lambda: "--vdev=net_null0"),
                                  ("net_pcap file", lambda: "--vdev=net_pcap0,tx_pcap=" +
                                   os.path.join(tmp, "out.pcap"))]:
                tp = best(rounds, lambda: testpmd(frame, vdev_of(), seconds))
                g = best(rounds, lambda: gen(gen_bin, scen, vdev_of(), seconds, tmp)[0])
                rows.append((label, port, tp, g))
                try:
                    os.unlink(os.path.join(tmp, "out.pcap"))
                except FileNotFoundError:
                    pass
        # the same flows through the model's clock (every scenario's path):
        # what a mix of operations, RC or faults costs
        for label, frame, op, size in (cases[0], cases[2]):
            scen = os.path.join(tmp, f"{op}.yaml")
            tp = best(rounds, lambda: testpmd(frame, "--vdev=net_null0", seconds))
            g = best(rounds, lambda: gen(gen_bin, scen, "--vdev=net_null0", seconds, tmp, clock=True)[0])
            rows.append((label, "net_null, the model's clock", tp, g))
        # scaling: the 62-byte case on two lcores (two TX queues), both tools
        scen2 = os.path.join(tmp, "send2.yaml")
        with open(scen2, "w") as f:
            f.write(SCEN2.format(name="send2", op="send", size="4"))
        tp2 = best(rounds, lambda: testpmd(62, "--vdev=net_null0", seconds, two=True))
        g2 = best(rounds, lambda: gen(gen_bin, scen2, "--vdev=net_null0", seconds, tmp, two=True)[0])
        rows.append(("62 B frames (UC SEND 4 B)", "net_null, 2 lcores", tp2, g2))
        print("| frames | port | dpdk-testpmd txonly | rocewire-gen | ratio | rocewire-gen on the wire |")
        print("| --- | --- | --- | --- | --- | --- |")
        for label, port, tp, g in rows:
            frame = int(label.split()[0])
            # on an Ethernet wire a frame also takes its FCS, preamble and
            # inter-frame gap: 24 bytes
            gbps = g * (frame + 24) * 8 / 1e9
            wire = (f"{gbps:.0f} Gb/s ({gbps / 100:.2f}x 100GbE line rate)" if port.startswith("net_null")
                    else "(the file is the limit)")
            print(f"| {label} | {port} | {tp / 1e6:.2f} Mpps | {g / 1e6:.2f} Mpps | {g / tp:.2f}x | {wire} |")
        g1 = next(g for label, port, tp, g in rows if label.startswith("62 ") and port == "net_null")
        print(f"\nrocewire-gen on two lcores: {g2 / g1:.2f}x its one-lcore rate (testpmd: "
              f"{tp2 / next(tp for label, port, tp, g in rows if label.startswith('62 ') and port == 'net_null'):.2f}x)")
        # the machine's load, since a shared machine moves both columns
        load1 = os.getloadavg()
        print(f"\n{os.cpu_count()} CPUs; load average {load0[0]:.2f} at the start, "
              f"{load1[0]:.2f} at the end; best of {rounds} rounds of {seconds:g} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
